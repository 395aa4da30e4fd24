package invoicepdf_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"paygate/adapters/invoicepdf"
	"paygate/core/billing/invoice"
	"paygate/internal/pdftext"
	"paygate/internal/testsigner"
)

const signerCN = "Paygate Technologies Private Limited"

func newSigner(t *testing.T) *invoicepdf.Signer {
	t.Helper()
	s, err := invoicepdf.NewSigner(testsigner.PKCS12(t, signerCN, "s3cret pass"), "s3cret pass", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A signed invoice or credit note carries a signature that pdfsig reports
// valid over the whole file, naming the signer; the document says who signed it instead of "computer generated".
func TestSignedDocumentsAreValidForPdfsig(t *testing.T) {
	signed := invoicepdf.NewSigned(newSigner(t))
	for _, tc := range []struct {
		name string
		inv  *invoice.Invoice
		says string
	}{
		{"invoice", intraStateInvoice(), "This invoice is digitally signed by " + signerCN + "."},
		{"credit note", creditNote(), "This credit note is digitally signed by " + signerCN + "."},
		{"bill of supply", billOfSupply(), "This invoice is digitally signed by " + signerCN + "."},
		{"many pages", manyLines(), "This invoice is digitally signed by " + signerCN + "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pdf, err := signed.Invoice(context.Background(), tc.inv, kolkata)
			if err != nil {
				t.Fatal(err)
			}
			report := pdftext.Signatures(t, pdf)
			for _, want := range []string{"Signature #1", "Signer Certificate Common Name: " + signerCN,
				"Signature Type: adbe.pkcs7.detached", "Total document signed", "Signature Validation: Signature is Valid."} {
				if !strings.Contains(report, want) {
					t.Errorf("pdfsig does not say %q:\n%s", want, report)
				}
			}
			_, flat := pdfText(t, "signed-"+strings.ReplaceAll(tc.name, " ", "-"), pdf)
			mustContain(t, flat, tc.says)
			mustNotContain(t, flat, "computer generated", "needs no signature")
		})
	}
}

// pdfsig tells a changed byte: the signature covers the document's text.
func TestSignedDocumentChangedIsNotValid(t *testing.T) {
	pdf, err := invoicepdf.NewSigned(newSigner(t)).Invoice(context.Background(), intraStateInvoice(), kolkata)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pdftext.Signatures(t, pdf), "Signature is Valid.") {
		t.Fatal("the untouched file is not valid")
	}
	// The Info dictionary's author, early in the file and inside the signed
	// range: one letter changed.
	i := bytes.Index(pdf, []byte("/Author ("))
	if i < 0 {
		t.Fatal("no /Author in the PDF")
	}
	changed := bytes.Clone(pdf)
	changed[i+len("/Author (")] ^= 0x20
	if report := pdftext.Signatures(t, changed); strings.Contains(report, "Signature is Valid.") {
		t.Errorf("pdfsig calls a changed file valid:\n%s", report)
	}
}

// Without a signer, nothing is signed and the document says it is computer
// generated; statements, and a reseller's documents (not the platform's to
// sign), are never signed, signer or not.
func TestUnsignedDocumentsAndStatements(t *testing.T) {
	pdf := render(t, intraStateInvoice())
	if report := pdftext.Signatures(t, pdf); !strings.Contains(report, "does not contain any signatures") {
		t.Errorf("an unsigned invoice has signatures:\n%s", report)
	}
	_, flat := pdfText(t, "unsigned-invoice", pdf)
	mustContain(t, flat, "This is a computer generated invoice and needs no signature.")
	mustNotContain(t, flat, "digitally signed")

	st, err := invoicepdf.NewSigned(newSigner(t)).Statement(context.Background(), novemberStatement(3), kolkata)
	if err != nil {
		t.Fatal(err)
	}
	if report := pdftext.Signatures(t, st); !strings.Contains(report, "does not contain any signatures") {
		t.Errorf("a statement is signed:\n%s", report)
	}

	resold := intraStateInvoice()
	reseller := uint64(7)
	resold.IssuerID = &reseller
	resold.Supplier.LegalName = "Sahyadri Resellers LLP"
	pdf, err = invoicepdf.NewSigned(newSigner(t)).Invoice(context.Background(), resold, kolkata)
	if err != nil {
		t.Fatal(err)
	}
	if report := pdftext.Signatures(t, pdf); !strings.Contains(report, "does not contain any signatures") {
		t.Errorf("a reseller's invoice is signed in the platform's name:\n%s", report)
	}
	_, flat = pdfText(t, "reseller-invoice", pdf)
	mustContain(t, flat, "This is a computer generated invoice and needs no signature.")
	mustNotContain(t, flat, "digitally signed")
}

func TestNewSignerRefusesWhatCannotSign(t *testing.T) {
	good := testsigner.PKCS12(t, signerCN, "right")
	for _, tc := range []struct {
		name     string
		p12      []byte
		password string
		now      func() time.Time
		want     error
	}{
		{"wrong password", good, "wrong", nil, invoicepdf.ErrSigningPassword},
		{"not PKCS#12", []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), "right", nil, invoicepdf.ErrSigningFile},
		{"empty file", nil, "right", nil, invoicepdf.ErrSigningFile},
		{"expired", good, "right", func() time.Time { return time.Now().AddDate(2, 0, 0) }, invoicepdf.ErrSigningFile},
		{"not yet valid", good, "right", func() time.Time { return time.Now().AddDate(0, 0, -1) }, invoicepdf.ErrSigningFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := invoicepdf.NewSigner(tc.p12, tc.password, tc.now)
			if !errors.Is(err, tc.want) {
				t.Fatalf("NewSigner = %v, %v; want %v", s, err, tc.want)
			}
			if strings.Contains(err.Error(), "right") || strings.Contains(err.Error(), "wrong") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
	s, err := invoicepdf.NewSigner(good, "right", nil)
	if err != nil || s.Name() != signerCN {
		t.Fatalf("NewSigner = %v, %v", s, err)
	}
}
