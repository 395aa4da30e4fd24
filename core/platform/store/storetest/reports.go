package storetest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
	"paygate/core/money/topup"
)

// reportsRepo: the dashboard's read model.
type reportsRepo struct{ d *DB }

var _ report.Repository = reportsRepo{}

// Rollup is one stored roll-up row of zone (the dashboard's closed days).
type Rollup struct {
	Zone string
	report.Row
}

// ClosedDay marks Day rolled up in Zone at At.
type ClosedDay struct {
	Zone, Day string
	At        time.Time
}

// Reports: Hours sums the final hits of the hits table on read, in
// quarter hours of UTC (every zone's local hours and days are whole
// quarter hours, so a row lies within one local day whatever the zone the
// test reads in); PendingHits reads the hits table; a day is closed once
// per zone (ErrDayClosed after); Rollups sums the stored rows per day and
// service.

func (r reportsRepo) Hours(_ context.Context, from, to time.Time, userID *uint64, perUser bool) ([]report.HourRow, error) {
	var out []report.HourRow
	err := r.d.do("Reports.Hours", func(t *tables) error {
		type key struct {
			hour          time.Time
			user, service uint64
		}
		sums := map[key]*report.HourRow{}
		for _, h := range t.hits {
			if h.Status == hitlog.StatusPending || (userID != nil && h.UserID != *userID) {
				continue
			}
			k := key{h.CreatedAt.UTC().Truncate(15 * time.Minute), h.UserID, h.ServiceID}
			if (!from.IsZero() && k.hour.Before(from)) || (!to.IsZero() && !k.hour.Before(to)) {
				continue
			}
			if !perUser {
				k.user = 0
				if userID != nil {
					k.user = *userID
				}
			}
			row := sums[k]
			if row == nil {
				row = &report.HourRow{Hour: k.hour, UserID: k.user, ServiceID: k.service}
				sums[k] = row
			}
			row.AddHit(report.HitOf(&h))
		}
		for _, row := range sums {
			out = append(out, *row)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b report.HourRow) int {
		if c := a.Hour.Compare(b.Hour); c != 0 {
			return c
		}
		if c := cmp.Compare(a.UserID, b.UserID); c != 0 {
			return c
		}
		return cmp.Compare(a.ServiceID, b.ServiceID)
	})
	return out, err
}

func (r reportsRepo) HourSums(ctx context.Context, from, to time.Time) ([]report.HourRow, error) {
	rows, err := r.Hours(ctx, from, to, nil, true)
	if err != nil {
		return nil, err
	}
	sums := map[[2]uint64]*report.HourRow{}
	var out []report.HourRow
	for _, row := range rows {
		k := [2]uint64{row.UserID, row.ServiceID}
		if sums[k] == nil {
			sums[k] = &report.HourRow{Hour: from, UserID: row.UserID, ServiceID: row.ServiceID}
		}
		sums[k].Add(row.Usage)
	}
	for _, row := range sums {
		out = append(out, *row)
	}
	return out, nil
}

func (r reportsRepo) PendingHits(_ context.Context, userID *uint64, from, to time.Time) ([]report.Hit, error) {
	var out []report.Hit
	err := r.d.do("Reports.PendingHits", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if h.Status == hitlog.StatusPending && (userID == nil || h.UserID == *userID) && !h.CreatedAt.Before(from) && h.CreatedAt.Before(to) {
				out = append(out, report.HitOf(&h))
			}
		}
		return nil
	})
	return out, err
}

func (r reportsRepo) ClosedDays(_ context.Context, zone, first, last string) (map[string]bool, error) {
	out := map[string]bool{}
	err := r.d.do("Reports.ClosedDays", func(t *tables) error {
		for _, c := range t.closed {
			if c.Zone == zone && c.Day >= first && c.Day <= last {
				out[c.Day] = true
			}
		}
		return nil
	})
	return out, err
}

func (r reportsRepo) MarkDayClosed(_ context.Context, zone, day string, at time.Time) error {
	return r.d.do("Reports.MarkDayClosed", func(t *tables) error {
		if _, ok := t.closed[zone+"|"+day]; ok {
			return report.ErrDayClosed
		}
		t.closed[zone+"|"+day] = ClosedDay{Zone: zone, Day: day, At: at}
		return nil
	})
}

func (r reportsRepo) InsertRollups(_ context.Context, zone string, rows []report.Row) error {
	return r.d.do("Reports.InsertRollups", func(t *tables) error {
		for _, row := range rows {
			if row.Pending != 0 {
				return fmt.Errorf("roll-up row %s/%d/%d has pending calls", row.Day, row.UserID, row.ServiceID)
			}
			t.rollups = append(t.rollups, Rollup{Zone: zone, Row: row})
		}
		return nil
	})
}

func (r reportsRepo) Rollups(_ context.Context, zone, first, last string, userID *uint64) ([]report.Row, error) {
	var out []report.Row
	err := r.d.do("Reports.Rollups", func(t *tables) error {
		sums := map[[2]string]*report.Row{}
		for _, ru := range t.rollups {
			if ru.Zone != zone || ru.Day < first || ru.Day > last || (userID != nil && ru.UserID != *userID) {
				continue
			}
			k := [2]string{ru.Day, fmt.Sprintf("%020d", ru.ServiceID)}
			s := sums[k]
			if s == nil {
				s = &report.Row{Day: ru.Day, ServiceID: ru.ServiceID}
				if userID != nil {
					s.UserID = *userID
				}
				sums[k] = s
			}
			s.Add(ru.Usage)
		}
		for _, s := range sums {
			out = append(out, *s)
		}
		slices.SortFunc(out, func(a, b report.Row) int {
			if c := strings.Compare(a.Day, b.Day); c != 0 {
				return c
			}
			return cmpID(a.ServiceID, b.ServiceID)
		})
		return nil
	})
	return out, err
}

func (r reportsRepo) PendingBalanceRequests(context.Context) (int64, error) {
	var n int64
	err := r.d.do("Reports.PendingBalanceRequests", func(t *tables) error {
		for _, q := range t.topups {
			if q.Status == topup.StatusPending {
				n++
			}
		}
		return nil
	})
	return n, err
}

func (r reportsRepo) UsersByStatus(context.Context) (map[user.Status]int64, error) {
	out := map[user.Status]int64{user.StatusActive: 0, user.StatusPending: 0, user.StatusBlocked: 0}
	err := r.d.do("Reports.UsersByStatus", func(t *tables) error {
		for _, u := range t.users {
			if u.DeletedAt == nil {
				out[u.Status]++
			}
		}
		return nil
	})
	return out, err
}

// Reads for assertions.

// Rollups are the stored roll-up rows, in insertion order.
func (d *DB) Rollups() []Rollup {
	return read(d, func(t *tables) []Rollup { return slices.Clone(t.rollups) })
}

// ClosedDays are the days marked rolled up, by zone and day.
func (d *DB) ClosedDays() []ClosedDay {
	return read(d, func(t *tables) []ClosedDay {
		out := make([]ClosedDay, 0, len(t.closed))
		for _, c := range t.closed {
			out = append(out, c)
		}
		slices.SortFunc(out, func(a, b ClosedDay) int { return strings.Compare(a.Zone+"|"+a.Day, b.Zone+"|"+b.Day) })
		return out
	})
}
