package meteringstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
)

// The hourly usage roll-up (migration 00029; decisions: "The dashboard
// reads usage roll-ups only").
// Every write that makes a hit final adds the hit to its (user, service,
// local hour) row in the same transaction: an INSERT of a final hit, or a
// settlement that moved a pending one (settlements move only pending hits,
// so a hit is added once). In a metering batch on MySQL the additions go as
// one more deferred statement just before the COMMIT (batchConn.usage), so
// the hot path gains no round trip; elsewhere one upsert follows the hit
// statement. Pending hits are not in the roll-up: they are few, and read
// live (PendingHits).

// usageKey is one roll-up row.
type usageKey struct {
	user, service uint64
	hour          time.Time // UTC instant the local hour starts
}

// UsageTally sums final hits per roll-up row.
type UsageTally struct {
	loc  *time.Location
	rows map[usageKey]*report.Usage
}

func NewUsageTally(loc *time.Location) *UsageTally {
	return &UsageTally{loc: loc, rows: map[usageKey]*report.Usage{}}
}

// Add counts h when it is final. Its creation time must be set (the writes
// that add hits have it as stored).
func (t *UsageTally) Add(h report.Hit) error {
	if h.Status == hitlog.StatusPending {
		return nil
	}
	if h.CreatedAt.IsZero() {
		return fmt.Errorf("usage roll-up: a hit of user %d has no creation time", h.UserID)
	}
	k := usageKey{h.UserID, h.ServiceID, sqlbase.DBTime(report.HourOf(h.CreatedAt, t.loc))}
	u := t.rows[k]
	if u == nil {
		u = &report.Usage{}
		t.rows[k] = u
	}
	u.AddHit(h)
	return nil
}

// AddAll counts the final hits among hits; a hit without a status is
// stored as a success (toHitRow) and counted so.
func (t *UsageTally) AddAll(hits []*hitlog.Hit) error {
	for _, h := range hits {
		r := report.HitOf(h)
		if r.Status == "" {
			r.Status = hitlog.StatusSuccess
		}
		if err := t.Add(r); err != nil {
			return err
		}
	}
	return nil
}

// Upsert is the statement adding the tally to the roll-up, "" when it is
// empty. Rows go in primary-key order, so two writers lock the rows they
// share in the same order.
func (t *UsageTally) Upsert(cs sqlbase.ConflictSyntax) (string, []any, error) {
	if len(t.rows) == 0 {
		return "", nil, nil
	}
	keys := make([]usageKey, 0, len(t.rows))
	for k := range t.rows {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b usageKey) int {
		if c := a.hour.Compare(b.hour); c != 0 {
			return c
		}
		if c := cmp.Compare(a.user, b.user); c != 0 {
			return c
		}
		return cmp.Compare(a.service, b.service)
	})
	var q strings.Builder
	args := make([]any, 0, 9*len(keys))
	q.WriteString("INSERT INTO hit_usage_hours (user_id, api_service_id, hour, calls, success_calls, failed_calls, " +
		"insufficient_calls, revenue_units, cost_units) VALUES ")
	for i, k := range keys {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString("(?,?,?,?,?,?,?,?,?)")
		c, err := toUsageCounts(*t.rows[k])
		if err != nil {
			return "", nil, fmt.Errorf("usage roll-up of user %d, service %d: %w", k.user, k.service, err)
		}
		args = append(args, k.user, k.service, k.hour, c.Calls, c.SuccessCalls, c.FailedCalls, c.InsufficientCalls, c.RevenueUnits, c.CostUnits)
	}
	cols := []string{"calls", "success_calls", "failed_calls", "insufficient_calls", "revenue_units", "cost_units"}
	if cs == sqlbase.ConflictExcluded {
		q.WriteString(" ON CONFLICT (hour, user_id, api_service_id) DO UPDATE SET ")
	} else {
		q.WriteString(cs.RowAlias() + " ON DUPLICATE KEY UPDATE ")
	}
	for i, c := range cols {
		if i > 0 {
			q.WriteString(", ")
		}
		fmt.Fprintf(&q, "%s = %s + %s", c, c, cs.Inserted(c))
	}
	return q.String(), args, nil
}

// countFinal adds the final hits among hits to the roll-up, in the
// transaction s runs in: into a metering batch's tally (sent before its
// COMMIT), or with one upsert now.
func (s *HitStore) countFinal(ctx context.Context, hits []*hitlog.Hit) error {
	if bc, ok := s.DB.Statement.ConnPool.(batchUsage); ok {
		return bc.UsageTally().AddAll(hits)
	}
	t := NewUsageTally(s.Zone.Load())
	if err := t.AddAll(hits); err != nil {
		return err
	}
	q, args, err := t.Upsert(s.Conflict)
	if q == "" || err != nil {
		return err
	}
	if _, err := s.SQLExec(ctx, q, args...); err != nil {
		return fmt.Errorf("add %d hits to the usage roll-up: %w", len(hits), sqlbase.Translate(err))
	}
	return nil
}

