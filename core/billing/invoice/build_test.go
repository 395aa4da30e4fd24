package invoice_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
	"paygate/core/money/ledger"
)

var ist = func() *time.Location {
	l, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		panic(err)
	}
	return l
}()

func at(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, ist)
	if err != nil {
		panic(err)
	}
	return t
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func debit(group, label, amount, when string) invoice.Charge {
	return invoice.One(ledger.Debit, d(amount), group, label, "", at(when))
}

// refund is a refund of a charge debited at charged.
func refund(group, label, amount, _, charged string) invoice.Charge {
	return invoice.One(ledger.Refund, d(amount), group, label, "", at(charged))
}

// line is a line's description, quantity, unit price ("" for mixed),
// gross, taxable, cgst, sgst, igst.
type line [8]string

func render(ls []invoice.Line) []line {
	var out []line
	for _, l := range ls {
		unit := ""
		if l.UnitPrice != nil {
			unit = l.UnitPrice.StringFixed(2)
		}
		out = append(out, line{l.Description, decimal.NewFromInt(l.Quantity).String(), unit, l.Gross.StringFixed(2), l.Taxable.StringFixed(2),
			l.CGST.StringFixed(2), l.SGST.StringFixed(2), l.IGST.StringFixed(2)})
	}
	return out
}

func TestBuildGroupsNetsAndCredits(t *testing.T) {
	intra := invoice.Tax{Rate: d("18"), IntraState: true, DefaultSAC: "998319"}
	inter := invoice.Tax{Rate: d("18"), DefaultSAC: "998319"}
	supply := invoice.Tax{Rate: d("0"), IntraState: true, DefaultSAC: "998319"}
	cases := []struct {
		name    string
		charges []invoice.Charge
		tax     invoice.Tax
		lines   []line
		credits map[string][]line
	}{
		{"calls of one price, one refunded the same month", []invoice.Charge{
			debit("service:1", "Echo API calls", "1.18", "2026-11-01 00:00"),
			debit("service:1", "Echo API calls", "1.18", "2026-11-15 10:00"),
			debit("service:1", "Echo API calls", "1.18", "2026-11-30 23:59"),
			refund("service:1", "Echo API calls", "1.18", "2026-11-30 23:59", "2026-11-30 23:59"),
		}, intra, []line{{"Echo API calls", "2", "1.18", "2.36", "2.00", "0.18", "0.18", "0.00"}}, nil},
		{"mixed prices, inter-state, plan fee beside", []invoice.Charge{
			debit("service:2", "Verify calls", "2.00", "2026-11-02 09:00"),
			debit("service:2", "Verify calls", "3.00", "2026-11-02 09:01"),
			debit("plan", "Plan: Growth", "300.00", "2026-11-01 00:00"),
		}, inter, []line{
			{"Plan: Growth", "1", "300.00", "300.00", "254.24", "0.00", "0.00", "45.76"},
			{"Verify calls", "2", "", "5.00", "4.24", "0.00", "0.00", "0.76"},
		}, nil},
		{"an odd paisa of tax stays in the taxable value", []invoice.Charge{debit("service:1", "Calls", "0.05", "2026-11-03 12:00")},
			intra, []line{{"Calls", "1", "0.05", "0.05", "0.05", "0.00", "0.00", "0.00"}}, nil},
		{"equal halves of 25.00", []invoice.Charge{debit("service:1", "Calls", "25.00", "2026-11-03 12:00")},
			intra, []line{{"Calls", "1", "25.00", "25.00", "21.18", "1.91", "1.91", "0.00"}}, nil},
		{"a refund of October's charge is a credit, not a netting", []invoice.Charge{
			debit("service:1", "Calls", "10.00", "2026-11-03 12:00"),
			refund("service:1", "Calls", "4.00", "2026-11-01 00:05", "2026-10-31 23:58"),
			refund("payout", "Payout fees", "5.90", "2026-11-04 08:00", "2026-10-20 10:00"),
		}, intra, []line{{"Calls", "1", "10.00", "10.00", "8.48", "0.76", "0.76", "0.00"}},
			map[string][]line{"2026-10": {
				{"Calls", "1", "4.00", "4.00", "3.38", "0.31", "0.31", "0.00"},
				{"Payout fees", "1", "5.90", "5.90", "5.00", "0.45", "0.45", "0.00"},
			}}},
		{"sums of many entries, one of mixed amounts", []invoice.Charge{
			{Type: ledger.Debit, Count: 1000, Amount: d("1180.00"), Unit: ptr(d("1.18")), Group: "service:1", Label: "Calls", ChargedAt: at("2026-11-01 00:00")},
			{Type: ledger.Refund, Count: 10, Amount: d("11.80"), Unit: ptr(d("1.18")), Group: "service:1", Label: "Calls", ChargedAt: at("2026-11-01 00:00")},
			{Type: ledger.Debit, Count: 3, Amount: d("6.00"), Group: "service:2", Label: "Verify", ChargedAt: at("2026-11-01 00:00")},
		}, intra, []line{
			{"Calls", "990", "1.18", "1168.20", "990.00", "89.10", "89.10", "0.00"},
			{"Verify", "3", "", "6.00", "5.08", "0.46", "0.46", "0.00"},
		}, nil},
		{"everything refunded: no line", []invoice.Charge{
			debit("service:1", "Calls", "1.00", "2026-11-03 12:00"),
			refund("service:1", "Calls", "1.00", "2026-11-03 12:00", "2026-11-03 12:00"),
		}, intra, nil, nil},
		{"rate 0: a bill of supply", []invoice.Charge{debit("collection_fee", "Collection fees", "999999.99", "2026-11-03 12:00")},
			supply, []line{{"Collection fees", "1", "999999.99", "999999.99", "999999.99", "0.00", "0.00", "0.00"}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := invoice.Build(c.charges, "2026-11", ist, c.tax)
			if got := render(m.Lines); !equal(got, c.lines) {
				t.Errorf("lines\n got %q\nwant %q", got, c.lines)
			}
			if len(m.Credits) != len(c.credits) {
				t.Fatalf("credits %v, want %v", m.Credits, c.credits)
			}
			for month, want := range c.credits {
				if got := render(m.Credits[month]); !equal(got, want) {
					t.Errorf("credits of %s\n got %q\nwant %q", month, got, want)
				}
			}
			for _, l := range m.Lines {
				if !l.Taxable.Add(l.CGST).Add(l.SGST).Add(l.IGST).Equal(l.Gross) {
					t.Errorf("line %s: taxable and tax do not add up to %s", l.Description, l.Gross)
				}
				if !l.CGST.Equal(l.SGST) {
					t.Errorf("line %s: CGST %s, SGST %s", l.Description, l.CGST, l.SGST)
				}
			}
			if s := invoice.Sum(m.Lines); !s.CGST.Equal(s.SGST) {
				t.Errorf("totals: CGST %s, SGST %s", s.CGST, s.SGST)
			}
		})
	}
}

