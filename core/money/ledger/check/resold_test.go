package check_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
	"paygate/core/money/ledger"
	"paygate/core/money/ledger/check"
)

// Per reseller and month: its customers' invoiced gross less the
// commission on their charges equals the customers' lines of its own
// invoice. A commission counts in the month its charge was debited, in
// the invoicing zone: a call at 23:59 IST on 30 November is November's
// (18:29 UTC), one at 00:10 IST on 1 December is not; a refund in the month
// gives back the commission it cancelled; a refund of an earlier month's
// charge belongs to that month's credit notes.
func TestResoldLinesEqualCustomersGrossLessCommission(t *testing.T) {
	ist, _ := time.LoadLocation("Asia/Kolkata")
	d := decimal.RequireFromString
	charge := func(typ ledger.Type, amount, commission string, at time.Time) invoice.Charge {
		c := invoice.One(typ, d(amount), "service:1", "UPI verify", "", at)
		c.Commission = d(commission)
		return c
	}
	nov := time.Date(2026, 11, 10, 12, 0, 0, 0, ist)
	lastMinute := time.Date(2026, 11, 30, 23, 59, 0, 0, ist)
	oct := time.Date(2026, 10, 31, 12, 0, 0, 0, ist)
	own := func(resold ...string) *invoice.Invoice {
		inv := &invoice.Invoice{Month: "2026-11", Lines: []invoice.Line{{Description: "UPI verify", Gross: d("1.00")}}}
		for _, g := range resold {
			inv.Lines = append(inv.Lines, invoice.Line{Description: "Customers' calls", Gross: d(g), Resold: true})
		}
		return inv
	}
	cases := []struct {
		name    string
		gross   string // the customers' invoices of the month
		charges []invoice.Charge
		inv     *invoice.Invoice
		ok      bool
	}{
		{"calls at cost", "8.00", []invoice.Charge{charge(ledger.Debit, "8.00", "4.00", nov)}, own("4.00"), true},
		{"the last minute of the month in IST", "10.00",
			[]invoice.Charge{charge(ledger.Debit, "8.00", "4.00", nov), charge(ledger.Debit, "2.00", "1.00", lastMinute)}, own("5.00"), true},
		{"a refund in the month cancels its commission", "2.00",
			[]invoice.Charge{charge(ledger.Debit, "4.00", "2.00", nov), charge(ledger.Refund, "2.00", "1.00", nov)}, own("1.00"), true},
		{"a refund of October's charge is not November's", "2.00",
			[]invoice.Charge{charge(ledger.Debit, "2.00", "1.00", nov), charge(ledger.Refund, "5.00", "2.00", oct)}, own("1.00"), true},
		{"no commission: the customers' lines are their gross", "3.00", []invoice.Charge{charge(ledger.Debit, "3.00", "0", nov)}, own("3.00"), true},
		{"planted: the resold line one paisa short", "8.00", []invoice.Charge{charge(ledger.Debit, "8.00", "4.00", nov)}, own("3.99"), false},
		{"planted: billed at the customers' price", "8.00", []invoice.Charge{charge(ledger.Debit, "8.00", "4.00", nov)}, own("8.00"), false},
		{"planted: the customers' lines missing", "8.00", []invoice.Charge{charge(ledger.Debit, "8.00", "4.00", nov)}, own(), false},
		{"planted: no invoice to the reseller", "8.00", []invoice.Charge{charge(ledger.Debit, "8.00", "4.00", nov)}, nil, false},
		{"planted: a customer's invoice overstated", "8.50", []invoice.Charge{charge(ledger.Debit, "8.00", "4.00", nov)}, own("4.00"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, got := check.Resold(d(c.gross), c.charges, c.inv, "2026-11", ist)
			if want.Equal(got) != c.ok {
				t.Fatalf("want %s, got %s: equal %v, expected %v", want, got, want.Equal(got), c.ok)
			}
		})
	}
}
