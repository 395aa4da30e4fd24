package accountstore

import (
	"context"
	"fmt"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/apikey"
)

// CountHitsFast counts n calls of a key when they all fit under its daily
// limit (one row affected), else changes nothing. hits_today is assigned
// before hits_date: MySQL's SET sees the values assigned before it
// (SQLite's sees the old row throughout).
const CountHitsFast = "UPDATE api_keys SET hits_today = (CASE WHEN hits_date = ? THEN hits_today ELSE 0 END) + ?, " +
	"hits_date = ?, last_used_at = ? WHERE id = ? AND (CASE WHEN hits_date = ? THEN hits_today ELSE 0 END) + ? <= daily_limit"

func CountHitsFastArgs(id uint64, day string, n int, at time.Time) []any {
	return []any{day, n, day, sqlbase.DBTime(at), id, day, n}
}

// CountHits counts up to n calls of one key under its row lock (FOR UPDATE
// on MySQL; SQLite's IMMEDIATE transaction holds the write lock).
//
// Usually the whole batch fits under the limit: then one conditional UPDATE
// (which takes the row lock and decides on the latest committed counter)
// counts all n calls, a round trip fewer than reading first. Only when it
// would pass the limit (or the key is gone) does the read decide how many
// still fit.
func (s *KeyStore) CountHits(ctx context.Context, id uint64, day string, n int, at time.Time) (int, error) {
	if n > 0 {
		res, err := s.SQLExec(ctx, CountHitsFast, CountHitsFastArgs(id, day, n, at)...)
		if err != nil {
			return 0, fmt.Errorf("count hits of api key %d: %w", id, sqlbase.Translate(err))
		}
		if moved, err := res.RowsAffected(); err != nil {
			return 0, fmt.Errorf("count hits of api key %d: %w", id, sqlbase.Translate(err))
		} else if moved == 1 {
			return n, nil
		}
	}
	var r struct {
		HitsToday  int     `gorm:"column:hits_today"`
		HitsDate   *string `gorm:"column:hits_date"`
		DailyLimit int     `gorm:"column:daily_limit"`
	}
	q := s.Conn(ctx).Model(&keyRow{}).Select("hits_today", "hits_date", "daily_limit").Where("id = ?", id)
	if err := s.Locking(q).Take(&r).Error; err != nil {
		return 0, fmt.Errorf("count hits of api key %d: %w", id, sqlbase.ErrNotFoundOr(err, apikey.ErrNotFound))
	}
	cur := 0
	if r.HitsDate != nil && *r.HitsDate == day {
		cur = r.HitsToday
	}
	granted := min(n, r.DailyLimit-cur)
	if granted <= 0 {
		return 0, nil
	}
	err := s.Conn(ctx).Model(&keyRow{}).Where("id = ?", id).Updates(map[string]any{
		"hits_today": cur + granted, "hits_date": day, "last_used_at": sqlbase.DBTime(at),
	}).Error
	if err != nil {
		return 0, fmt.Errorf("count hits of api key %d: %w", id, sqlbase.Translate(err))
	}
	return granted, nil
}

// uncountHits gives back calls of a key's day.
const uncountHits = "UPDATE api_keys SET hits_today = CASE WHEN hits_today > ? THEN hits_today - ? ELSE 0 END WHERE id = ? AND hits_date = ?"

// UncountHits gives back n calls of day.
func (s *KeyStore) UncountHits(ctx context.Context, id uint64, day string, n int) error {
	if n <= 0 {
		return nil
	}
	if _, err := s.SQLExec(ctx, uncountHits, n, n, id, day); err != nil {
		return fmt.Errorf("uncount hits of api key %d: %w", id, sqlbase.Translate(err))
	}
	return nil
}
