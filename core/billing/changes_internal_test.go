package billing

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/plan"
)

// TestUpgradeChargeAtAMonthsStart (issue 43, point 11), at an injected
// instant: one second into January, before January's renewal ran, the
// subscription is still in December. An upgrade's difference booked to
// December owes nothing (December ended); on the subscription as the
// renewal leaves it (January, at the price waiting for it) it is the whole
// difference for January's days. In mid-month it is the days left, as
// before.
func TestUpgradeChargeAtAMonthsStart(t *testing.T) {
	ist, _ := time.LoadLocation("Asia/Kolkata")
	b := New(Deps{Config: Config{Location: ist}})
	d := decimal.RequireFromString
	decStart, janStart := time.Date(2026, 12, 1, 0, 0, 0, 0, ist), time.Date(2027, 1, 1, 0, 0, 0, 0, ist)
	dec := &plan.Subscription{UserID: 7, PlanCode: "basic", Price: d("1000.00"), Period: "2026-12",
		PeriodStart: decStart, PeriodEnd: janStart, Status: plan.SubActive}
	starter, zero := "starter", decimal.Zero
	waiting := *dec
	waiting.NextPlanCode, waiting.NextPrice = &starter, &zero
	pastDue := *dec
	pastDue.Status = plan.SubPastDue
	second := janStart.Add(time.Second)

	cases := []struct {
		name string
		sub  *plan.Subscription
		at   time.Time
		want string // the charge of moving to 3100.00
	}{
		{"booked to December, one second after it ended", dec, second, "0.00"},
		{"on January, as the renewal leaves it", b.renewed(dec, second), second, "2100.00"},
		{"a downgrade waiting for January: from its price", b.renewed(&waiting, second), second, "3100.00"},
		{"mid-December: its days left", dec, time.Date(2026, 12, 31, 12, 0, 0, 0, ist), "67.74"},
		{"past due: not renewed", b.renewed(&pastDue, second), second, "0.00"},
	}
	for _, c := range cases {
		if got := b.upgradeCharge(c.sub, d("3100.00"), c.at); got.StringFixed(2) != c.want {
			t.Errorf("%s: %s, want %s", c.name, got.StringFixed(2), c.want)
		}
	}
	if r := b.renewed(dec, second); r.Period != "2027-01" || !r.PeriodStart.Equal(janStart) || dec.Period != "2026-12" {
		t.Errorf("renewed: %+v (the original %s)", r, dec.Period)
	}
	if r := b.renewed(dec, janStart.Add(-time.Second)); r != dec {
		t.Error("a period still running is not renewed")
	}
}
