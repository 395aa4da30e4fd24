package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
)

// errBackfilled stops a backfill that another instance already made.
var errBackfilled = errors.New("usage roll-up already backfilled")

// BackfillUsage counts into the hourly roll-up, in loc's hours, the final
// hits written before the roll-up existed (migration 00029), once: the
// first call records it in hit_usage_backfill in the same transaction, and
// a concurrent or later call finds the record and does nothing. Run it
// after Migrate and before this instance writes hits; instances of an
// older version must be stopped by then (their hits would be in neither).
// It reports how many hits it counted (0 when already done).
func (s *Store) BackfillUsage(ctx context.Context, loc *time.Location) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var done int64
		if err := tx.Table("hit_usage_backfill").Count(&done).Error; err != nil {
			return sqlbase.Translate(err)
		}
		if done > 0 {
			return errBackfilled
		}
		// The record first: a concurrent backfill waits on its key, then
		// fails on it and rolls back.
		at := sqlbase.DBTime(time.Now())
		if err := tx.Exec("INSERT INTO hit_usage_backfill (id, zone, hits, filled_at) VALUES (1, ?, 0, ?)", loc.String(), at).Error; err != nil {
			if _, dup := sqlbase.DuplicateOf(err); dup {
				return errBackfilled
			}
			return sqlbase.Translate(err)
		}
		t := meteringstore.NewUsageTally(loc)
		q := tx.Model(&meteringstore.HitRow{}).Select("user_id, api_service_id, status, charge_amount, cost_amount, created_at").
			Where("status <> ?", string(hitlog.StatusPending))
		err := sqlbase.ForEachRow(q, meteringstore.ToReportHit, func(r report.Hit) error {
			n++
			return t.Add(r)
		})
		if err != nil {
			return err
		}
		hb := &meteringstore.HitStore{Base: s.baseOn(tx)}
		for _, part := range t.Split(sqlbase.BatchRows) {
			q, args, err := part.Upsert(hb.Conflict)
			if err != nil {
				return err
			}
			if _, err := hb.SQLExec(ctx, q, args...); err != nil {
				return sqlbase.Translate(err)
			}
		}
		return tx.Exec("UPDATE hit_usage_backfill SET hits = ? WHERE id = 1", n).Error
	})
	if errors.Is(err, errBackfilled) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("backfill the usage roll-up: %w", err)
	}
	return n, nil
}
