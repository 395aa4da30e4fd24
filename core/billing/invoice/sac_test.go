package invoice_test

import (
	"testing"

	"paygate/core/billing/gst"
	"paygate/core/billing/invoice"
	"paygate/core/money/ledger"
)

// TestLinesCarryTheirSAC: a line carries its service's SAC; a service
// without one, and a plan fee, the supplier's default; collection fees
// (no service bills them) are payment processing, 997158, on the
// reseller's at-cost lines too and whatever the supplier's default.
func TestLinesCarryTheirSAC(t *testing.T) {
	withSAC := func(c invoice.Charge, sac string) invoice.Charge { c.SAC = sac; return c }
	cases := []struct {
		name   string
		charge invoice.Charge
		def    string
		want   string
	}{
		{"a service's own SAC", withSAC(debit("service:1", "Payout", "5.00", "2026-11-02 10:00"), gst.PaymentSAC), "998319", "997158"},
		{"another service's own SAC", withSAC(debit("service:2", "Maps", "1.00", "2026-11-02 10:00"), "998314"), "998319", "998314"},
		{"a service without one: the default", debit("service:3", "SMS", "1.00", "2026-11-02 10:00"), "998319", "998319"},
		{"a plan fee: the default", debit("plan:growth", "Plan Growth", "300.00", "2026-11-01 00:00"), "998316", "998316"},
		{"collection fees", debit(invoice.GroupCollectionFee, "Collection fees", "11.80", "2026-11-02 10:00"), "998319", gst.PaymentSAC},
		{"collection fees under another default", debit(invoice.GroupCollectionFee, "Collection fees", "11.80", "2026-11-02 10:00"), "998316", gst.PaymentSAC},
		{"customers' collection fees at cost", invoice.AtCost([]invoice.Charge{debit(invoice.GroupCollectionFee, "Collection fees", "11.80", "2026-11-02 10:00")})[0], "998319", gst.PaymentSAC},
		{"customers' calls at cost keep their service's", invoice.AtCost([]invoice.Charge{withSAC(debit("service:1", "Payout", "5.00", "2026-11-02 10:00"), gst.PaymentSAC)})[0], "998319", gst.PaymentSAC},
		{"a refund of an earlier month's collection fee", invoice.One(ledger.Refund, d("1.18"), invoice.GroupCollectionFee, "Collection fees", "", at("2026-10-20 10:00")), "998319", gst.PaymentSAC},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := invoice.Build([]invoice.Charge{c.charge}, "2026-11", ist, invoice.Tax{Rate: d("18"), IntraState: true, DefaultSAC: c.def})
			lines := m.Lines
			if len(lines) == 0 {
				lines = m.Credits["2026-10"]
			}
			if len(lines) != 1 || lines[0].SAC != c.want {
				t.Fatalf("lines %+v, credits %+v: want one line with SAC %s", m.Lines, m.Credits, c.want)
			}
		})
	}
}
