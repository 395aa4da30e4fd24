package httpapi_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
)

// TestGSTR1Register: a month's documents, issued late (after an outage)
// so that one month holds them all: a B2B invoice (a buyer in Karnataka
// with a GSTIN: IGST), two B2C invoices (a buyer in Maharashtra without
// one, and the platform's invoice to a reseller without a profile), the
// reseller's bill of supply to its customer, and a credit note of the B2B
// invoice's payout fee, refunded the month after. The admin's register has
// the platform's four documents, each in its GSTR-1 table, the credit note
// naming the invoice's number and date; the SAC summary adds up to the
// documents' net sums; the CSV has the same figures under the export
// rules (a name starting with @ is defused). The reseller's register has
// only the document it issued; a user and a reseller's customer get 403.
func TestGSTR1Register(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		st := e.store.Stores().TaxProfiles
		if err := st.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited", Address: "1 Marine Drive\nMumbai",
			State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		e.newService("gstr", "1.18")
		b2b := e.newCustomer("user", "starter", "1000.00")
		b2c := e.newCustomer("user", "enterprise", "100.00")
		for _, p := range []*taxprofile.Profile{
			{UserID: b2b.id, LegalName: "Bengaluru Buyers LLP", Address: "MG Road\nBengaluru", State: "29", GSTIN: "29AAGCB7383J1Z4"},
			{UserID: b2c.id, LegalName: "@Pune Traders", Address: "Pune", State: "27"},
		} {
			if err := st.SaveProfile(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		r := e.newCustomer("reseller", "enterprise", "10.00")
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", r.token, resellerBilling), 200)
		cust := e.resellersCustomer(r, "20.00")
		for range 3 {
			e.must(e.call(b2b, "gstr", map[string]any{}), 200)
		}
		for range 2 {
			e.must(e.call(b2c, "gstr", map[string]any{}), 200)
		}
		e.must(e.call(cust, "gstr", map[string]any{}), 200)
		e.must(e.gw(b2b, "POST", "/api/v1/payout/transfer", bankPayout("fail-1", "50", "123456780000")), 200)
		e.settled()

		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		next := plan.NextMonth(month)
		_, nextEnd, _ := plan.Bounds(next, mustIST())
		e.payoutRounds(time.Until(end) + time.Hour) // the payout fails next month: its fee comes back
		e.skew.Store(int64(time.Until(nextEnd) + 2*time.Minute))
		at := nextEnd.Add(time.Minute)
		if res, err := e.app.Invoicing.Issue(ctx, month, at); err != nil || res.Invoices != 4 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		if res, err := e.app.Invoicing.Issue(ctx, next, at); err != nil || res.Invoices != 0 || res.CreditNotes != 1 {
			t.Fatalf("issue %s: %+v %v", next, res, err)
		}
		admin := e.login(adminEmail, adminPassword)
		for _, c := range []*customer{&b2b, &r} {
			c.token = e.login(c.email, "user-password-1")
		}
		cust.token = e.login(cust.email, "customer-password-1")
		dated := plan.Month(at, mustIST())
		date := at.In(mustIST()).Format(time.DateOnly)

		reg := e.must(e.do("GET", "/api/v1/panel/invoices/register?month="+dated, admin, nil), 200)
		if reg.str("month") != dated || reg.body["issuer_id"] != nil {
			t.Fatalf("the admin's register %s", reg.raw)
		}
		docs := map[uint64]map[string]any{} // by recipient; the credit note under 0
		for _, x := range reg.body["documents"].([]any) {
			d := x.(map[string]any)
			id := uint64(d["user_id"].(float64))
			if d["kind"] == "credit_note" {
				id = 0
			}
			if docs[id] != nil {
				t.Fatalf("two documents of %d: %s", id, reg.raw)
			}
			docs[id] = d
		}
		inv, cn := docs[b2b.id], docs[0]
		if len(docs) != 4 || inv == nil || cn == nil || docs[b2c.id] == nil || docs[r.id] == nil || docs[cust.id] != nil {
			t.Fatalf("the platform's documents of %s: %s", dated, reg.raw)
		}
		if inv["section"] != "b2b" || inv["kind"] != "invoice" || inv["date"] != date || inv["billed_month"] != month ||
			inv["recipient_gstin"] != "29AAGCB7383J1Z4" || inv["recipient_name"] != "Bengaluru Buyers LLP" || inv["place_of_supply"] != "29" ||
			inv["place_of_supply_name"] != "Karnataka" || inv["rate"] != "18.00" || inv["value"] != "8.54" || inv["cgst"] != "0.00" ||
			inv["corrects_number"] != nil || !strings.HasPrefix(inv["number"].(string), "PG/") {
			t.Fatalf("the B2B invoice %v", inv)
		}
		if cn["section"] != "cdnr" || cn["billed_month"] != next || cn["value"] != "5.00" || cn["recipient_gstin"] != "29AAGCB7383J1Z4" ||
			cn["corrects_number"] != inv["number"] || cn["corrects_date"] != date || !strings.HasPrefix(cn["number"].(string), "PGC/") {
			t.Fatalf("the credit note %v, correcting %v", cn, inv)
		}
		if d := docs[b2c.id]; d["section"] != "b2cs" || d["recipient_gstin"] != nil || d["value"] != "2.36" || d["cgst"] != "0.18" ||
			d["sgst"] != "0.18" || d["igst"] != "0.00" || d["place_of_supply_name"] != "Maharashtra" {
			t.Fatalf("the B2C invoice %v", d)
		}
		if d := docs[r.id]; d["section"] != "b2cs" || d["value"] != "1.18" {
			t.Fatalf("the platform's invoice to the reseller %v", d)
		}

		// The sums: the documents' own, and the SAC summary's, column by column.
		cols := []string{"value", "taxable", "igst", "cgst", "sgst"}
		add := func(into map[string]decimal.Decimal, row map[string]any, sign int64) {
			for _, c := range cols {
				into[c] = into[c].Add(decimal.RequireFromString(row[c].(string)).Mul(decimal.NewFromInt(sign)))
			}
		}
		invoices, credits, net, sac := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}, map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
		for id, d := range docs {
			if id == 0 {
				add(credits, d, 1)
				add(net, d, -1)
			} else {
				add(invoices, d, 1)
				add(net, d, 1)
			}
		}
		calls := false
		for _, x := range reg.body["sac_summary"].([]any) {
			row := x.(map[string]any)
			add(sac, row, 1)
			calls = calls || row["scope"] == "b2b" && row["sac"] == "998319" && row["quantity"] == float64(3) && row["value"] == "3.54"
		}
		if !calls {
			t.Errorf("the SAC summary lacks the B2B calls: %v", reg.body["sac_summary"])
		}
		totals := reg.body["totals"].(map[string]any)
		for _, c := range []struct {
			name string
			got  map[string]decimal.Decimal
			want map[string]any
		}{{"invoices", invoices, totals["invoices"].(map[string]any)}, {"credit notes", credits, totals["credit_notes"].(map[string]any)},
			{"net", net, totals["net"].(map[string]any)}, {"the SAC summary", sac, totals["net"].(map[string]any)}} {
			for _, col := range cols {
				if c.got[col].StringFixed(2) != c.want[col] {
					t.Errorf("%s: %s %s, want %v", c.name, col, c.got[col].StringFixed(2), c.want[col])
				}
			}
		}
		if n := totals["net"].(map[string]any); n["value"] != "7.08" {
			t.Errorf("net %v: want 8.54 + 2.36 + 1.18 - 5.00", n)
		}

		// The CSV: the same documents, summary and totals.
		out := e.do("GET", "/api/v1/panel/invoices/register?format=csv&month="+dated, admin, nil)
		if out.status != 200 || !strings.HasPrefix(out.header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(out.header.Get("Content-Disposition"), "gstr1-register-"+dated) {
			t.Fatalf("CSV %d %v: %s", out.status, out.header, out.raw)
		}
		records, err := csv.NewReader(strings.NewReader(out.raw)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		header := "record,section,kind,number,date,recipient_gstin,recipient_name,place_of_supply,rate,value,taxable,igst,cgst,sgst," +
			"corrects_number,corrects_date,billed_month,sac,quantity"
		if got := strings.Join(records[0], ","); got != header {
			t.Fatalf("CSV columns %s, want %s", got, header)
		}
		kinds := map[string]int{}
		csvSAC := map[string]decimal.Decimal{}
		for _, rec := range records[1:] {
			kinds[rec[0]]++
			switch {
			case rec[0] == "document" && rec[3] == inv["number"]:
				if rec[1] != "b2b" || rec[4] != date || rec[5] != "29AAGCB7383J1Z4" || rec[7] != "29-Karnataka" || rec[9] != "8.54" || rec[16] != month {
					t.Errorf("the B2B invoice's row %q", rec)
				}
			case rec[0] == "document" && rec[3] == cn["number"]:
				if rec[1] != "cdnr" || rec[2] != "credit_note" || rec[14] != inv["number"] || rec[15] != date || rec[9] != "5.00" {
					t.Errorf("the credit note's row %q", rec)
				}
			case rec[0] == "document" && rec[3] == docs[b2c.id]["number"]:
				if rec[6] != "'@Pune Traders" || rec[5] != "" || rec[7] != "27-Maharashtra" {
					t.Errorf("the B2C invoice's row %q", rec)
				}
			case rec[0] == "sac_summary":
				csvSAC["value"] = csvSAC["value"].Add(decimal.RequireFromString(rec[9]))
				csvSAC["igst"] = csvSAC["igst"].Add(decimal.RequireFromString(rec[11]))
			case rec[0] == "total" && rec[1] == "net":
				if rec[9] != "7.08" || csvSAC["value"].StringFixed(2) != rec[9] || csvSAC["igst"].StringFixed(2) != rec[11] {
					t.Errorf("the net row %q, the SAC rows' sums %v", rec, csvSAC)
				}
			}
		}
		if kinds["document"] != 4 || kinds["sac_summary"] != len(reg.body["sac_summary"].([]any)) || kinds["total"] != 3 {
			t.Errorf("CSV records %v:\n%s", kinds, out.raw)
		}

		// The reseller's: the bill of supply it issued, not the platform's invoice to it.
		rr := e.must(e.do("GET", "/api/v1/panel/invoices/register?month="+dated, r.token, nil), 200)
		rdocs := rr.body["documents"].([]any)
		if rr.body["issuer_id"] != float64(r.id) || len(rdocs) != 1 {
			t.Fatalf("the reseller's register %s", rr.raw)
		}
		if d := rdocs[0].(map[string]any); d["user_id"] != float64(cust.id) || d["section"] != "nil" || d["rate"] != "0.00" || d["value"] != "1.18" ||
			!strings.HasPrefix(d["number"].(string), "IN/") {
			t.Fatalf("the reseller's document %v", d)
		}
		if n := rr.body["totals"].(map[string]any)["net"].(map[string]any); n["value"] != "1.18" || n["cgst"] != "0.00" {
			t.Fatalf("the reseller's totals %v", n)
		}
		if rcsv := e.do("GET", "/api/v1/panel/invoices/register?format=csv&month="+dated, r.token, nil); rcsv.status != 200 ||
			strings.Count(rcsv.raw, "\n\"document\"") != 1 || strings.Contains(rcsv.raw, "PG/") {
			t.Fatalf("the reseller's CSV %d:\n%s", rcsv.status, rcsv.raw)
		}

		// Nobody else has a register; a month must be one.
		for _, token := range []string{b2b.token, cust.token} {
			e.must(e.do("GET", "/api/v1/panel/invoices/register?month="+dated, token, nil), 403)
			e.must(e.do("GET", "/api/v1/panel/invoices/register?format=csv&month="+dated, token, nil), 403)
		}
		for _, q := range []string{"", "?month=2026-13", "?month=" + dated + "&format=pdf"} {
			e.must(e.do("GET", "/api/v1/panel/invoices/register"+q, admin, nil), 422)
		}
		if empty := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/register?month=%s", month), admin, nil), 200); len(empty.body["documents"].([]any)) != 0 ||
			len(empty.body["sac_summary"].([]any)) != 0 {
			t.Fatalf("a month without documents: %s", empty.raw)
		}
		e.ledgerClean()
	})
}
