package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"paygate/core/billing/gst"
	"paygate/core/billing/issuing"
	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
	"paygate/internal/pdftext"
)

// Issue 44 (4), invoices follow the money: a reseller sells a service at
// 2.00 (its own price 1.00, the list 1.50); two customers call it four
// times, the reseller once. While the reseller has no billing record the
// month waits: nothing is issued to them, never under the platform's name.
// Once it saves one (no GSTIN), the month is issued: each customer's
// invoice is the reseller's bill of supply (its name, prefix IN, its own
// series from 000001, consecutive), at the price the customer paid; the
// platform's invoice to the reseller has its own call and a line of its
// customers' calls at its cost (8.00 less 4.00 commission). The reseller
// lists and downloads both sides; another reseller and the customers read
// nothing that is not theirs (404). The ledger check proves it all.
func TestResellerIssuesItsCustomersInvoices(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		if err := e.store.Stores().TaxProfiles.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited",
			Address: "1 Marine Drive\nMumbai", State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		svc := e.newService("resold", "1.5000")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(svc)), e.admin,
			map[string]any{"reseller_price": "1.0000"}), 200)
		r := e.newCustomer("reseller", "enterprise", "10.00")
		other := e.newCustomer("reseller", "enterprise", "0.00")
		c1, c2 := e.resellersCustomer(r, "20.00"), e.resellersCustomer(r, "20.00")
		e.must(e.do("PUT", fmt.Sprintf(panelAPI+"/customer-prices/%d", svc), r.token, map[string]any{"price": "2.00"}), 200)
		for range 3 {
			e.must(e.call(c1, "resold", map[string]any{}), 200)
		}
		e.must(e.call(c2, "resold", map[string]any{}), 200)
		e.must(e.call(r, "resold", map[string]any{}), 200)
		e.settled()

		// The drafts so far: the customer's is its reseller's (its account
		// name until it saves a record, never the platform's); the
		// reseller's has its customers' calls at its cost.
		if dr := e.must(e.do("GET", "/api/v1/panel/invoices/upcoming", c1.token, nil), 200); dr.body["issuer_id"] != float64(r.id) ||
			dr.body["supplier"].(map[string]any)["legal_name"] != "User" || dr.body["totals"].(map[string]any)["gross"] != "6.00" {
			t.Fatalf("the customer's draft %s", dr.raw)
		}
		if dr := e.must(e.do("GET", "/api/v1/panel/invoices/upcoming", r.token, nil), 200); dr.body["issuer_id"] != nil ||
			dr.body["totals"].(map[string]any)["gross"] != "5.00" {
			t.Fatalf("the reseller's draft %s", dr.raw)
		}
		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		at := end.Add(time.Minute)
		// No billing record: the reseller's and its customers' documents wait.
		if _, err := e.app.Invoicing.Issue(ctx, month, at); !errors.Is(err, issuing.ErrResellerBillingMissing) {
			t.Fatalf("issue without the reseller's record: %v", err)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/invoices", r.token, nil), 200).body["data"].([]any); len(l) != 0 {
			t.Fatalf("issued while the reseller had no record: %v", l)
		}
		// The reseller is told, once for the month however often it runs.
		if _, err := e.app.Invoicing.Issue(ctx, month, at); !errors.Is(err, issuing.ErrResellerBillingMissing) {
			t.Fatalf("issue again without the reseller's record: %v", err)
		}
		told := 0
		for _, m := range e.sentTo(r.email) {
			if strings.Contains(m.Subject, "wait for your billing settings") {
				told++
			}
		}
		if told != 1 {
			t.Fatalf("the reseller was told %d times: %+v", told, e.sentTo(r.email))
		}
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", r.token, resellerBilling), 200)
		if res, err := e.app.Invoicing.Issue(ctx, month, at); err != nil || res.Invoices != 3 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}

		fy := gst.FinancialYear(at, mustIST())
		mine := e.must(e.do("GET", "/api/v1/panel/invoices?as=recipient", r.token, nil), 200).body["data"].([]any)
		issued := e.must(e.do("GET", "/api/v1/panel/invoices?as=issuer", r.token, nil), 200).body["data"].([]any)
		both := e.must(e.do("GET", "/api/v1/panel/invoices", r.token, nil), 200).body["data"].([]any)
		if len(mine) != 1 || len(issued) != 2 || len(both) != 3 {
			t.Fatalf("the reseller's lists: own %v, issued %v, both %v", mine, issued, both)
		}
		numbers := map[uint64]string{}
		for _, x := range issued {
			inv := x.(map[string]any)
			totals := inv["totals"].(map[string]any)
			id := uint64(inv["user_id"].(float64))
			want := map[uint64]string{c1.id: "6.00", c2.id: "2.00"}[id]
			if inv["issuer_id"] != float64(r.id) || inv["supplier"].(map[string]any)["legal_name"] != "Asha Digital Services" ||
				inv["rate"] != "0.00" || totals["gross"] != want || totals["taxable"] != want || totals["cgst"] != "0.00" {
				t.Fatalf("a customer's invoice %v", inv)
			}
			numbers[id] = inv["number"].(string)
		}
		if got := []string{numbers[c1.id], numbers[c2.id]}; !(got[0] == "IN/"+fy+"/000001" && got[1] == "IN/"+fy+"/000002" ||
			got[0] == "IN/"+fy+"/000002" && got[1] == "IN/"+fy+"/000001") {
			t.Fatalf("the reseller's series: %v", got)
		}
		if l := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices?user_id=%d", c2.id), r.token, nil), 200).body["data"].([]any); len(l) != 1 ||
			l[0].(map[string]any)["number"] != numbers[c2.id] {
			t.Fatalf("one customer's: %v", l)
		}

		own := mine[0].(map[string]any)
		if own["issuer_id"] != nil || !strings.HasPrefix(own["number"].(string), "PG/") ||
			own["supplier"].(map[string]any)["legal_name"] != "Paygate Technologies Private Limited" || own["totals"].(map[string]any)["gross"] != "5.00" {
			t.Fatalf("the platform's invoice to the reseller %v", own)
		}
		lines := map[string]map[string]any{}
		for _, x := range own["lines"].([]any) {
			l := x.(map[string]any)
			lines[l["description"].(string)] = l
		}
		if l := lines["Service resold"]; l == nil || l["resold"] != false || l["gross"] != "1.00" || l["quantity"] != float64(1) {
			t.Fatalf("the reseller's own calls: %v", own["lines"])
		}
		if l := lines["Customers' calls: Service resold"]; l == nil || l["resold"] != true || l["gross"] != "4.00" || l["quantity"] != float64(4) ||
			l["taxable"] != "3.38" || l["cgst"] != "0.31" || l["sgst"] != "0.31" { // equal halves, the odd paisa in the taxable value
			t.Fatalf("its customers' calls at its cost: %v", own["lines"])
		}

		// Downloads and scoping.
		c1doc := fmt.Sprintf("/api/v1/panel/invoices/%d", uint64(issuedOf(issued, c1.id)["id"].(float64)))
		ownDoc := fmt.Sprintf("/api/v1/panel/invoices/%d", uint64(own["id"].(float64)))
		for _, ok := range []struct {
			token, path string
		}{{r.token, c1doc}, {c1.token, c1doc}, {r.token, ownDoc}} {
			e.must(e.do("GET", ok.path, ok.token, nil), 200)
			if pdf := e.do("GET", ok.path+"/pdf", ok.token, nil); pdf.status != 200 || !strings.HasPrefix(pdf.raw, "%PDF") {
				t.Fatalf("%s/pdf: %d", ok.path, pdf.status)
			}
		}
		for _, no := range []struct {
			token, path string
		}{{other.token, c1doc}, {c2.token, c1doc}, {c1.token, ownDoc}, {other.token, ownDoc}} {
			e.must(e.do("GET", no.path, no.token, nil), 404)
			e.must(e.do("GET", no.path+"/pdf", no.token, nil), 404)
		}
		if l := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices?user_id=%d", c1.id), other.token, nil), 200).body["data"].([]any); len(l) != 0 {
			t.Fatalf("another reseller lists %v", l)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/invoices", c1.token, nil), 200).body["data"].([]any); len(l) != 1 {
			t.Fatalf("the customer's own list %v", l)
		}
		e.must(e.do("GET", "/api/v1/panel/invoices?as=seller", r.token, nil), 422)

		pdf := e.do("GET", c1doc+"/pdf", c1.token, nil)
		if out := os.Getenv("RESELLER_INVOICE_PDF"); out != "" {
			_ = os.WriteFile(out, []byte(pdf.raw), 0o600)
		}
		text := pdftext.Of(t, []byte(pdf.raw), "-layout")
		for _, want := range []string{"Asha Digital Services", numbers[c1.id], "BILL OF SUPPLY"} {
			if !strings.Contains(text, want) {
				t.Errorf("the customer's PDF lacks %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "Paygate Technologies") || strings.Contains(text, "27AAPFU0939F1ZV") {
			t.Errorf("the customer's PDF names the platform:\n%s", text)
		}
		// Its statement too is headed by its reseller.
		spdf := e.do("GET", "/api/v1/panel/statements?format=pdf&month="+month, c1.token, nil)
		if st := pdftext.Of(t, []byte(spdf.raw), "-layout"); spdf.status != 200 || !strings.Contains(st, "Asha Digital Services") ||
			strings.Contains(st, "Paygate Technologies") {
			t.Errorf("the customer's statement %d:\n%s", spdf.status, st)
		}
		e.ledgerClean()
	})
}

