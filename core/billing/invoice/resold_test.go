package invoice_test

import (
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
	"paygate/core/money/ledger"
)

// resold is a customer's charge of a reseller: amount, and the commission
// the reseller earned on it (a refund: the commission it cancelled).
func resold(t ledger.Type, group, label, amount, commission, charged string) invoice.Charge {
	c := invoice.One(t, d(amount), group, label, "", at(charged))
	c.Commission = d(commission)
	return c
}

// AtCost bills a reseller its customers' charges less its commission, in
// lines of their own; Build nets a refund in the month of its charge at
// the same cost and puts a later one on a credit note at the cost it had.
func TestCustomersChargesAtTheResellersCost(t *testing.T) {
	supply := invoice.Tax{Rate: decimal.Zero, IntraState: true, DefaultSAC: "998319"}
	cases := []struct {
		name    string
		charges []invoice.Charge
		lines   []line
		credits map[string][]line
	}{
		{"calls at the charge less the commission, one line per service",
			[]invoice.Charge{resold(ledger.Debit, "service:1", "UPI verify", "2.00", "1.00", "2026-11-03 10:00"),
				resold(ledger.Debit, "service:1", "UPI verify", "1.50", "0.50", "2026-11-04 10:00"),
				resold(ledger.Debit, "service:2", "GST lookup", "1.00", "0.20", "2026-11-04 11:00")},
			[]line{{"Customers' calls: GST lookup", "1", "", "0.80", "0.80", "0.00", "0.00", "0.00"},
				{"Customers' calls: UPI verify", "2", "", "2.00", "2.00", "0.00", "0.00", "0.00"}}, nil},
		{"no commission earned (a blocked reseller's customers pay list prices): the unit price stays",
			[]invoice.Charge{resold(ledger.Debit, "service:1", "UPI verify", "1.00", "0", "2026-11-03 10:00"),
				resold(ledger.Debit, "service:1", "UPI verify", "1.00", "0", "2026-11-03 11:00")},
			[]line{{"Customers' calls: UPI verify", "2", "1.00", "2.00", "2.00", "0.00", "0.00", "0.00"}}, nil},
		{"a refund in the month nets at the cost it had: the refund less the commission it cancelled",
			[]invoice.Charge{resold(ledger.Debit, "service:1", "UPI verify", "2.00", "1.00", "2026-11-03 10:00"),
				resold(ledger.Debit, "service:1", "UPI verify", "2.00", "1.00", "2026-11-03 11:00"),
				resold(ledger.Refund, "service:1", "UPI verify", "2.00", "1.00", "2026-11-03 11:00")},
			[]line{{"Customers' calls: UPI verify", "1", "", "1.00", "1.00", "0.00", "0.00", "0.00"}}, nil},
		{"a refund of last month's charge is a credit note at its cost",
			[]invoice.Charge{resold(ledger.Refund, "service:1", "Payout", "5.00", "2.00", "2026-10-30 10:00")},
			nil, map[string][]line{"2026-10": {{"Customers' calls: Payout", "1", "", "3.00", "3.00", "0.00", "0.00", "0.00"}}}},
		{"plan and collection fees carry no commission",
			[]invoice.Charge{resold(ledger.Debit, "plan:growth", "Plan Growth", "999.00", "0", "2026-11-01 00:10"),
				resold(ledger.Debit, "collection_fee", "Collection fees", "4.00", "0", "2026-11-02 00:10")},
			[]line{{"Customers' collection fees", "1", "4.00", "4.00", "4.00", "0.00", "0.00", "0.00"},
				{"Customers' plan Growth", "1", "999.00", "999.00", "999.00", "0.00", "0.00", "0.00"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := invoice.Build(invoice.AtCost(c.charges), "2026-11", ist, supply)
			if got := render(m.Lines); !reflect.DeepEqual(got, c.lines) {
				t.Fatalf("lines\n got %v\nwant %v", got, c.lines)
			}
			for _, l := range m.Lines {
				if !l.Resold {
					t.Fatalf("line %q not marked resold", l.Description)
				}
			}
			got := map[string][]line{}
			for cm, ls := range m.Credits {
				got[cm] = render(ls)
			}
			if len(got) != len(c.credits) || len(c.credits) > 0 && !reflect.DeepEqual(got, c.credits) {
				t.Fatalf("credits\n got %v\nwant %v", got, c.credits)
			}
		})
	}
	// AtCost leaves the caller's charges as they were.
	in := []invoice.Charge{resold(ledger.Debit, "service:1", "UPI verify", "2.00", "1.00", "2026-11-03 10:00")}
	invoice.AtCost(in)
	if !in[0].Amount.Equal(d("2.00")) || in[0].Resold {
		t.Fatalf("AtCost changed its input: %+v", in[0])
	}
}
