package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/plan"
	"paygate/core/money/ledger"
)

// planFees are a user's subscription and periods, read before the ledger:
// a renewal commits its period with its debit, so every period read here
// has its debit in the later ledger read (periods written after are left
// to the next check, as are their debits).
type planFees struct {
	sub     *plan.Subscription // nil: none yet (opened by the next billing round)
	periods []plan.Period
	lastID  uint64
	paid    map[uint64]decimal.Decimal // plan_fee debits by period id
	debits  map[uint64]int
}

// renewalLeeway is how long after a month's first instant the check waits
// for its renewals (the billing worker runs every minute).
const renewalLeeway = 10 * time.Minute

func (c *Checker) readPlanFees(ctx context.Context, id uint64) (*planFees, error) {
	f := &planFees{paid: map[uint64]decimal.Decimal{}, debits: map[uint64]int{}}
	if c.st.Subscriptions == nil {
		return f, nil
	}
	sub, err := c.st.Subscriptions.ByUser(ctx, id)
	switch {
	case errors.Is(err, plan.ErrNoSubscription):
	case err != nil:
		return nil, fmt.Errorf("read subscription of user %d: %w", id, err)
	default:
		f.sub = sub
	}
	if f.periods, err = c.st.Subscriptions.Periods(ctx, id); err != nil {
		return nil, fmt.Errorf("read periods of user %d: %w", id, err)
	}
	for _, p := range f.periods {
		f.lastID = max(f.lastID, p.ID)
	}
	return f, nil
}

func (f *planFees) add(e ledger.Entry) {
	if e.Type != ledger.Debit {
		return
	}
	f.paid[*e.ReferenceID] = f.paid[*e.ReferenceID].Add(e.Amount)
	f.debits[*e.ReferenceID]++
}

// checkPlanFees: every plan_fee debit belongs to a period of the user; no
// period is charged more than its amount, and a paid one exactly its amount
// (a 0.00 fee writes no row), the others nothing; the subscription's
// current period has its row: paid, waived or void (moved after the grace)
// when active, due when past due; and an active subscription of a live
// account is in the month renewals are due for (month: the local month a
// few minutes ago, so a renewal under way at the boundary is not reported).
func checkPlanFees(f *planFees, month string, bad func(string, ...any)) {
	byID := map[uint64]plan.Period{}
	for _, p := range f.periods {
		byID[p.ID] = p
	}
	for ref, sum := range f.paid {
		if _, ok := byID[ref]; !ok && ref <= f.lastID {
			bad("plan_fee debits of %s reference period %d, not one of this user's", sum.StringFixed(2), ref)
		}
	}
	for _, p := range f.periods {
		want := decimal.Zero
		if p.Status == plan.PeriodPaid {
			want = p.Amount
		}
		if got := f.paid[p.ID]; !got.Equal(want) {
			bad("period %s (%s, %s): plan_fee debits %s in %d rows, want %s", p.Period, p.PlanCode, p.Status,
				got.StringFixed(2), f.debits[p.ID], want.StringFixed(2))
		}
	}
	if f.sub == nil {
		return
	}
	var cur *plan.Period
	for i := range f.periods {
		if f.periods[i].Period == f.sub.Period {
			cur = &f.periods[i]
		}
	}
	switch {
	case cur == nil:
		bad("subscription in %s has no period row: never charged", f.sub.Period)
	case f.sub.Status == plan.SubPastDue && cur.Status != plan.PeriodDue,
		f.sub.Status == plan.SubActive && cur.Status == plan.PeriodDue:
		bad("subscription %s in %s, its period %s", f.sub.Status, f.sub.Period, cur.Status)
	}
	if month != "" && f.sub.Status == plan.SubActive && f.sub.Period < month {
		bad("subscription still in %s: its renewal for %s is overdue", f.sub.Period, month)
	}
}
