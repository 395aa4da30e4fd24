package customers

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/metering/report"
	"paygate/core/platform/errs"
)

// CustomerLine is one customer's row of the dashboard.
type CustomerLine struct {
	report.CustomerUsage
	Name string
}

// Dashboard is the reseller's dashboard over [From, To).
type Dashboard struct {
	From, To          time.Time
	Customers         int64 // the reseller's customers (all of them, whatever the range)
	Calls             int64
	Spend             decimal.Decimal
	Cost              decimal.Decimal
	CommissionAccrued decimal.Decimal // of the range's success hits
	CommissionSettled decimal.Decimal // settlements whose hour starts in the range, less reversals taken back
	Lines             []CustomerLine  // customers with calls in the range, most spend first
}

// MaxDashboardRange bounds a dashboard's range.
const MaxDashboardRange = 366 * 24 * time.Hour

// Dashboard sums the caller's customers' success calls in [from, to).
func (p *Customers) Dashboard(ctx context.Context, actor *user.User, from, to time.Time) (*Dashboard, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, err
	}
	if !to.After(from) || to.Sub(from) > MaxDashboardRange {
		return nil, errs.Validation(map[string][]string{"to": {"must be after from, at most 366 days later"}})
	}
	id := actor.ID
	_, n, err := p.st.Users.List(ctx, user.Filter{ParentID: &id, PerPage: 1})
	if err != nil {
		return nil, fmt.Errorf("count customers: %w", err)
	}
	usage, err := p.st.Reports.CustomerUsage(ctx, actor.ID, from, to)
	if err != nil {
		return nil, err
	}
	settled, err := p.st.Reports.CommissionSettled(ctx, actor.ID, from, to)
	if err != nil {
		return nil, err
	}
	d := &Dashboard{From: from, To: to, Customers: n, Spend: decimal.Zero, Cost: decimal.Zero,
		CommissionAccrued: decimal.Zero, CommissionSettled: settled}
	for _, u := range usage {
		name := ""
		if c, err := p.st.Users.ByID(ctx, u.CustomerID); err == nil {
			name = c.Name
		} else if errs.KindOf(err) != errs.NotFound {
			return nil, err
		}
		d.Calls += u.Calls
		d.Spend = d.Spend.Add(u.Spend)
		d.Cost = d.Cost.Add(u.Cost)
		d.CommissionAccrued = d.CommissionAccrued.Add(u.Commission)
		d.Lines = append(d.Lines, CustomerLine{CustomerUsage: u, Name: name})
	}
	return d, nil
}
