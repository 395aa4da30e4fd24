package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/billing/taxprofile"
	"paygate/internal/pdftext"
	"paygate/internal/testsigner"
)

// TestServerSignsInvoicePDFs: the server started with INVOICE_SIGNING_CERT
// and INVOICE_SIGNING_PASSWORD serves an invoice PDF whose signature
// pdfsig reports valid, naming the certificate's holder, and whose text
// says who signed it.
func TestServerSignsInvoicePDFs(t *testing.T) {
	const signer = "Paygate Technologies Private Limited"
	cert := testsigner.File(t, signer, "correct horse battery staple")
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newInvoiceFixture(t, url)
		id := f.user("c@example.com", user.PlanStarter, "100.00")
		if err := f.store.Stores().TaxProfiles.SaveProfile(context.Background(), &taxprofile.Profile{UserID: id,
			LegalName: "Pune Traders", Address: "Pune", State: "27"}); err != nil {
			t.Fatal(err)
		}
		f.charge(id, "11.80", time.Date(2026, 11, 3, 10, 0, 0, 0, kolkata))
		if res, err := f.instance().Invoicing.Issue(context.Background(), "2026-11", time.Date(2026, 12, 1, 0, 5, 0, 0, kolkata)); err != nil || res.Invoices != 1 {
			t.Fatalf("issue: %+v %v", res, err)
		}

		env := map[string]string{"DATABASE_URL": url, "HTTP_ADDR": freeAddr(t), "TIMEZONE": "Asia/Kolkata", "STORAGE_DIR": t.TempDir(),
			"ADMIN_EMAIL": "root@example.com", "ADMIN_PASSWORD": "root-password-1",
			"INVOICE_SIGNING_CERT": cert, "INVOICE_SIGNING_PASSWORD": "correct horse battery staple"}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, &syncBuffer{}) }()
		base := "http://" + env["HTTP_ADDR"]
		waitReady(t, base, done)
		tok := post(t, base+"/api/v1/panel/auth/login", "", map[string]any{"email": "root@example.com", "password": "root-password-1"})["access_token"].(string)
		list := get(t, base+"/api/v1/panel/invoices?user_id="+strconv.FormatUint(id, 10), tok)["data"].([]any)
		if len(list) != 1 {
			t.Fatalf("invoices %v", list)
		}
		pdf := []byte(getText(t, base+"/api/v1/panel/invoices/"+strconv.FormatFloat(list[0].(map[string]any)["id"].(float64), 'f', 0, 64)+"/pdf", tok))
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		report := pdftext.Signatures(t, pdf)
		for _, want := range []string{"Signer Certificate Common Name: " + signer, "Signature Type: adbe.pkcs7.detached",
			"Total document signed", "Signature Validation: Signature is Valid."} {
			if !strings.Contains(report, want) {
				t.Errorf("pdfsig does not say %q:\n%s", want, report)
			}
		}
		if text := strings.Join(strings.Fields(pdftext.Of(t, pdf, "-raw")), " "); !strings.Contains(text, "This invoice is digitally signed by "+signer+".") {
			t.Errorf("the PDF does not say who signed it:\n%s", text)
		}
	})
}

// TestBadSigningSettingsStopStartUp: a wrong password, a file that is not
// PKCS#12, a missing file, or one setting without the other stop the server
// before it opens the database, with a message that names the setting and
// never the password.
func TestBadSigningSettingsStopStartUp(t *testing.T) {
	const password = "the-right-password"
	good := testsigner.File(t, "Paygate Technologies Private Limited", password)
	garbage := filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(garbage, []byte("-----BEGIN CERTIFICATE-----\nnot a key\n-----END CERTIFICATE-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := "sqlite://" + filepath.Join(t.TempDir(), "never.db")
	for _, tc := range []struct {
		name, cert, password, says string
	}{
		{"wrong password", good, "Wrong-Pa55word", "INVOICE_SIGNING_PASSWORD does not open INVOICE_SIGNING_CERT"},
		{"not PKCS#12", garbage, password, "INVOICE_SIGNING_CERT: \"" + garbage + "\": not a usable PKCS#12 signing certificate"},
		{"missing file", garbage + ".missing", password, "INVOICE_SIGNING_CERT: cannot read the PKCS#12 file"},
		{"no password", good, "", "INVOICE_SIGNING_CERT is set without INVOICE_SIGNING_PASSWORD"},
		{"no file", "", password, "INVOICE_SIGNING_PASSWORD is set without INVOICE_SIGNING_CERT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"DATABASE_URL": db, "HTTP_ADDR": freeAddr(t), "STORAGE_DIR": t.TempDir(),
				"INVOICE_SIGNING_CERT": tc.cert, "INVOICE_SIGNING_PASSWORD": tc.password}
			out := &syncBuffer{}
			// Were the settings accepted, the server would serve until the
			// deadline and then stop without an error.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := run(ctx, nil, func(k string) string { return env[k] }, out)
			if err == nil {
				t.Fatal("the server started")
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("message %q does not say %q", err, tc.says)
			}
			for _, secret := range []string{password, "Wrong-Pa55word"} {
				if strings.Contains(err.Error(), secret) || strings.Contains(out.String(), secret) {
					t.Errorf("the password is shown: %v %s", err, out)
				}
			}
			if _, statErr := os.Stat(strings.TrimPrefix(db, "sqlite://")); statErr == nil {
				t.Error("the database was opened")
			}
		})
	}
}