func issuedOf(docs []any, userID uint64) map[string]any {
	for _, x := range docs {
		if d := x.(map[string]any); d["user_id"] == float64(userID) {
			return d
		}
	}
	return nil
}

// A customer's payout fee (10.00; the reseller's cost 5.00) is invoiced by
// the reseller in the month it was charged, and billed to the reseller at
// 5.00. The payout fails next month and the fee comes back: the customer
// gets the reseller's credit note (its own INC series) for 10.00, and the
// reseller the platform's credit note for its cost, 5.00 (the refund less
// the commission it cancelled), each naming the invoice it corrects; the
// ledger check proves both months.
func TestRefundOfAResoldChargeCreditsBothAtTheirPrices(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		if err := e.store.Stores().TaxProfiles.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited",
			Address: "Mumbai", State: "27", GSTIN: "27AAPFU0939F1ZV", InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		r := e.newCustomer("reseller", "starter", "0.00")
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", r.token, resellerBilling), 200)
		cust := e.resellersCustomer(r, "1000.00")
		e.must(e.do("PUT", fmt.Sprintf(panelAPI+"/customer-prices/%d", e.payoutServiceID(r)), r.token, map[string]any{"price": "10.00"}), 200)
		e.must(e.gw(cust, "POST", "/api/v1/payout/transfer", bankPayout("fail-1", "50", "123456780000")), 200)
		e.settled()
		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); err != nil || res.Invoices != 2 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		custInv := e.must(e.do("GET", "/api/v1/panel/invoices", cust.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		resInv := e.must(e.do("GET", "/api/v1/panel/invoices?as=recipient", r.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		if custInv["totals"].(map[string]any)["gross"] != "10.00" || resInv["totals"].(map[string]any)["gross"] != "5.00" {
			t.Fatalf("the customer's invoice %v, the reseller's %v", custInv, resInv)
		}
		e.ledgerClean()

		e.payoutRounds(time.Until(end) + time.Hour)
		cust.token = e.login(cust.email, "customer-password-1") // a month later
		r.token = e.login(r.email, "user-password-1")
		next := plan.NextMonth(month)
		_, nextEnd, _ := plan.Bounds(next, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, next, nextEnd.Add(time.Minute)); err != nil || res.Invoices != 0 || res.CreditNotes != 2 {
			t.Fatalf("issue %s: %+v %v", next, res, err)
		}
		cn := e.must(e.do("GET", "/api/v1/panel/invoices?kind=credit_note", cust.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		if !strings.HasPrefix(cn["number"].(string), "INC/") || cn["issuer_id"] != float64(r.id) || cn["corrects_number"] != custInv["number"] ||
			cn["totals"].(map[string]any)["gross"] != "10.00" || cn["supplier"].(map[string]any)["legal_name"] != "Asha Digital Services" {
			t.Fatalf("the customer's credit note %v", cn)
		}
		rcn := e.must(e.do("GET", "/api/v1/panel/invoices?as=recipient&kind=credit_note", r.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		line := rcn["lines"].([]any)[0].(map[string]any)
		if !strings.HasPrefix(rcn["number"].(string), "PGC/") || rcn["issuer_id"] != nil || rcn["corrects_number"] != resInv["number"] ||
			rcn["totals"].(map[string]any)["gross"] != "5.00" || line["resold"] != true {
			t.Fatalf("the reseller's credit note %v", rcn)
		}
		e.ledgerClean()
	})
}
