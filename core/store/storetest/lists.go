package storetest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"paygate/core/accountopen"
	"paygate/core/audit"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/report"
	"paygate/core/taxprofile"
	"paygate/core/topup"
	"paygate/core/user"
	"paygate/core/webhook"
)

// The panel's lists and the dashboard's read model. Lists follow the real
// store: newest first, pages of PerPage (20 by default, 100 at most) from
// Page 1, From and To inclusive bounds on created_at; the hit and ledger
// lists count at most ListWindow+1 matches.

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

// putMore stores the rows put does not know: audit.Entry, webhook.Event,
// webhook.Attempt, user.ResetToken, Rollup, ClosedDay, accountopen.Opening,
// taxprofile.Supplier, taxprofile.Profile.
func (t *tables) putMore(r any) any {
	switch r := r.(type) {
	case taxprofile.Supplier:
		t.supplier[supplierKey] = r
		return r
	case taxprofile.Profile:
		t.profiles[r.UserID] = r
		return r
	case audit.Entry:
		r.ID = t.id("audit", r.ID)
		t.audit = append(t.audit, r)
		return r
	case webhook.Event:
		r.ID = t.id("events", r.ID)
		t.events[r.ID] = r
		return r
	case webhook.Attempt:
		r.ID = t.id("attempts", r.ID)
		t.attempts = append(t.attempts, r)
		return r
	case user.ResetToken:
		t.resets[r.Email] = r
		return r
	case Rollup:
		t.rollups = append(t.rollups, r)
		return r
	case ClosedDay:
		t.closed[r.Zone+"|"+r.Day] = r
		return r
	case accountopen.Opening:
		r.ID = t.id("openings", r.ID)
		t.openings[r.ID] = r
		return r
	}
	panic(fmt.Sprintf("storetest: Put of %T not implemented", r))
}

// page cuts rows (newest first already) to f's page.
func page[T any](rows []T, pg, perPage int) []T {
	if perPage <= 0 {
		perPage = 20
	}
	perPage = min(perPage, 100)
	pg = max(pg, 1)
	from := min((pg-1)*perPage, len(rows))
	return rows[from:min(from+perPage, len(rows))]
}

func within(at time.Time, from, to *time.Time) bool {
	return (from == nil || !at.Before(*from)) && (to == nil || !at.After(*to))
}

func newestFirst[T any](rows []T) []T {
	slices.Reverse(rows)
	return rows
}

// capped is a list's total: at most window+1.
func capped(n, window int) int64 { return int64(min(n, window+1)) }

func hitMatches(f hitlog.Filter) func(hitlog.Hit) bool {
	return func(h hitlog.Hit) bool {
		return (f.UserID == nil || h.UserID == *f.UserID) && (f.ServiceID == nil || h.ServiceID == *f.ServiceID) &&
			(f.APIKeyID == nil || h.APIKeyID == *f.APIKeyID) && (f.Status == "" || h.Status == f.Status) &&
			within(h.CreatedAt, f.From, f.To)
	}
}

// hitsNewest are the hits f selects, created_at then id descending.
func hitsNewest(t *tables, f hitlog.Filter) []hitlog.Hit {
	var out []hitlog.Hit
	for _, h := range sorted(t.hits) {
		if hitMatches(f)(h) {
			out = append(out, h)
		}
	}
	slices.SortStableFunc(out, func(a, b hitlog.Hit) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return cmpID(b.ID, a.ID)
	})
	return out
}

func listHits(d *DB, f hitlog.Filter) ([]hitlog.Hit, int64, error) {
	var out []hitlog.Hit
	var total int64
	err := d.do("Hits.List", func(t *tables) error {
		all := hitsNewest(t, f)
		total = capped(len(all), hitlog.ListWindow)
		out = slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

func forEachHit(d *DB, f hitlog.Filter, fn func(hitlog.Hit) error) error {
	var rows []hitlog.Hit
	if err := d.do("Hits.ForEach", func(t *tables) error { rows = hitsNewest(t, f); return nil }); err != nil {
		return err
	}
	for _, h := range rows {
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

// entriesNewest are the ledger entries f selects, id descending.
func entriesNewest(t *tables, f ledger.Filter) []ledger.Entry {
	var out []ledger.Entry
	for _, e := range t.ledger {
		if (f.UserID == nil || e.UserID == *f.UserID) && (f.Type == "" || e.Type == f.Type) &&
			(f.ReferenceType == "" || e.ReferenceType == f.ReferenceType) && within(e.CreatedAt, f.From, f.To) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b ledger.Entry) int { return cmpID(b.ID, a.ID) })
	return out
}

func listEntries(d *DB, f ledger.Filter) ([]ledger.Entry, int64, error) {
	var out []ledger.Entry
	var total int64
	err := d.do("Ledger.List", func(t *tables) error {
		all := entriesNewest(t, f)
		total = capped(len(all), ledger.ListWindow)
		out = slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

func forEachEntry(d *DB, f ledger.Filter, fn func(ledger.Entry) error) error {
	var rows []ledger.Entry
	if err := d.do("Ledger.ForEach", func(t *tables) error { rows = entriesNewest(t, f); return nil }); err != nil {
		return err
	}
	if f.Oldest {
		slices.Reverse(rows)
	}
	for _, e := range rows {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

func listTopUps(d *DB, f topup.Filter) ([]topup.Request, int64, error) {
	var out []topup.Request
	var total int64
	err := d.do("TopUps.List", func(t *tables) error {
		var all []topup.Request
		for _, q := range newestFirst(sorted(t.topups)) {
			if (f.UserID == nil || q.UserID == *f.UserID) && (f.Status == "" || q.Status == f.Status) &&
				(f.Q == "" || strings.Contains(q.UTRNumber, f.Q)) && within(q.CreatedAt, f.From, f.To) {
				all = append(all, q)
			}
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

func listAudit(d *DB, f audit.Filter) ([]audit.Entry, int64, error) {
	var out []audit.Entry
	var total int64
	err := d.do("Audit.List", func(t *tables) error {
		var all []audit.Entry
		for _, e := range newestFirst(slices.Clone(t.audit)) {
			if (f.ActorID == nil || e.ActorID == *f.ActorID) && (f.Action == "" || e.Action == f.Action) &&
				(f.TargetType == "" || e.TargetType == f.TargetType) &&
				(f.TargetID == nil || (e.TargetID != nil && *e.TargetID == *f.TargetID)) && within(e.CreatedAt, f.From, f.To) {
				all = append(all, e)
			}
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

func listDeliveries(d *DB, f webhook.Filter) ([]webhook.Delivery, int64, error) {
	var out []webhook.Delivery
	var total int64
	err := d.do("Webhooks.List", func(t *tables) error {
		var all []webhook.Delivery
		for _, dl := range newestFirst(sorted(t.deliveries)) {
			if (f.UserID == nil || dl.UserID == *f.UserID) && (f.Status == "" || dl.Status == f.Status) &&
				(f.EventType == "" || dl.EventType == f.EventType) && within(dl.CreatedAt, f.From, f.To) {
				dl.EventPublicID = t.events[dl.EventID].PublicID
				all = append(all, dl)
			}
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
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

// More reads for assertions.

// ResetTokens are the stored password reset tokens, by email.
func (d *DB) ResetTokens() map[string]user.ResetToken {
	return read(d, func(t *tables) map[string]user.ResetToken {
		return maps.Clone(t.resets)
	})
}

// ClaimToken is the token of the claim on delivery id ("" when none).
func (d *DB) ClaimToken(id uint64) string {
	return read(d, func(t *tables) string { return t.claims[id] })
}

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
