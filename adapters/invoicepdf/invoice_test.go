package invoicepdf_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/adapters/invoicepdf"
	"paygate/core/billing/gst"
	"paygate/core/billing/invoice"
)

var update = flag.Bool("update", false, "rewrite testdata/invoice.golden.txt from the current rendering")

func render(t *testing.T, inv *invoice.Invoice) []byte {
	t.Helper()
	pdf, err := invoicepdf.New().Invoice(context.Background(), inv, kolkata)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(len(pdf), 16)])
	}
	return pdf
}

// inr is the Indian grouping the PDF prints, written independently of the
// package's own helper: 1,20,500.50.
func inr(d decimal.Decimal) string {
	s := d.StringFixed(2)
	whole, frac, _ := strings.Cut(s, ".")
	n, _ := strconv.ParseInt(whole, 10, 64)
	if n < 1000 {
		return s
	}
	groups := []string{fmt.Sprintf("%03d", n%1000)}
	for n /= 1000; n > 0; n /= 100 {
		if n >= 100 {
			groups = append([]string{fmt.Sprintf("%02d", n%100)}, groups...)
		} else {
			groups = append([]string{strconv.FormatInt(n, 10)}, groups...)
		}
	}
	return strings.Join(groups, ",") + "." + frac
}

// rowText is a line's row as the flat text reads it, cell after cell.
func rowText(n int, l invoice.Line, unit string, amounts ...decimal.Decimal) string {
	cells := []string{strconv.Itoa(n), l.Description, l.SAC, strconv.FormatInt(l.Quantity, 10), unit}
	if l.Quantity >= 1000 {
		cells[3] = strings.TrimSuffix(inr(decimal.NewFromInt(l.Quantity)), ".00")
	}
	for _, a := range amounts {
		cells = append(cells, inr(a))
	}
	return strings.Join(cells, " ")
}

func unitOf(l invoice.Line) string {
	if l.UnitPrice == nil {
		return "various"
	}
	return inr(*l.UnitPrice)
}

func TestFixturesAddUp(t *testing.T) {
	for _, inv := range []*invoice.Invoice{intraStateInvoice(), interStateInvoice(), billOfSupply(), creditNote(), manyLines()} {
		for _, p := range []invoice.Party{inv.Supplier, inv.Recipient} {
			if msg := gst.GSTINProblem(p.GSTIN); msg != "" {
				t.Errorf("%s: GSTIN %s: %s", inv.Number, p.GSTIN, msg)
			}
		}
		for _, l := range inv.Lines {
			if !l.Taxable.Add(l.CGST).Add(l.SGST).Add(l.IGST).Equal(l.Gross) {
				t.Errorf("%s: %s: taxable + tax != gross", inv.Number, l.Description)
			}
		}
		tt := inv.Totals
		if !tt.Taxable.Add(tt.CGST).Add(tt.SGST).Add(tt.IGST).Equal(tt.Gross) {
			t.Errorf("%s: totals: taxable + tax != gross", inv.Number)
		}
	}
}

func TestIntraStateInvoiceShowsCGSTAndSGST(t *testing.T) {
	inv := intraStateInvoice()
	layout, flat := pdfText(t, "invoice-intra", render(t, inv))
	mustContain(t, layout,
		"TAX INVOICE",
		"Paygate Technologies Private Limited", "27AAPFU0939F1ZV", "AAPFU0939F",
		"Sahyadri Lending Services Private Limited", "27AASCS2460H1Z0",
		"PG/26-27/000001", "01 Dec 2026", "November 2026", "Maharashtra (27)",
		"CGST 9%", "SGST 9%", "Taxable value",
		"This is a computer generated invoice",
	)
	mustNotContain(t, layout, "IGST", "Unregistered", "Bill of supply")
	for i, l := range inv.Lines {
		mustContain(t, flat, rowText(i+1, l, unitOf(l), l.Taxable, l.CGST, l.SGST, l.Gross))
	}
	tt := inv.Totals
	mustContain(t, flat,
		"Total "+strings.Join([]string{inr(tt.Taxable), inr(tt.CGST), inr(tt.SGST), inr(tt.Gross)}, " "),
		"CGST @ 9% Rs. "+inr(tt.CGST), "SGST @ 9% Rs. "+inr(tt.SGST),
		"Total (incl. GST) Rs. "+inr(tt.Gross),
		gst.InWords(tt.Gross),
	)
	if !tt.CGST.Equal(tt.SGST) {
		t.Errorf("fixture CGST %s, SGST %s", tt.CGST, tt.SGST)
	}
	if inr(tt.Gross) != "42,275.29" || gst.InWords(tt.Gross) != "Rupees Forty Two Thousand Two Hundred Seventy Five and Paise Twenty Nine Only" {
		t.Errorf("fixture total %s (%s): the test's figures moved", inr(tt.Gross), gst.InWords(tt.Gross))
	}
}

