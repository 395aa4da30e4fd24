package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/billing/plan"
)

// TestPlanFeeRules: the ledger check's three plan-fee rules
// (docs/decisions.md, "Plans that bill"), as a table.
func TestPlanFeeRules(t *testing.T) {
	d := decimal.RequireFromString
	period := func(id uint64, month string, st plan.PeriodStatus, amount string) plan.Period {
		return plan.Period{ID: id, Period: month, PlanCode: "pro", Status: st, Amount: d(amount)}
	}
	sub := func(month string, st plan.SubStatus) *plan.Subscription {
		return &plan.Subscription{Period: month, Status: st}
	}
	cases := []struct {
		name    string
		sub     *plan.Subscription
		periods []plan.Period
		paid    map[uint64]string
		want    string // a part of the one discrepancy; "" for none
	}{
		{"paid once", sub("2026-12", plan.SubActive), []plan.Period{period(1, "2026-11", plan.PeriodWaived, "0"), period(2, "2026-12", plan.PeriodPaid, "250.00")},
			map[uint64]string{2: "250.00"}, ""},
		{"zero price, no row", sub("2026-12", plan.SubActive), []plan.Period{period(2, "2026-12", plan.PeriodPaid, "0.00")}, nil, ""},
		{"past due, nothing charged", sub("2026-12", plan.SubPastDue), []plan.Period{period(2, "2026-12", plan.PeriodDue, "25.00")}, nil, ""},
		{"charged twice", sub("2026-12", plan.SubActive), []plan.Period{period(2, "2026-12", plan.PeriodPaid, "250.00")},
			map[uint64]string{2: "500.00"}, "plan_fee debits 500.00"},
		{"a waived month charged", sub("2026-12", plan.SubActive), []plan.Period{period(1, "2026-12", plan.PeriodWaived, "0")},
			map[uint64]string{1: "10.00"}, "want 0.00"},
		{"a debit of no period", sub("2026-12", plan.SubActive), []plan.Period{period(2, "2026-12", plan.PeriodPaid, "0.00")},
			map[uint64]string{1: "10.00"}, "not one of this user's"},
		{"a debit of a later period is left to the next check", sub("2026-12", plan.SubActive), []plan.Period{period(2, "2026-12", plan.PeriodPaid, "0.00")},
			map[uint64]string{3: "10.00"}, ""},
		{"the current period never charged", sub("2027-01", plan.SubActive), []plan.Period{period(2, "2026-12", plan.PeriodPaid, "0.00")}, nil, "never charged"},
		{"past due without a due period", sub("2026-12", plan.SubPastDue), []plan.Period{period(2, "2026-12", plan.PeriodPaid, "0.00")}, nil, "past_due in 2026-12"},
		{"a renewal overdue", sub("2026-11", plan.SubActive), []plan.Period{period(1, "2026-11", plan.PeriodWaived, "0")}, nil, "overdue"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &planFees{sub: c.sub, periods: c.periods, paid: map[uint64]decimal.Decimal{}, debits: map[uint64]int{}}
			for _, p := range c.periods {
				f.lastID = max(f.lastID, p.ID)
			}
			for id, a := range c.paid {
				f.paid[id], f.debits[id] = d(a), 1
			}
			var got []string
			checkPlanFees(f, "2026-12", func(format string, args ...any) { got = append(got, fmt.Sprintf(format, args...)) })
			if c.want == "" && len(got) > 0 || c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)) {
				t.Fatalf("discrepancies %q, want one with %q", got, c.want)
			}
		})
	}
}
