package history

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/metering/report"
	"paygate/core/platform/errs"
)

// DashboardDays is how many local days the dashboard covers, today included.
const DashboardDays = 30

// topServicesShown is how many services the dashboard ranks.
const topServicesShown = 5

// Dashboard is the panel's landing page for one caller.
type Dashboard struct {
	Zone        string // TIMEZONE: the days are local days there
	From, To    string // first and last day of Days ("2006-01-02")
	User        *user.User
	Usage       report.Usage // the caller's calls over the days
	Days        []DayUsage   // every day from From to To, oldest first
	TopServices []ServiceUsage
	Platform    *Platform // admins only
}

// Platform is everyone's usage, for admins.
type Platform struct {
	Usage                  report.Usage
	Days                   []DayUsage
	TopServices            []ServiceUsage
	PendingBalanceRequests int64
	UsersByStatus          map[user.Status]int64
}

// DayUsage is the usage of one local day.
type DayUsage struct {
	Day string
	report.Usage
}

// ServiceUsage is the usage of one service; Name and Slug are empty for a
// deleted service.
type ServiceUsage struct {
	ServiceID  uint64
	Name, Slug string
	report.Usage
}

// Dashboard gathers the caller's figures for the last DashboardDays local
// days and, for an admin, the platform's, from roll-ups only: closed days
// from the daily roll-up (closing any day over and not closed yet, a sum
// of its hourly rows), the other days from the hourly roll-up, plus the
// few hits still pending, read live. Its cost does not grow with the
// number of calls.
func (p *History) Dashboard(ctx context.Context, actor *user.User) (*Dashboard, error) {
	if err := p.settled(ctx); err != nil {
		return nil, err
	}
	loc := p.cfg.Location
	now := p.now()
	zone := loc.String()
	days := report.Days(report.DayOf(now, loc), DashboardDays)
	first, today := days[0], days[len(days)-1]

	u, err := p.st.Users.ByID(ctx, actor.ID)
	if err != nil {
		return nil, fmt.Errorf("dashboard user %d: %w", actor.ID, err)
	}
	closed, _, err := p.closeDays(ctx, zone, days[:len(days)-1], now)
	if err != nil {
		return nil, err
	}

	admin := actor.Role == user.RoleAdmin
	mine := newSeries(days, closed)
	var all *series
	if admin {
		all = newSeries(days, closed)
	}

	// Open days: from the first day not closed to the end of today.
	openFrom := today
	for _, d := range days {
		if !closed[d] {
			openFrom = d
			break
		}
	}
	from, err := report.DayStart(openFrom, loc)
	if err != nil {
		return nil, err
	}
	to, err := report.DayStart(report.NextDay(today), loc)
	if err != nil {
		return nil, err
	}
	hours, err := p.st.Reports.Hours(ctx, from, to, &u.ID, false)
	if err != nil {
		return nil, fmt.Errorf("dashboard hours: %w", err)
	}
	mine.addHours(hours, loc)
	var pendingOf *uint64 // the caller's pending hits, or everyone's for an admin
	if !admin {
		pendingOf = &u.ID
	}
	pending, err := p.st.Reports.PendingHits(ctx, pendingOf, from, to)
	if err != nil {
		return nil, fmt.Errorf("dashboard pending hits: %w", err)
	}
	for _, h := range pending {
		var one report.Usage
		one.AddHit(h)
		day := report.DayOf(h.CreatedAt, loc)
		if h.UserID == u.ID {
			mine.addOpen(day, h.ServiceID, one)
		}
		if all != nil {
			all.addOpen(day, h.ServiceID, one)
		}
	}
	if all != nil {
		if hours, err = p.st.Reports.Hours(ctx, from, to, nil, false); err != nil {
			return nil, fmt.Errorf("dashboard platform hours: %w", err)
		}
		all.addHours(hours, loc)
	}

	// Closed days.
	rows, err := p.st.Reports.Rollups(ctx, zone, first, today, &u.ID)
	if err != nil {
		return nil, fmt.Errorf("dashboard roll-up: %w", err)
	}
	mine.addRows(rows)
	if all != nil {
		if rows, err = p.st.Reports.Rollups(ctx, zone, first, today, nil); err != nil {
			return nil, fmt.Errorf("dashboard platform roll-up: %w", err)
		}
		all.addRows(rows)
	}

	d := &Dashboard{Zone: zone, From: first, To: today, User: u, Usage: mine.total, Days: mine.dayList()}
	if d.TopServices, err = p.topServices(ctx, mine); err != nil {
		return nil, err
	}
	if all == nil {
		return d, nil
	}
	platform := &Platform{Usage: all.total, Days: all.dayList()}
	if platform.TopServices, err = p.topServices(ctx, all); err != nil {
		return nil, err
	}
	if platform.PendingBalanceRequests, err = p.st.Reports.PendingBalanceRequests(ctx); err != nil {
		return nil, fmt.Errorf("dashboard pending balance requests: %w", err)
	}
	if platform.UsersByStatus, err = p.st.Reports.UsersByStatus(ctx); err != nil {
		return nil, fmt.Errorf("dashboard users by status: %w", err)
	}
	d.Platform = platform
	return d, nil
}

// CloseDays closes every local day of the dashboard's window that is over
// (by RollupGrace) and not closed yet; a worker runs it, so a dashboard
// read rarely finds a day to close. It reports how many it closed.
func (p *History) CloseDays(ctx context.Context) (int, error) {
	loc, now := p.cfg.Location, p.now()
	days := report.Days(report.DayOf(now, loc), DashboardDays)
	_, n, err := p.closeDays(ctx, loc.String(), days[:len(days)-1], now)
	return n, err
}