func TestInterStateInvoiceShowsIGSTOnly(t *testing.T) {
	inv := interStateInvoice()
	layout, flat := pdfText(t, "invoice-inter", render(t, inv))
	mustContain(t, layout,
		"TAX INVOICE", "27AAPFU0939F1ZV",
		"Bengaluru Fintech Solutions Private Limited", "29AAGCB7383J1Z4",
		"PG/26-27/000002", "Karnataka (29)", "IGST 18%",
	)
	mustNotContain(t, layout, "CGST", "SGST")
	for i, l := range inv.Lines {
		mustContain(t, flat, rowText(i+1, l, unitOf(l), l.Taxable, l.IGST, l.Gross))
	}
	tt := inv.Totals
	mustContain(t, flat, "IGST @ 18% Rs. "+inr(tt.IGST), "Total (incl. GST) Rs. "+inr(tt.Gross), gst.InWords(tt.Gross))
}

func TestBillOfSupplyHasNoTax(t *testing.T) {
	inv := billOfSupply()
	layout, flat := pdfText(t, "bill-of-supply", render(t, inv))
	mustContain(t, layout, "BILL OF SUPPLY", "PG/26-27/000003", "no GST is charged", "Nil (bill of supply)")
	mustNotContain(t, layout, "TAX INVOICE", "CGST", "SGST", "IGST", "Taxable value", "incl. GST")
	for i, l := range inv.Lines {
		mustContain(t, flat, rowText(i+1, l, unitOf(l), l.Gross))
	}
	mustContain(t, flat, "Total Rs. "+inr(inv.Totals.Gross), gst.InWords(inv.Totals.Gross))
}

// Every document is settled through the prepaid balance (docs/decisions.md,
// "Tax invoices, credit notes and statements"): an invoice says it was
// paid from it, and shows no bank details as if money were due, whatever
// payee the supplier's settings hold.
func TestInvoicePaidFromPrepaidBalance(t *testing.T) {
	for _, inv := range []*invoice.Invoice{intraStateInvoice(), interStateInvoice(), billOfSupply()} {
		layout, flat := pdfText(t, "prepaid-"+strings.ReplaceAll(inv.Number, "/", "-"), render(t, inv))
		mustContain(t, flat, "Paid from prepaid balance", "No payment is due.")
		mustNotContain(t, layout, "Payment details", "HDFC", "50200012345678", "paygate@hdfcbank", "IFSC", "Credited to prepaid balance")
	}
}

// A credit note names the invoice it corrects by number and date side by
// side in its header (CGST rule 53), says why it was issued, and that its
// amount went back to the prepaid balance.
func TestCreditNoteNamesTheInvoiceItCorrects(t *testing.T) {
	inv := creditNote()
	layout, flat := pdfText(t, "credit-note", render(t, inv))
	mustContain(t, layout, "CREDIT NOTE", "Credit note no.", "PGC/26-27/000001", "computer generated credit note")
	mustContain(t, flat,
		"Original invoice no. PG/26-27/000007 Original invoice date 01 Nov 2026 Reason Refund of 120 calls to PAN verification API",
		"Total credit Rs. 60.00", "Rupees Sixty Only", "Credited to prepaid balance")
	// The number and the date on one line of the header, before the lines.
	header, _, _ := strings.Cut(layout, "Description")
	if !regexp.MustCompile(`PG/26-27/000007\s+01 Nov 2026\s+Refund of 120 calls`).MatchString(header) {
		t.Errorf("the header does not show the original invoice's number and date together:\n%s", header)
	}
	// A credit note is not paid: no bank details.
	mustNotContain(t, layout, "TAX INVOICE", "Payment details", "HDFC0000123", "Paid from prepaid balance")

	// One issued before reasons were stored says what every credit note is.
	inv.Reason = ""
	_, flat = pdfText(t, "credit-note-old", render(t, inv))
	mustContain(t, flat, "Reason Refund of charges the original invoice billed")
}

func TestUnregisteredRecipient(t *testing.T) {
	inv := intraStateInvoice()
	inv.Recipient.GSTIN = ""
	layout, _ := pdfText(t, "unregistered", render(t, inv))
	mustContain(t, layout, "Unregistered")
}

