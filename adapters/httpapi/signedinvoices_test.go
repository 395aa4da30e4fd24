package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"paygate/adapters/invoicepdf"
	"paygate/core/app"
	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
	"paygate/internal/pdftext"
	"paygate/internal/testsigner"
)

// TestDownloadedInvoicePDFIsSigned: with a signing certificate configured,
// the invoice PDF a customer downloads carries a signature that pdfsig
// reports valid over the whole file, and says who signed it; so does the
// platform's invoice to a reseller. A reseller's invoice to its customer is
// not signed in the platform's name, and the month's statement (not a tax
// document) stays unsigned.
func TestDownloadedInvoicePDFIsSigned(t *testing.T) {
	const signer = "Paygate Signing Authority"
	s, err := invoicepdf.NewSigner(testsigner.PKCS12(t, signer, "p12-password"), "p12-password", nil)
	if err != nil {
		t.Fatal(err)
	}
	signed := func(d *app.Deps) { d.Renderer = invoicepdf.NewSigned(s) }
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		st := e.store.Stores().TaxProfiles
		if err := st.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited", Address: "1 Marine Drive\nMumbai",
			State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		svc := e.newService("gst", "1.18")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(svc)), e.admin, map[string]any{"reseller_price": "1.00"}), 200)
		c := e.newCustomer("user", "enterprise", "100.00")
		r := e.newCustomer("reseller", "enterprise", "10.00")
		rc := e.resellersCustomer(r, "20.00")
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", r.token, resellerBilling), 200)
		e.must(e.call(rc, "gst", map[string]any{}), 200)
		e.settled()
		if err := st.SaveProfile(ctx, &taxprofile.Profile{UserID: c.id, LegalName: "Pune Traders", Address: "Pune", State: "27"}); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			e.must(e.call(c, "gst", map[string]any{}), 200)
		}
		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); err != nil || res.Invoices != 3 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		inv := e.must(e.do("GET", "/api/v1/panel/invoices", c.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		toReseller := e.must(e.do("GET", "/api/v1/panel/invoices?as=recipient", r.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		resold := e.must(e.do("GET", "/api/v1/panel/invoices", rc.token, nil), 200).body["data"].([]any)[0].(map[string]any)
		if toReseller["issuer_id"] != nil || resold["issuer_id"] != float64(r.id) {
			t.Fatalf("the reseller's invoice %v, its customer's %v", toReseller, resold)
		}

		for _, dl := range []struct {
			token string
			inv   map[string]any
		}{{c.token, inv}, {e.admin, inv}, {r.token, toReseller}} {
			inv := dl.inv
			pdf := e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d/pdf", uint64(inv["id"].(float64))), dl.token, nil)
			if pdf.status != 200 || pdf.header.Get("Content-Type") != "application/pdf" {
				t.Fatalf("pdf: %d %s", pdf.status, pdf.header)
			}
			report := pdftext.Signatures(t, []byte(pdf.raw))
			for _, want := range []string{"Signer Certificate Common Name: " + signer, "Total document signed", "Signature Validation: Signature is Valid."} {
				if !strings.Contains(report, want) {
					t.Errorf("pdfsig does not say %q:\n%s", want, report)
				}
			}
			text := strings.Join(strings.Fields(pdftext.Of(t, []byte(pdf.raw), "-raw")), " ")
			if !strings.Contains(text, inv["number"].(string)) || !strings.Contains(text, "This invoice is digitally signed by "+signer+".") ||
				strings.Contains(text, "computer generated") {
				t.Errorf("the signed invoice's text:\n%s", text)
			}
		}
		for _, who := range []string{rc.token, r.token} {
			pdf := e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d/pdf", uint64(resold["id"].(float64))), who, nil)
			text := strings.Join(strings.Fields(pdftext.Of(t, []byte(pdf.raw), "-raw")), " ")
			if report := pdftext.Signatures(t, []byte(pdf.raw)); pdf.status != 200 || !strings.Contains(report, "does not contain any signatures") ||
				!strings.Contains(text, "This is a computer generated invoice") || strings.Contains(text, signer) {
				t.Errorf("the reseller's invoice to its customer, %d:\n%s\n%s", pdf.status, report, text)
			}
		}
		spdf := e.do("GET", "/api/v1/panel/statements?format=pdf&month="+month, c.token, nil)
		if report := pdftext.Signatures(t, []byte(spdf.raw)); spdf.status != 200 || !strings.Contains(report, "does not contain any signatures") {
			t.Errorf("statement %d signed:\n%s", spdf.status, report)
		}
		e.ledgerClean()
	}, signed)
}