// batchUsage is a metering batch's connection (batchConn): the final hits
// its transaction writes go to its tally, sent before its COMMIT.
type batchUsage interface{ UsageTally() *UsageTally }

// inTx reports whether b runs in a transaction.
func inTx(b sqlbase.Base) bool {
	switch b.DB.Statement.ConnPool.(type) {
	case gorm.TxCommitter, batchUsage:
		return true
	}
	return false
}

// withinTx runs fn in b's transaction, or in a new one when b has none
// (a hit and its roll-up row change together).
func (s *HitStore) withinTx(ctx context.Context, fn func(s *HitStore) error) error {
	if inTx(s.Base) {
		return fn(s)
	}
	return s.Conn(ctx).Transaction(func(tx *gorm.DB) error {
		b := s.Base
		b.DB = tx
		return fn(&HitStore{b})
	})
}

type usageHourRow struct {
	UserID    uint64      `gorm:"column:user_id"`
	ServiceID uint64      `gorm:"column:api_service_id"`
	Hour      *time.Time  `gorm:"column:hour"`
	Counts    usageCounts `gorm:"embedded"`
}

// Hours sums in SQL (usageSumColumns).
func (s *ReportStore) Hours(ctx context.Context, from, to time.Time, userID *uint64, perUser bool) ([]report.HourRow, error) {
	q := s.Conn(ctx).Table("hit_usage_hours")
	if !from.IsZero() {
		q = q.Where("hour >= ?", sqlbase.DBTime(from))
	}
	if !to.IsZero() {
		q = q.Where("hour < ?", sqlbase.DBTime(to))
	}
	if userID != nil {
		q = q.Where("user_id = ?", *userID)
	}
	if perUser {
		q = q.Select("user_id, api_service_id, hour, " + usageSumColumns).Group("user_id, api_service_id, hour").Order("hour, user_id, api_service_id")
	} else {
		q = q.Select("api_service_id, hour, " + usageSumColumns).Group("hour, api_service_id").Order("hour, api_service_id")
	}
	var rows []usageHourRow
	if err := q.Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("read hourly usage: %w", sqlbase.Translate(err))
	}
	out := make([]report.HourRow, len(rows))
	for i := range rows {
		out[i] = toHourRow(&rows[i])
		if !perUser && userID != nil {
			out[i].UserID = *userID
		}
	}
	return out, nil
}

// HourSums reads the primary key's range of the hours, summing in SQL.
func (s *ReportStore) HourSums(ctx context.Context, from, to time.Time) ([]report.HourRow, error) {
	var rows []usageHourRow
	err := s.Conn(ctx).Table("hit_usage_hours").
		Select("user_id, api_service_id, "+usageSumColumns).
		Where("hour >= ? AND hour < ?", sqlbase.DBTime(from), sqlbase.DBTime(to)).Group("user_id, api_service_id").Order("user_id, api_service_id").
		Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("sum hourly usage: %w", sqlbase.Translate(err))
	}
	out := make([]report.HourRow, len(rows))
	for i := range rows {
		rows[i].Hour = &from
		out[i] = toHourRow(&rows[i])
	}
	return out, nil
}

func toHourRow(r *usageHourRow) report.HourRow {
	return report.HourRow{Hour: sqlbase.TimeFromDB(r.Hour), UserID: r.UserID, ServiceID: r.ServiceID, Usage: r.Counts.usage()}
}

// PendingHits reads the (status, created_at) index: pending hits are the
// calls in flight, few at any time.
func (s *ReportStore) PendingHits(ctx context.Context, userID *uint64, from, to time.Time) ([]report.Hit, error) {
	q := s.Conn(ctx).Model(&HitRow{}).Select("user_id, api_service_id, status, charge_amount, cost_amount, created_at").
		Where("status = ? AND created_at >= ? AND created_at < ?", string(hitlog.StatusPending), sqlbase.DBTime(from), sqlbase.DBTime(to))
	var rows []reportHitRow
	if err := q.Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("read pending hits: %w", sqlbase.Translate(err))
	}
	if userID != nil {
		// Kept here, not in the WHERE: with user_id there SQLite reads the
		// user's listing index, every hit of theirs in the window.
		rows = slices.DeleteFunc(rows, func(r reportHitRow) bool { return r.UserID != *userID })
	}
	return sqlbase.ConvertRows(rows, ToReportHit)
}

// Split cuts the tally into tallies of at most n rows.
func (t *UsageTally) Split(n int) []*UsageTally {
	var out []*UsageTally
	cur := NewUsageTally(t.loc)
	for k, v := range t.rows {
		if len(cur.rows) == n {
			out = append(out, cur)
			cur = NewUsageTally(t.loc)
		}
		cur.rows[k] = v
	}
	if len(cur.rows) > 0 {
		out = append(out, cur)
	}
	return out
}