// TestInvoiceGolden pins the whole text of one invoice as pdftotext -layout
// reads it. After an intended change of the layout: go test -run
// TestInvoiceGolden -update, and read the diff.
func TestInvoiceGolden(t *testing.T) {
	layout, _ := pdfText(t, "golden", render(t, intraStateInvoice()))
	golden := filepath.Join("testdata", "invoice.golden.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(layout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestInvoiceGolden -update writes it)", err)
	}
	if layout != string(want) {
		t.Errorf("the invoice's text differs from %s (go test -run TestInvoiceGolden -update rewrites it):\n%s", golden, layout)
	}
}

func TestSameInvoiceSameBytes(t *testing.T) {
	a := render(t, intraStateInvoice())
	b := render(t, intraStateInvoice())
	if !bytes.Equal(a, b) {
		t.Fatal("two renders of one invoice differ")
	}
	// The dates are the document's, not the clock's.
	if !bytes.Contains(a, []byte("/CreationDate (D:20261201000500)")) {
		t.Error("the creation date is not the invoice's date of issue")
	}
	s1, err := invoicepdf.New().Statement(context.Background(), novemberStatement(40), kolkata)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := invoicepdf.New().Statement(context.Background(), novemberStatement(40), kolkata)
	if !bytes.Equal(s1, s2) {
		t.Fatal("two renders of one statement differ")
	}
}

func TestManyLinesFlowOntoFurtherPages(t *testing.T) {
	inv := manyLines()
	layout, flat := pdfText(t, "many-lines", render(t, inv))
	n := pages(layout)
	if n < 2 {
		t.Fatalf("60 lines on %d page(s)", n)
	}
	// The table's header repeats on every page; each page is numbered.
	if got := strings.Count(layout, "Description"); got != n {
		t.Errorf("table header printed %d times on %d pages", got, n)
	}
	for p := 1; p <= n; p++ {
		mustContain(t, layout, fmt.Sprintf("Page %d of %d", p, n))
	}
	mustContain(t, layout, "Tax Invoice PG/26-27/000060 (continued)")
	for i, l := range inv.Lines {
		mustContain(t, flat, rowText(i+1, l, unitOf(l), l.Taxable, l.IGST, l.Gross))
	}
	mustContain(t, flat, "Total (incl. GST) Rs. "+inr(inv.Totals.Gross), gst.InWords(inv.Totals.Gross))
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := invoicepdf.New().Invoice(ctx, intraStateInvoice(), kolkata); err == nil {
		t.Error("rendered under a cancelled context")
	}
}

// TestExtremesStayReadable: crores of rupees, a long State name and legal
// name, characters the core fonts lack. Amounts stay whole (never wrapped
// mid-number) and the text is spelt in ASCII.
func TestExtremesStayReadable(t *testing.T) {
	buyer := invoice.Party{
		LegalName: "Société Générale de Logistique et d’Entreposage Dadra Nagar Haveli Private Limited",
		Address:   "Survey No. 123/4, Silvassa–Khanvel Road\nSilvassa 396230",
		State:     "26",
		GSTIN:     "",
	}
	inv := newInvoice(invoice.KindInvoice, "PG/26-27/123456", buyer, rate18, []supply{
		{"Réconciliation — ₹ fees", 987654321, "0.1250", "123456790.13"},
		{"Bulk payouts (NEFT) processed for the month of November 2026 across 14 partner banks, including the retries that succeeded", 4, "", "99999999.99"},
	})
	layout, flat := pdfText(t, "extremes", render(t, inv))
	tt := inv.Totals
	mustContain(t, layout, "Unregistered", inr(tt.Gross), inr(tt.Taxable), inr(tt.IGST), "98,76,54,321", "0.125")
	mustContain(t, flat,
		"Societe Generale de Logistique et d'Entreposage Dadra Nagar Haveli Private Limited",
		"Silvassa-Khanvel Road", "Reconciliation - Rs. fees",
		"Dadra and Nagar Haveli and Daman and Diu (26)",
		gst.InWords(tt.Gross),
	)
	for _, l := range inv.Lines {
		mustContain(t, layout, inr(l.Gross), inr(l.Taxable), inr(l.IGST))
	}
}

// TestConcurrentRendersAgree: one Renderer serves the HTTP handlers and the
// billing worker at once (run under -race by make test).
func TestConcurrentRendersAgree(t *testing.T) {
	r := invoicepdf.New()
	want := render(t, intraStateInvoice())
	got := make([][]byte, 8)
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			if i%2 == 0 {
				got[i], errs[i] = r.Invoice(context.Background(), intraStateInvoice(), kolkata)
			} else {
				_, errs[i] = r.Statement(context.Background(), novemberStatement(30), kolkata)
				got[i] = want
			}
		})
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(got[i], want) {
			t.Errorf("render %d differs", i)
		}
	}
}