func ptr(v decimal.Decimal) *decimal.Decimal { return &v }

func equal(a, b []line) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSumAddsTheColumns(t *testing.T) {
	m := invoice.Build([]invoice.Charge{
		debit("a", "A", "1.18", "2026-11-01 10:00"), debit("b", "B", "0.05", "2026-11-01 10:00"), debit("c", "C", "100.00", "2026-11-01 10:00"),
	}, "2026-11", ist, invoice.Tax{Rate: d("18"), IntraState: true, DefaultSAC: "998319"})
	s := invoice.Sum(m.Lines)
	if s.Gross.StringFixed(2) != "101.23" || !s.Taxable.Add(s.CGST).Add(s.SGST).Add(s.IGST).Equal(s.Gross) {
		t.Fatalf("totals %+v", s)
	}
}

// A credit note says why it is issued: what its refunds give back, counted
// and named, calls before fees; a long list is cut short.
func TestBuildWordsCreditNoteReasons(t *testing.T) {
	intra := invoice.Tax{Rate: d("18"), IntraState: true, DefaultSAC: "998319"}
	payoutFee := func(amount, charged string) invoice.Charge {
		c := refund("service:7", "Bank payout", amount, "", charged)
		c.PayoutFee = true
		return c
	}
	long := strings.Repeat("Very long service name ", 8)
	cases := []struct {
		name    string
		charges []invoice.Charge
		want    map[string]string
	}{
		{"a failed payout's fee", []invoice.Charge{payoutFee("5.90", "2026-10-20 10:00")},
			map[string]string{"2026-10": "Refund of the fee of a failed payout"}},
		{"calls and fees, by the month they correct", []invoice.Charge{
			refund("service:1", "Echo API", "1.18", "", "2026-10-31 23:58"),
			refund("service:1", "Echo API", "1.18", "", "2026-10-30 10:00"),
			payoutFee("5.90", "2026-10-20 10:00"), payoutFee("5.90", "2026-10-21 10:00"),
			refund("service:2", "PAN verify", "2.00", "", "2026-09-10 10:00"),
		}, map[string]string{
			"2026-10": "Refund of 2 calls to Echo API and the fees of 2 failed payouts",
			"2026-09": "Refund of a call to PAN verify",
		}},
		{"a reseller's customers' calls at its cost", invoice.AtCost([]invoice.Charge{refund("service:1", "Echo API", "1.18", "", "2026-10-30 10:00")}),
			map[string]string{"2026-10": "Refund of a customer's call to Echo API"}},
		{"a refund in the month nets: no credit note, no reason", []invoice.Charge{
			debit("service:1", "Echo API", "1.18", "2026-11-02 10:00"), refund("service:1", "Echo API", "1.18", "", "2026-11-02 10:00"),
		}, map[string]string{}},
		{"too long: cut short", []invoice.Charge{
			refund("service:1", long+"A", "1.18", "", "2026-10-30 10:00"), refund("service:2", long+"B", "1.18", "", "2026-10-30 10:00"),
			refund("service:3", long+"C", "1.18", "", "2026-10-30 10:00"),
		}, map[string]string{"2026-10": "Refund of a call to " + long + "A and more"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := invoice.Build(c.charges, "2026-11", ist, intra)
			if len(m.Reasons) != len(c.want) {
				t.Fatalf("reasons %q, want %q", m.Reasons, c.want)
			}
			for month, want := range c.want {
				if got := m.Reasons[month]; got != want || len(m.Credits[month]) == 0 || utf8.RuneCountInString(got) > 255 {
					t.Errorf("reason of %s: %q, want %q", month, got, want)
				}
			}
		})
	}
}
