package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
	"paygate/internal/pdftext"
)

// TestMonthlyInvoiceThroughTheServer: a customer in Karnataka with a GSTIN
// makes calls; the draft of the month shows them; the month issued gives
// one invoice with the calls net of a failed one, IGST (the supplier is in
// Maharashtra), taxable value and tax adding up to what the ledger moved;
// its PDF says so; another customer cannot read it; an admin finds it by
// user; invoice.issued was written; the ledger check proves it.
func TestMonthlyInvoiceThroughTheServer(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		st := e.store.Stores().TaxProfiles
		if b := e.must(e.do("GET", "/api/v1/panel/settings/billing", e.admin, nil), 200); b.str("gst_rate") != "18.00" || len(b.body["missing"].([]any)) == 0 {
			t.Fatalf("settings never saved: %s", b.raw)
		}
		if err := st.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited", Address: "1 Marine Drive\nMumbai",
			State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319", UPI: "paygate@upi"}); err != nil {
			t.Fatal(err)
		}
		if b := e.must(e.do("GET", "/api/v1/panel/settings/billing", e.admin, nil), 200); len(b.body["missing"].([]any)) != 0 {
			t.Fatalf("complete settings: %s", b.raw)
		}
		e.newService("gst", "1.18")
		c := e.newCustomer("user", "enterprise", "100.00")
		other := e.newCustomer("user", "enterprise", "100.00")
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": "https://hooks.example.com/invoices"}), 200)
		if err := st.SaveProfile(ctx, &taxprofile.Profile{UserID: c.id, LegalName: "Bengaluru Buyers LLP", Address: "MG Road\nBengaluru",
			State: "29", GSTIN: "29AAGCB7383J1Z4"}); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			e.must(e.call(c, "gst", map[string]any{}), 200)
		}
		e.setUpstream(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(500) })
		e.call(c, "gst", map[string]any{}) // debited and refunded: not billed

		draft := e.must(e.do("GET", "/api/v1/panel/invoices/upcoming", c.token, nil), 200)
		lines := draft.body["lines"].([]any)
		if draft.body["number"] != nil || len(lines) != 1 || lines[0].(map[string]any)["quantity"].(float64) != 3 ||
			lines[0].(map[string]any)["gross"] != "3.54" || lines[0].(map[string]any)["igst"] != "0.54" {
			t.Fatalf("draft %s", draft.raw)
		}

		if d := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/upcoming?user_id=%d", c.id), e.admin, nil), 200); d.num("user_id") != c.id {
			t.Fatalf("the admin's read of the account's draft: %s", d.raw)
		}
		now := time.Now()
		month := plan.Month(now, mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); err != nil || res.Invoices != 1 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		list := e.must(e.do("GET", "/api/v1/panel/invoices", c.token, nil), 200).body["data"].([]any)
		if len(list) != 1 {
			t.Fatalf("invoices %v", list)
		}
		id := uint64(list[0].(map[string]any)["id"].(float64))
		inv := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d", id), c.token, nil), 200)
		totals := inv.body["totals"].(map[string]any)
		if inv.str("kind") != "invoice" || !strings.HasPrefix(inv.str("number"), "PG/") || inv.str("place_of_supply") != "29" ||
			totals["gross"] != "3.54" || totals["taxable"] != "3.00" || totals["igst"] != "0.54" || totals["cgst"] != "0.00" ||
			inv.body["recipient"].(map[string]any)["gstin"] != "29AAGCB7383J1Z4" {
			t.Fatalf("invoice %s", inv.raw)
		}
		e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d", id), other.token, nil), 404)
		e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d/pdf", id), other.token, nil), 404)
		if byUser := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices?user_id=%d", c.id), e.admin, nil), 200).body["data"].([]any); len(byUser) != 1 ||
			byUser[0].(map[string]any)["user_email"] != c.email {
			t.Fatalf("admin's list by user: %v", byUser)
		}
		e.must(e.do("GET", "/api/v1/panel/invoices?month=2026-13", c.token, nil), 422)

		pdf := e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d/pdf", id), c.token, nil)
		if pdf.status != 200 || pdf.header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(pdf.raw, "%PDF") {
			t.Fatalf("pdf: %d %s", pdf.status, pdf.header)
		}
		text := pdftext.Of(t, []byte(pdf.raw), "-layout")
		for _, want := range []string{inv.str("number"), "27AAPFU0939F1ZV", "29AAGCB7383J1Z4", "IGST 18%", "Karnataka (29)", "Rupees Three and Paise Fifty Four Only"} {
			if !strings.Contains(text, want) {
				t.Errorf("the PDF lacks %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "CGST") {
			t.Errorf("an inter-state invoice shows CGST:\n%s", text)
		}
		// The month's statement: 100.00 credited, four calls of 1.18
		// debited, the failed one refunded.
		stmt := e.must(e.do("GET", "/api/v1/panel/statements?month="+month, c.token, nil), 200)
		if stmt.str("opening_balance") != "0.00" || stmt.str("credits") != "101.18" || stmt.str("debits") != "4.72" ||
			stmt.str("closing_balance") != "96.46" || stmt.body["entries"].(float64) != 6 || e.balance(c) != "96.46" {
			t.Fatalf("statement %s, balance %s", stmt.raw, e.balance(c))
		}
		if a := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/statements?month=%s&user_id=%d", month, c.id), e.admin, nil), 200); a.raw != stmt.raw {
			t.Fatalf("the admin's read %s", a.raw)
		}
		if o := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/statements?month=%s&user_id=%d", month, c.id), other.token, nil), 200); o.num("user_id") != other.id {
			t.Fatalf("another customer read %s", o.raw)
		}
		csv := e.do("GET", "/api/v1/panel/statements?format=csv&month="+month, c.token, nil)
		rows := strings.Split(strings.TrimSpace(csv.raw), "\n")
		if csv.status != 200 || len(rows) != 1+6+2 || !strings.Contains(rows[1], "Opening balance") ||
			!strings.HasSuffix(strings.TrimSpace(rows[len(rows)-1]), `"Closing balance","4.72","101.18","96.46"`) {
			t.Fatalf("statement CSV %d:\n%s", csv.status, csv.raw)
		}
		spdf := e.do("GET", "/api/v1/panel/statements?format=pdf&month="+month, c.token, nil)
		if stext := pdftext.Of(t, []byte(spdf.raw), "-layout"); spdf.status != 200 || !strings.Contains(stext, "96.46") || !strings.Contains(stext, "Closing") {
			t.Fatalf("statement PDF %d:\n%s", spdf.status, stext)
		}
		e.must(e.do("GET", "/api/v1/panel/statements?month=11-2026", c.token, nil), 422)

		var events int64
		e.store.DB().Raw("SELECT COUNT(*) FROM webhook_events WHERE type = ?", "invoice.issued").Scan(&events)
		if events != 1 {
			t.Fatalf("%d invoice.issued events", events)
		}
		mailed := false
		for _, m := range e.sentTo(c.email) {
			mailed = mailed || strings.Contains(m.Subject, inv.str("number")) && strings.Contains(m.Text, fmt.Sprintf("/invoices?invoice=%d", id))
		}
		if !mailed {
			t.Fatalf("no mail of invoice %s: %+v", inv.str("number"), e.sentTo(c.email))
		}
		e.ledgerClean()
	})
}

