package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"paygate/adapters/einvoice/einvoicetest"
	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
	"paygate/internal/pdftext"
)

// testSignedQR is shaped like the portal's signed QR code: a JWS (header,
// payload, signature; base64url), about as long as a real one.
var testSignedQR = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjQ0NDRDNEI0NEQ3QjZCNzI1OTY2QzcyMTc2NkE4N0Q2RjU5QjZBNTUiLCJ0eXAiOiJKV1QifQ." +
	strings.Repeat("eyJkYXRhIjoie1wiU2VsbGVyR3N0aW5cIjpcIjI3QUFQRlUwOTM5RjFaVlwiLFwiQnV5ZXJHc3RpblwiOlwiMjlBQUdDQjczODNKMVo0XCJ9In0", 5) +
	"." + strings.Repeat("U2lnbmF0dXJlT2ZUaGVQb3J0YWxfXy0t", 8)

// issuedIDs issues the month of now and answers the documents' ids by
// recipient.
func (e *env) issueThisMonth(t *testing.T) {
	t.Helper()
	month := plan.Month(time.Now(), mustIST())
	_, end, _ := plan.Bounds(month, mustIST())
	if _, err := e.app.Invoicing.Issue(context.Background(), month, end.Add(time.Minute)); err != nil {
		t.Fatalf("issue %s: %v", month, err)
	}
}

func (e *env) invoiceOf(t *testing.T, c customer) resp {
	t.Helper()
	l := e.must(e.do("GET", "/api/v1/panel/invoices?as=recipient", c.token, nil), 200).body["data"].([]any)
	if len(l) != 1 {
		t.Fatalf("invoices of %d: %v", c.id, l)
	}
	id := uint64(l[0].(map[string]any)["id"].(float64))
	return e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d", id), c.token, nil), 200)
}