// closeDays closes every day of days that is over (by RollupGrace) and not
// closed yet, and returns which of days are closed and how many of them
// this call closed.
func (p *History) closeDays(ctx context.Context, zone string, days []string, now time.Time) (closed map[string]bool, n int, err error) {
	if len(days) == 0 {
		return map[string]bool{}, 0, nil
	}
	closed, err = p.st.Reports.ClosedDays(ctx, zone, days[0], days[len(days)-1])
	if err != nil {
		return nil, 0, fmt.Errorf("closed days: %w", err)
	}
	if closed == nil {
		closed = map[string]bool{}
	}
	for _, day := range days {
		if closed[day] {
			continue
		}
		end, err := report.DayStart(report.NextDay(day), p.cfg.Location)
		if err != nil {
			return nil, 0, err
		}
		if now.Before(end.Add(p.cfg.RollupGrace)) {
			continue
		}
		ok, err := p.closeDay(ctx, zone, day, end)
		if err != nil {
			return nil, 0, err
		}
		closed[day] = ok
		if ok {
			n++
		}
	}
	return closed, n, nil
}

// closeDay closes one local day ending at end: it sums the day's hourly
// roll-up rows per user and service and stores the sums with the day's
// mark in one transaction. A day with a pending hit stays open (false).
// Two instances closing the same day at once insert it once: the second
// one's mark fails with ErrDayClosed and its transaction rolls back.
func (p *History) closeDay(ctx context.Context, zone, day string, end time.Time) (bool, error) {
	start, err := report.DayStart(day, p.cfg.Location)
	if err != nil {
		return false, err
	}
	pending, err := p.st.Reports.PendingHits(ctx, nil, start, end)
	if err != nil {
		return false, fmt.Errorf("pending hits of %s: %w", day, err)
	}
	if len(pending) > 0 {
		return false, nil
	}
	tally := report.NewTally(p.cfg.Location)
	err = p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Reports.MarkDayClosed(ctx, zone, day, p.now().UTC()); err != nil {
			return err
		}
		// Read under the mark: an instance closing the day at once waits
		// on it, then rolls back.
		hours, err := s.Reports.HourSums(ctx, start, end)
		if err != nil {
			return err
		}
		for _, h := range hours {
			tally.AddHour(h)
		}
		return s.Reports.InsertRollups(ctx, zone, tally.Rows())
	})
	if errors.Is(err, report.ErrDayClosed) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("roll up %s: %w", day, err)
	}
	return true, nil
}

// topServices ranks s's services by calls, then revenue, then id, and names
// the first topServicesShown.
func (p *History) topServices(ctx context.Context, s *series) ([]ServiceUsage, error) {
	out := make([]ServiceUsage, 0, len(s.services))
	for id, u := range s.services {
		out = append(out, ServiceUsage{ServiceID: id, Usage: *u})
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Calls != y.Calls {
			return x.Calls > y.Calls
		}
		if c := x.Revenue.Cmp(y.Revenue); c != 0 {
			return c > 0
		}
		return x.ServiceID < y.ServiceID
	})
	if len(out) > topServicesShown {
		out = out[:topServicesShown]
	}
	for i := range out {
		svc, err := p.st.Services.ByID(ctx, out[i].ServiceID)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				continue // deleted: its logs stay, its name is gone
			}
			return nil, fmt.Errorf("dashboard service %d: %w", out[i].ServiceID, err)
		}
		out[i].Name, out[i].Slug = svc.Name, svc.Slug
	}
	return out, nil
}

// series sums usage per day (every day of the window present) and per
// service; closed days are counted from the daily roll-up only.
type series struct {
	days     []string
	closed   map[string]bool
	byDay    map[string]*report.Usage
	services map[uint64]*report.Usage
	total    report.Usage
}

func newSeries(days []string, closed map[string]bool) *series {
	s := &series{days: days, closed: closed, byDay: map[string]*report.Usage{}, services: map[uint64]*report.Usage{}}
	for _, d := range days {
		s.byDay[d] = &report.Usage{}
	}
	return s
}

// add counts u on day and service; days outside the window are ignored.
func (s *series) add(day string, serviceID uint64, u report.Usage) {
	d := s.byDay[day]
	if d == nil {
		return
	}
	d.Add(u)
	sv := s.services[serviceID]
	if sv == nil {
		sv = &report.Usage{}
		s.services[serviceID] = sv
	}
	sv.Add(u)
	s.total.Add(u)
}

// addOpen counts u on day and service unless the day is closed.
func (s *series) addOpen(day string, serviceID uint64, u report.Usage) {
	if !s.closed[day] {
		s.add(day, serviceID, u)
	}
}

// addHours counts the hourly rows of open days.
func (s *series) addHours(rows []report.HourRow, loc *time.Location) {
	for _, r := range rows {
		s.addOpen(report.DayOf(r.Hour, loc), r.ServiceID, r.Usage)
	}
}

func (s *series) addRows(rows []report.Row) {
	for _, r := range rows {
		s.add(r.Day, r.ServiceID, r.Usage)
	}
}

func (s *series) dayList() []DayUsage {
	out := make([]DayUsage, len(s.days))
	for i, d := range s.days {
		out[i] = DayUsage{Day: d, Usage: *s.byDay[d]}
	}
	return out
}
