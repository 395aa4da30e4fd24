// Package plan holds the plan catalog and subscriptions: what a plan
// costs a month and allows, each user's one subscription, and the periods
// charged (docs/decisions.md, "Plans that bill").
package plan

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
)

// Status is a plan's state in the catalog.
type Status string

const (
	StatusActive  Status = "active"
	StatusRetired Status = "retired" // offered to nobody new; its subscribers stay until they move
)

// Plan is one row of the catalog.
type Plan struct {
	ID   uint64
	Code string
	Name string
	// MonthlyPrice is nil for a plan whose price is agreed per account
	// (Enterprise): an admin sets the subscription's price.
	MonthlyPrice *decimal.Decimal
	// MonthlyCalls is the allowance of billed metered calls in a local
	// calendar month; nil is unlimited.
	MonthlyCalls *int
	Features     []string
	Public       bool
	Status       Status
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// CustomPrice reports a plan whose price is agreed per account.
func (p *Plan) CustomPrice() bool { return p.MonthlyPrice == nil }

// SubStatus is a subscription's state.
type SubStatus string

const (
	SubActive  SubStatus = "active"
	SubPastDue SubStatus = "past_due" // the period's fee is unpaid; calls work during the grace
)

// Grace is how long a past-due subscription keeps its plan before it is
// moved to the default plan.
const Grace = 7 * 24 * time.Hour

// Subscription is a user's one subscription: its plan and price, and the
// period (local calendar month) it is in.
type Subscription struct {
	ID           uint64
	UserID       uint64
	PlanCode     string
	Price        decimal.Decimal
	Period       string // "2026-11": the month the subscription is in
	PeriodStart  time.Time
	PeriodEnd    time.Time // the next period's start
	Status       SubStatus
	PastDueSince *time.Time
	// NextPlanCode and NextPrice are a downgrade waiting for the next
	// period, if any.
	NextPlanCode *string
	NextPrice    *decimal.Decimal
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// PeriodStatus is the state of one period's fee.
type PeriodStatus string

const (
	PeriodPaid   PeriodStatus = "paid"   // debited (or a zero price: no ledger row)
	PeriodDue    PeriodStatus = "due"    // the wallet was short: retried on credits and daily
	PeriodWaived PeriodStatus = "waived" // a subscription's first period: nothing charged retroactively
	PeriodVoid   PeriodStatus = "void"   // still unpaid when the grace ended: moved to the default plan
)

// Period is one subscription period's fee. (UserID, Period) is unique: its
// insert is the fee's idempotency key, in the debit's transaction.
type Period struct {
	ID             uint64
	SubscriptionID uint64
	UserID         uint64
	Period         string
	PlanCode       string
	Amount         decimal.Decimal
	Status         PeriodStatus
	PaidAt         *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

var (
	ErrPlanNotFound   = errs.E(errs.NotFound, "plan_not_found", "Plan not found")
	ErrNoSubscription = errs.E(errs.NotFound, "subscription_not_found", "Subscription not found")
	ErrCodeTaken      = errs.E(errs.Conflict, "plan_code_taken", "A plan with this code exists")
)

// Month is the local calendar month of t ("2006-01").
func Month(t time.Time, loc *time.Location) string { return t.In(loc).Format("2006-01") }

// Bounds are the first local instant of month and of the month after.
func Bounds(month string, loc *time.Location) (start, end time.Time, err error) {
	m, err := time.ParseInLocation("2006-01", month, loc)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("month %q: %w", month, err)
	}
	return m, m.AddDate(0, 1, 0), nil
}

// NextMonth is the month after month ("2026-12" → "2027-01").
func NextMonth(month string) string {
	m, err := time.Parse("2006-01", month)
	if err != nil {
		return month
	}
	return m.AddDate(0, 1, 0).Format("2006-01")
}

// PrevMonth is the month before month ("2027-01" → "2026-12").
func PrevMonth(month string) string {
	m, err := time.Parse("2006-01", month)
	if err != nil {
		return month
	}
	return m.AddDate(0, -1, 0).Format("2006-01")
}

// Prorate is the part of a monthly amount for the days left in at's local
// month, the day of at included, rounded half-up to 2 places.
func Prorate(monthly decimal.Decimal, at time.Time, loc *time.Location) decimal.Decimal {
	local := at.In(loc)
	days := time.Date(local.Year(), local.Month()+1, 0, 0, 0, 0, 0, loc).Day()
	left := days - local.Day() + 1
	return monthly.Mul(decimal.NewFromInt(int64(left))).Div(decimal.NewFromInt(int64(days))).Round(2)
}

// ProrateIn is the part of a monthly amount for the days of period (a
// local month, "2006-01") left at at, the day of at included, rounded
// half-up to 2 places: Prorate while at is in period, nothing once period
// has ended, all of it before period begins. A charge booked to a period
// is prorated within that period, never by another month's days (an
// upgrade a second after a month began, before its renewal ran, owes
// nothing more for the month that ended).
func ProrateIn(monthly decimal.Decimal, period string, at time.Time, loc *time.Location) decimal.Decimal {
	start, end, err := Bounds(period, loc)
	switch {
	case err != nil:
		return Prorate(monthly, at, loc)
	case !at.Before(end):
		return decimal.Zero
	case at.Before(start):
		return monthly.Round(2)
	}
	return Prorate(monthly, at, loc)
}

// Catalog stores plans.
type Catalog interface {
	// List lists plans in id order; public only: the active public ones.
	List(ctx context.Context, publicOnly bool) ([]Plan, error)
	ByCode(ctx context.Context, code string) (*Plan, error) // ErrPlanNotFound
	// Create inserts p and sets its ID; ErrCodeTaken when its code exists.
	Create(ctx context.Context, p *Plan) error
	// Update writes p's fields by code, and its allowance to the rows of
	// the users on it (users.plan_monthly_calls), in the caller's
	// transaction.
	Update(ctx context.Context, p *Plan) error
}

// Subscriptions stores subscriptions and their periods.
type Subscriptions interface {
	// Open gives every user without a subscription one on the plan their
	// row names, at its price (0.00 for a custom-price plan until an admin
	// sets one), in period (start to end) with that period waived. It
	// returns how many it opened; concurrent calls open each once.
	Open(ctx context.Context, period string, start, end, now time.Time) (int, error)
	ByUser(ctx context.Context, userID uint64) (*Subscription, error) // ErrNoSubscription
	// LockByUser reads the subscription with a row lock in a transaction.
	LockByUser(ctx context.Context, userID uint64) (*Subscription, error)
	Save(ctx context.Context, s *Subscription) error
	// Behind lists the live users after user id after whose active
	// subscription is in a period before period, up to limit, in id order.
	Behind(ctx context.Context, period string, after uint64, limit int) ([]uint64, error)
	// PastDue lists the users after user id after whose subscription is
	// past due, up to limit, in id order.
	PastDue(ctx context.Context, after uint64, limit int) ([]uint64, error)
	// InsertPeriod writes p unless the user's row for p.Period exists, and
	// reports whether this call wrote it.
	InsertPeriod(ctx context.Context, p *Period) (bool, error)
	SavePeriod(ctx context.Context, p *Period) error
	PeriodOf(ctx context.Context, userID uint64, period string) (*Period, error) // errs NotFound
	// Periods lists the user's periods in id order (for the ledger check).
	Periods(ctx context.Context, userID uint64) ([]Period, error)
}