// checkEInvoice: the e-invoice JSON validates against the schema kept in
// the repository (api/einvoice) and says what the document says, field by
// field.
func checkEInvoice(t *testing.T, raw string, inv resp, typ string) {
	t.Helper()
	if err := einvoicetest.Validate([]byte(raw)); err != nil {
		t.Fatalf("the e-invoice breaks schema 1.1: %v\n%s", err, raw)
	}
	var doc struct {
		Version               string
		TranDtls              struct{ SupTyp string }
		DocDtls               struct{ Typ, No, Dt string }
		SellerDtls, BuyerDtls struct{ Gstin, LglNm, Pos, Stcd string }
		ItemList              []struct {
			IsServc, HsnCd, PrdDesc                                   string
			Qty, AssAmt, CgstAmt, SgstAmt, IgstAmt, TotItemVal, GstRt json.Number
		}
		ValDtls struct{ AssVal, CgstVal, SgstVal, IgstVal, TotInvVal json.Number }
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	issued, _ := time.Parse(time.RFC3339, inv.str("issued_at"))
	sup, rcp := inv.body["supplier"].(map[string]any), inv.body["recipient"].(map[string]any)
	if doc.Version != "1.1" || doc.TranDtls.SupTyp != "B2B" || doc.DocDtls.Typ != typ || doc.DocDtls.No != inv.str("number") ||
		doc.DocDtls.Dt != issued.In(mustIST()).Format("02/01/2006") ||
		doc.SellerDtls.Gstin != sup["gstin"] || doc.SellerDtls.LglNm != sup["legal_name"] || doc.SellerDtls.Stcd != sup["state"] ||
		doc.BuyerDtls.Gstin != rcp["gstin"] || doc.BuyerDtls.LglNm != rcp["legal_name"] || doc.BuyerDtls.Pos != inv.str("place_of_supply") {
		t.Fatalf("e-invoice header %+v\nfor %s", doc, inv.raw)
	}
	lines := inv.body["lines"].([]any)
	if len(doc.ItemList) != len(lines) || len(lines) == 0 {
		t.Fatalf("%d items for %d lines", len(doc.ItemList), len(lines))
	}
	for i, it := range doc.ItemList {
		l := lines[i].(map[string]any)
		if it.IsServc != "Y" || it.HsnCd != l["sac"] || it.PrdDesc != l["description"] || it.Qty.String() != fmt.Sprint(l["quantity"]) ||
			it.AssAmt.String() != l["taxable"] || it.CgstAmt.String() != l["cgst"] || it.SgstAmt.String() != l["sgst"] ||
			it.IgstAmt.String() != l["igst"] || it.TotItemVal.String() != l["gross"] || it.GstRt.String() != inv.str("rate") {
			t.Errorf("item %d %+v for line %v", i, it, l)
		}
	}
	tot := inv.body["totals"].(map[string]any)
	if v := doc.ValDtls; v.AssVal.String() != tot["taxable"] || v.CgstVal.String() != tot["cgst"] || v.SgstVal.String() != tot["sgst"] ||
		v.IgstVal.String() != tot["igst"] || v.TotInvVal.String() != tot["gross"] {
		t.Errorf("ValDtls %+v for totals %v", v, tot)
	}
}

// Issue 45 (5), e-invoicing: a registered customer's invoice (both GSTINs)
// is answered in the e-invoice schema 1.1 to the platform's admin, and
// validates; an unregistered customer's is 409 not_b2b; the recipient
// itself is refused (403 not_issuer), another account is told it does not
// exist. The admin records the portal's IRN once (audited; a second
// attempt 409 irn_recorded, a bad one 422 changing nothing); the invoice
// then shows it and its PDF prints the IRN, the acknowledgement and a QR
// code that zbar reads as the signed QR code. A reseller's customer's
// invoice is the reseller's to e-invoice: the reseller gets it, the
// platform's admin is refused. The ledger check stays clean.
func TestEInvoiceAndIRNThroughTheServer(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		st := e.store.Stores().TaxProfiles
		if err := st.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited",
			Address: "1 Marine Drive\nNariman Point\nMumbai 400021", State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F",
			InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		svc := e.newService("einv", "1.18")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(svc)), e.admin,
			map[string]any{"reseller_price": "1.0000"}), 200)
		b2b := e.newCustomer("user", "enterprise", "100.00")
		b2c := e.newCustomer("user", "enterprise", "100.00")
		other := e.newCustomer("user", "enterprise", "0.00")
		if err := st.SaveProfile(ctx, &taxprofile.Profile{UserID: b2b.id, LegalName: "Bengaluru Buyers LLP", Address: "MG Road\nBengaluru 560001",
			State: "29", GSTIN: "29AAGCB7383J1Z4"}); err != nil {
			t.Fatal(err)
		}
		if err := st.SaveProfile(ctx, &taxprofile.Profile{UserID: b2c.id, LegalName: "Asha Rao", Address: "Pune", State: "27"}); err != nil {
			t.Fatal(err)
		}
		r := e.newCustomer("reseller", "enterprise", "10.00")
		rc := e.resellersCustomer(r, "20.00")
		billing := map[string]any{}
		for k, v := range resellerBilling {
			billing[k] = v
		}
		billing["gstin"] = "29AAGCB7383J1Z4"
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", r.token, billing), 200)
		if err := st.SaveProfile(ctx, &taxprofile.Profile{UserID: rc.id, LegalName: "Sahyadri Lending Services Private Limited",
			Address: "Senapati Bapat Marg\nMumbai 400013", State: "27", GSTIN: "27AASCS2460H1Z0"}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []customer{b2b, b2b, b2b, b2c, rc, rc} {
			e.must(e.call(c, "einv", map[string]any{}), 200)
		}
		e.settled()
		e.issueThisMonth(t)

		inv := e.invoiceOf(t, b2b)
		id := inv.num("id")
		path := fmt.Sprintf("/api/v1/panel/invoices/%d", id)
		if inv.body["irn"] != nil {
			t.Fatalf("an IRN before one was recorded: %s", inv.raw)
		}
		ei := e.must(e.do("GET", path+"/einvoice", e.admin, nil), 200)
		checkEInvoice(t, ei.raw, inv, "INV")
		if !strings.Contains(ei.raw, `"HsnCd":"998319"`) || !strings.Contains(ei.raw, `"IgstVal":0.54`) || !strings.Contains(ei.raw, `"Pin":400021`) {
			t.Fatalf("the e-invoice's figures: %s", ei.raw)
		}
		if r := e.must(e.do("GET", path+"/einvoice", b2b.token, nil), 403); r.str("error") != "not_issuer" {
			t.Fatalf("the recipient: %s", r.raw)
		}
		e.must(e.do("GET", path+"/einvoice", other.token, nil), 404)
		b2cPath := fmt.Sprintf("/api/v1/panel/invoices/%d", e.invoiceOf(t, b2c).num("id"))
		if r := e.must(e.do("GET", b2cPath+"/einvoice", e.admin, nil), 409); r.str("error") != "not_b2b" {
			t.Fatalf("a B2C document: %s", r.raw)
		}

		irn := "8a1c4bdba5b5a6d5d4bd5e1d2d0f6c0f1c1a0b9e8d7c6b5a4f3e2d1c0b9a8f7e"
		body := map[string]any{"irn": irn, "ack_no": "112610036563310", "ack_date": time.Now().UTC().Add(-time.Minute).Format(time.RFC3339),
			"signed_qr": testSignedQR}
		bad := map[string]any{"irn": irn[:60], "ack_no": "112610036563310", "ack_date": "yesterday", "signed_qr": testSignedQR}
		if r := e.must(e.do("PUT", path+"/irn", e.admin, bad), 422); r.fieldErrors("irn") == nil || r.fieldErrors("ack_date") == nil {
			t.Fatalf("a bad IRN: %s", r.raw)
		}
		if r := e.must(e.do("PUT", b2cPath+"/irn", e.admin, body), 409); r.str("error") != "not_b2b" {
			t.Fatalf("an IRN for a B2C document: %s", r.raw)
		}
		e.must(e.do("PUT", path+"/irn", b2b.token, body), 403)
		e.must(e.do("PUT", path+"/irn", other.token, body), 404)
		if g := e.must(e.do("GET", path, b2b.token, nil), 200); g.body["irn"] != nil {
			t.Fatalf("refused attempts recorded an IRN: %s", g.raw)
		}
		rec := e.must(e.do("PUT", path+"/irn", e.admin, body), 200)
		got, _ := rec.body["irn"].(map[string]any)
		if got == nil || got["irn"] != irn || got["ack_no"] != "112610036563310" || got["signed_qr"] != testSignedQR {
			t.Fatalf("recorded %s", rec.raw)
		}
		again := body
		again["ack_no"] = "112610036563399"
		if r := e.must(e.do("PUT", path+"/irn", e.admin, again), 409); r.str("error") != "irn_recorded" {
			t.Fatalf("a second IRN: %s", r.raw)
		}
		if g := e.must(e.do("GET", path, b2b.token, nil), 200); g.body["irn"].(map[string]any)["ack_no"] != "112610036563310" {
			t.Fatalf("the invoice after: %s", g.raw)
		}
		audits := e.must(e.do("GET", "/api/v1/panel/audit-logs?action=invoice.irn_record", e.admin, nil), 200).body["data"].([]any)
		if len(audits) != 1 || !strings.Contains(fmt.Sprint(audits[0]), irn) {
			t.Fatalf("audit entries %v", audits)
		}

		pdf := e.do("GET", path+"/pdf", b2b.token, nil)
		if pdf.status != 200 {
			t.Fatalf("pdf %d", pdf.status)
		}
		text := pdftext.Of(t, []byte(pdf.raw), "-layout")
		for _, want := range []string{"E-invoice", irn, "112610036563310", "Ack. date"} {
			if !strings.Contains(text, want) {
				t.Errorf("the PDF lacks %q:\n%s", want, text)
			}
		}
		if codes := pdftext.QRCodes(t, []byte(pdf.raw)); len(codes) != 1 || codes[0] != testSignedQR {
			t.Fatalf("the PDF's QR codes read %q", codes)
		}

		// The reseller's customer's document: the reseller's to e-invoice.
		rinv := e.invoiceOf(t, rc)
		rpath := fmt.Sprintf("/api/v1/panel/invoices/%d", rinv.num("id"))
		if rinv.body["issuer_id"] != float64(r.id) {
			t.Fatalf("the reseller's customer's invoice %s", rinv.raw)
		}
		checkEInvoice(t, e.must(e.do("GET", rpath+"/einvoice", r.token, nil), 200).raw, rinv, "INV")
		if r := e.must(e.do("GET", rpath+"/einvoice", e.admin, nil), 403); r.str("error") != "not_issuer" {
			t.Fatalf("the platform's admin on a reseller's document: %s", r.raw)
		}
		body["irn"] = strings.Repeat("ab", 32)
		e.must(e.do("PUT", rpath+"/irn", e.admin, body), 403)
		e.must(e.do("PUT", rpath+"/irn", r.token, body), 200)
		e.ledgerClean()
	})
}
