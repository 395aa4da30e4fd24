package check_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
	"paygate/core/money/ledger/check"
)

// A stored document is proved as it was issued, never split again: one
// issued before CGST and SGST were equal (the odd paisa then went to SGST,
// 0.15 beside 0.16) holds, as does one with equal halves; a document whose
// parts do not add up, or whose heads are not one tax's, does not.
func TestDocumentProblems(t *testing.T) {
	d := decimal.RequireFromString
	line := func(gross, taxable, cgst, sgst, igst string) invoice.Line {
		return invoice.Line{Description: "Calls", SAC: "998319", Quantity: 1, Gross: d(gross), Taxable: d(taxable),
			CGST: d(cgst), SGST: d(sgst), IGST: d(igst)}
	}
	doc := func(lines ...invoice.Line) *invoice.Invoice {
		return &invoice.Invoice{Kind: invoice.KindInvoice, Number: "PG/26-27/000001", Month: "2026-11", Rate: d("18"),
			Lines: lines, Totals: invoice.Sum(lines)}
	}
	cases := []struct {
		name    string
		inv     *invoice.Invoice
		problem string // "" when the document holds
	}{
		{"issued under the old rule: the odd paisa in SGST", doc(line("2.00", "1.69", "0.15", "0.16", "0"), line("25.00", "21.19", "1.90", "1.91", "0")), ""},
		{"issued with equal halves", doc(line("2.00", "1.70", "0.15", "0.15", "0"), line("25.00", "21.18", "1.91", "1.91", "0")), ""},
		{"inter-state", doc(line("25.00", "21.19", "0", "0", "3.81")), ""},
		{"a bill of supply", doc(line("25.00", "25.00", "0", "0", "0")), ""},
		{"planted: the parts do not add up", doc(line("25.00", "21.19", "1.91", "1.91", "0")), "do not add up"},
		{"planted: halves two paise apart", doc(line("25.00", "21.19", "1.90", "1.91", "0"), line("2.00", "1.70", "0.14", "0.16", "0")), "not the heads of one tax"},
		{"planted: IGST beside CGST", doc(line("25.00", "21.18", "0.95", "0.96", "1.91")), "not the heads of one tax"},
		{"planted: totals not the lines' sums", func() *invoice.Invoice {
			inv := doc(line("25.00", "21.18", "1.91", "1.91", "0"))
			inv.Totals.SGST = d("1.92")
			return inv
		}(), "not the sums of its lines"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(check.DocumentProblems(c.inv), "\n")
			switch {
			case c.problem == "" && got != "":
				t.Errorf("problems in a document that holds:\n%s", got)
			case c.problem != "" && !strings.Contains(got, c.problem):
				t.Errorf("problems %q, want one saying %q", got, c.problem)
			}
		})
	}
}