// TestRefundOfAnInvoicedChargeIsACreditNote: a payout's fee is billed in
// the month it was charged; the payout fails next month and its fee comes
// back: that month has no invoice (nothing billed) but a credit note of its
// own series, naming the invoice it corrects, taxed as it was; the ledger
// check proves both.
func TestRefundOfAnInvoicedChargeIsACreditNote(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		st := e.store.Stores().TaxProfiles
		if err := st.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited", Address: "Mumbai",
			State: "27", GSTIN: "27AAPFU0939F1ZV", InvoicePrefix: "PG", SAC: "998319", AccountNumber: "50200012345678", IFSC: "HDFC0000123"}); err != nil {
			t.Fatal(err)
		}
		c := e.newCustomer("user", "starter", "1000.00")
		if err := st.SaveProfile(ctx, &taxprofile.Profile{UserID: c.id, LegalName: "Pune Traders", Address: "Pune", State: "27"}); err != nil {
			t.Fatal(err)
		}
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("fail-1", "50", "123456780000")), 200)
		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); err != nil || res.Invoices != 1 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		inv := e.must(e.do("GET", "/api/v1/panel/invoices", c.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		if inv["totals"].(map[string]any)["gross"] != "5.00" || inv["totals"].(map[string]any)["cgst"] != "0.38" {
			t.Fatalf("the payout fee's invoice %v", inv)
		}

		// Next month the payout fails: its amount and fee come back.
		e.payoutRounds(time.Until(end) + time.Hour)
		c.token = e.login(c.email, "user-password-1") // a month later
		next := plan.NextMonth(month)
		_, nextEnd, _ := plan.Bounds(next, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, next, nextEnd.Add(time.Minute)); err != nil || res.Invoices != 0 || res.CreditNotes != 1 {
			t.Fatalf("issue %s: %+v %v", next, res, err)
		}
		m := e.scrape()
		wantSample(t, m, `paygate_tax_documents_issued_total{kind="invoice"}`, 1)
		wantSample(t, m, `paygate_tax_documents_issued_total{kind="credit_note"}`, 1)
		cns := e.must(e.do("GET", "/api/v1/panel/invoices?kind=credit_note", c.token, nil), 200).body["data"].([]any)
		if len(cns) != 1 {
			t.Fatalf("credit notes %v", cns)
		}
		cn := cns[0].(map[string]any)
		totals := cn["totals"].(map[string]any)
		if !strings.HasPrefix(cn["number"].(string), "PGC/") || !strings.HasSuffix(cn["number"].(string), "/000001") || cn["month"] != next ||
			cn["corrects_number"] != inv["number"] || cn["corrects_id"] != inv["id"] || totals["gross"] != "5.00" || totals["cgst"] != "0.38" || totals["sgst"] != "0.38" {
			t.Fatalf("credit note %v, correcting %v", cn, inv["number"])
		}
		if cn["reason"] != "Refund of the fee of a failed payout" {
			t.Fatalf("credit note's reason %v", cn["reason"])
		}
		// Its PDF names the invoice by number and date side by side in the
		// header, with the reason; it was credited to the prepaid balance
		// and, as the invoice, shows no bank block.
		invAt, _ := time.Parse(time.RFC3339, inv["issued_at"].(string))
		pdf := e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d/pdf", uint64(cn["id"].(float64))), c.token, nil)
		text := pdftext.Of(t, []byte(pdf.raw), "-layout")
		header, _, _ := strings.Cut(text, "Description")
		together := regexp.MustCompile(regexp.QuoteMeta(inv["number"].(string)) + `\s+` + invAt.In(mustIST()).Format("02 Jan 2006") +
			`\s+Refund of the fee of a failed payout`)
		if !strings.Contains(text, "CREDIT NOTE") || !strings.Contains(header, "Original invoice no.") || !together.MatchString(header) ||
			!strings.Contains(text, "Credited to prepaid balance") || strings.Contains(text, "50200012345678") {
			t.Fatalf("credit note PDF:\n%s", text)
		}
		text = pdftext.Of(t, []byte(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d/pdf", uint64(inv["id"].(float64))), c.token, nil).raw), "-layout")
		if !strings.Contains(text, "Paid from prepaid balance") || strings.Contains(text, "50200012345678") || strings.Contains(text, "Payment details") {
			t.Fatalf("invoice PDF:\n%s", text)
		}
		e.ledgerClean()
	})
}
