package report

import (
	"context"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// DayLayout is how a local day is written ("2006-01-02").
const DayLayout = "2006-01-02"

// Usage counts calls and sums their money.
type Usage struct {
	Calls               int64
	Success             int64 // billed calls
	Failed              int64
	InsufficientBalance int64
	Pending             int64
	Revenue             decimal.Decimal // sum of charge_amount: what callers paid
	Cost                decimal.Decimal // sum of cost_amount: what the upstreams cost
}

// Margin is revenue minus cost.
func (u Usage) Margin() decimal.Decimal { return u.Revenue.Sub(u.Cost) }

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.Calls += o.Calls
	u.Success += o.Success
	u.Failed += o.Failed
	u.InsufficientBalance += o.InsufficientBalance
	u.Pending += o.Pending
	u.Revenue = u.Revenue.Add(o.Revenue)
	u.Cost = u.Cost.Add(o.Cost)
}

// AddHit counts one hit.
func (u *Usage) AddHit(h Hit) {
	u.Calls++
	switch h.Status {
	case hitlog.StatusSuccess:
		u.Success++
	case hitlog.StatusFailed:
		u.Failed++
	case hitlog.StatusInsufficientBalance:
		u.InsufficientBalance++
	case hitlog.StatusPending:
		u.Pending++
	}
	u.Revenue = u.Revenue.Add(h.Charge)
	u.Cost = u.Cost.Add(h.Cost)
}

// Hit is what a report reads of one hit log row.
type Hit struct {
	UserID    uint64
	ServiceID uint64
	Status    hitlog.Status
	Charge    decimal.Decimal
	Cost      decimal.Decimal
	CreatedAt time.Time
}

// HitOf is what a report reads of h.
func HitOf(h *hitlog.Hit) Hit {
	return Hit{UserID: h.UserID, ServiceID: h.ServiceID, Status: h.Status, Charge: h.ChargeAmount, Cost: h.CostAmount, CreatedAt: h.CreatedAt}
}

// Row is the usage of one local day, user and service. Rows summed over
// every user carry UserID 0.
type Row struct {
	Day       string
	UserID    uint64
	ServiceID uint64
	Usage
}

// HourRow is the usage of one local hour (the instant it starts), user and
// service in the hourly roll-up: final hits only (Pending is zero). Rows
// summed over every user carry UserID 0.
type HourRow struct {
	Hour      time.Time
	UserID    uint64
	ServiceID uint64
	Usage
}

// HourOf is the instant t's local hour in loc starts. Every zone's offset
// is a whole number of quarter hours, so a local hour lies within one local
// day.
func HourOf(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), 0, 0, 0, loc).UTC()
}

// DayOf is t's local day in loc.
func DayOf(t time.Time, loc *time.Location) string { return t.In(loc).Format(DayLayout) }

// DayStart is the instant local day begins in loc. Days are whole calendar
// days, so a day of a daylight-saving change lasts 23 or 25 hours.
func DayStart(day string, loc *time.Location) (time.Time, error) {
	t, err := time.ParseInLocation(DayLayout, day, loc)
	if err != nil {
		return time.Time{}, errs.E(errs.Invalid, "invalid_day", "Day must be YYYY-MM-DD").Wrap(err)
	}
	return t, nil
}

// NextDay is the calendar day after day ("2006-01-02").
func NextDay(day string) string {
	t, err := time.Parse(DayLayout, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, 1).Format(DayLayout)
}

// Days lists n calendar days ending with last, oldest first.
func Days(last string, n int) []string {
	t, err := time.Parse(DayLayout, last)
	if err != nil || n <= 0 {
		return nil
	}
	out := make([]string, n)
	for i := range n {
		out[i] = t.AddDate(0, 0, i-n+1).Format(DayLayout)
	}
	return out
}

// Tally sums hourly roll-up rows per local day, user and service.
type Tally struct {
	loc  *time.Location
	rows map[tallyKey]*Usage
}

type tallyKey struct {
	day             string
	user, serviceID uint64
}

// NewTally starts an empty tally that buckets hours by their local day in loc.
func NewTally(loc *time.Location) *Tally {
	return &Tally{loc: loc, rows: map[tallyKey]*Usage{}}
}

// AddHour counts a roll-up hour in its local day.
func (t *Tally) AddHour(r HourRow) {
	k := tallyKey{DayOf(r.Hour, t.loc), r.UserID, r.ServiceID}
	u := t.rows[k]
	if u == nil {
		u = &Usage{}
		t.rows[k] = u
	}
	u.Add(r.Usage)
}

// Rows lists the tally by day, user and service.
func (t *Tally) Rows() []Row {
	out := make([]Row, 0, len(t.rows))
	for k, u := range t.rows {
		out = append(out, Row{Day: k.day, UserID: k.user, ServiceID: k.serviceID, Usage: *u})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Day != b.Day {
			return a.Day < b.Day
		}
		if a.UserID != b.UserID {
			return a.UserID < b.UserID
		}
		return a.ServiceID < b.ServiceID
	})
	return out
}

// ErrDayClosed is MarkDayClosed on a day some other request closed first.
var ErrDayClosed = errs.E(errs.Conflict, "day_already_closed", "Day already rolled up")

// Repository reads the roll-ups and the pending hits, and keeps the daily
// roll-up. The hourly roll-up is written by the hit log's own writes
// (hitlog.Repository), in their transactions.
type Repository interface {
	// Hours reads the hourly roll-up of the hours starting in [from, to):
	// userID's rows, or every user's when userID is nil; per user when
	// perUser, else summed per hour and service (UserID 0 when userID is
	// nil). Oldest hour first. A zero from or to leaves that side open.
	Hours(ctx context.Context, from, to time.Time, userID *uint64, perUser bool) ([]HourRow, error)
	// HourSums sums the hourly roll-up of the hours starting in [from, to)
	// per user and service (Hour: from): a day's closing.
	HourSums(ctx context.Context, from, to time.Time) ([]HourRow, error)
	// PendingHits lists the hits still pending created in [from, to), of
	// userID when it is not nil.
	PendingHits(ctx context.Context, userID *uint64, from, to time.Time) ([]Hit, error)
	// ClosedDays reports which days from first to last (inclusive) are
	// rolled up in zone.
	ClosedDays(ctx context.Context, zone, first, last string) (map[string]bool, error)
	// MarkDayClosed records day as rolled up in zone; ErrDayClosed when it
	// already is. Call it in the transaction that inserts the day's rows.
	MarkDayClosed(ctx context.Context, zone, day string, at time.Time) error
	// InsertRollups stores the rows of closed days (one per day, user and
	// service; Pending must be zero).
	InsertRollups(ctx context.Context, zone string, rows []Row) error
	// Rollups sums the rolled-up rows from first to last (inclusive) per day
	// and service: userID's, or everyone's (UserID 0) when userID is nil.
	Rollups(ctx context.Context, zone, first, last string, userID *uint64) ([]Row, error)
	// PendingBalanceRequests counts balance requests still pending.
	PendingBalanceRequests(ctx context.Context) (int64, error)
	// UsersByStatus counts users that are not deleted, per status.
	UsersByStatus(ctx context.Context) (map[user.Status]int64, error)
}
