package invoicepdf_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"paygate/adapters/invoicepdf"
	"paygate/core/billing/invoice"
	"paygate/internal/pdftext"
)

// signedQR is a JWS shaped like the portal's signed QR code (header,
// payload and signature, base64url), about as long as a real one.
func signedQR() string {
	return "eyJhbGciOiJSUzI1NiIsImtpZCI6IjQ0NDRDNEI0NEQ3QjZCNzI1OTY2QzcyMTc2NkE4N0Q2RjU5QjZBNTUiLCJ0eXAiOiJKV1QifQ." +
		strings.Repeat("eyJkYXRhIjoie1wiU2VsbGVyR3N0aW5cIjpcIjI3QUFQRlUwOTM5RjFaVlwiLFwiQnV5ZXJHc3RpblwiOlwiMjlBQUdDQjczODNKMVo0XCJ9In0", 6) +
		"." + strings.Repeat("Qk1hc2tlZFNpZ25hdHVyZV9fX18tLS0t", 10)
}

// TestInvoiceWithIRNPrintsItAndItsQRCode: an invoice whose IRN was
// recorded prints the IRN, the acknowledgement number and date, and a QR
// code that zbar reads back as the signed QR code; without one, no block.
func TestInvoiceWithIRNPrintsItAndItsQRCode(t *testing.T) {
	inv := interStateInvoice()
	qr := signedQR()
	inv.IRN = &invoice.IRN{IRN: "8a1c4bdba5b5a6d5d4bd5e1d2d0f6c0f1c1a0b9e8d7c6b5a4f3e2d1c0b9a8f7e", AckNo: "112610036563310",
		AckDate: time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC), SignedQR: qr}
	pdf := render(t, inv)
	layout, _ := pdfText(t, "invoice-irn", pdf)
	mustContain(t, layout, "E-invoice", "IRN", inv.IRN.IRN, "Ack. no.", "112610036563310", "Ack. date", "01 Dec 2026 10:30",
		"This is a computer generated invoice")
	codes := pdftext.QRCodes(t, pdf)
	if len(codes) != 1 || codes[0] != qr {
		t.Fatalf("the PDF's QR codes read %q, want the signed QR code (%d characters)", codes, len(qr))
	}

	plain := render(t, interStateInvoice())
	layout, _ = pdfText(t, "invoice-no-irn", plain)
	mustNotContain(t, layout, "E-invoice", "Ack. no.")
	if codes := pdftext.QRCodes(t, plain); len(codes) != 0 {
		t.Fatalf("a document without an IRN has QR codes %q", codes)
	}
}

// TestSignedInvoiceWithIRN: the two additions together. A signed invoice
// with a recorded IRN prints the IRN block and its QR code, and the
// signature, made after, covers them: pdfsig reports it valid over the
// whole file. INVOICEPDF_OUT names a file to keep the PDF in (to look at).
func TestSignedInvoiceWithIRN(t *testing.T) {
	inv := interStateInvoice()
	qr := signedQR()
	inv.IRN = &invoice.IRN{IRN: strings.Repeat("ab12", 16), AckNo: "112610036563310",
		AckDate: time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC), SignedQR: qr}
	pdf, err := invoicepdf.NewSigned(newSigner(t)).Invoice(context.Background(), inv, kolkata)
	if err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("INVOICEPDF_OUT"); out != "" {
		if err := os.WriteFile(out, pdf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := pdftext.Signatures(t, pdf)
	for _, want := range []string{"Total document signed", "Signature Validation: Signature is Valid."} {
		if !strings.Contains(report, want) {
			t.Errorf("pdfsig does not say %q:\n%s", want, report)
		}
	}
	layout, _ := pdfText(t, "signed-invoice-irn", pdf)
	mustContain(t, layout, "IRN", inv.IRN.IRN, "digitally signed by "+signerCN)
	if codes := pdftext.QRCodes(t, pdf); len(codes) != 1 || codes[0] != qr {
		t.Fatalf("the signed PDF's QR codes read %q", codes)
	}
}
