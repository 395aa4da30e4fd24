package accountstore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/signin"
)

// loginAttemptRow is one sign-in counter (migration 00020). The key is a
// SHA-256: no email or address is stored.
type loginAttemptRow struct {
	KeyHash      string     `gorm:"column:key_hash;primaryKey"`
	Failures     int        `gorm:"column:failures"`
	BlockedUntil *time.Time `gorm:"column:blocked_until"`
	UpdatedAt    time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (loginAttemptRow) TableName() string { return "login_attempts" }

func toLoginAttemptRow(c signin.Counter) loginAttemptRow {
	return loginAttemptRow{KeyHash: c.Key, Failures: c.Failures, BlockedUntil: sqlbase.NonZeroTime(c.BlockedUntil), UpdatedAt: sqlbase.DBTime(c.UpdatedAt)}
}

// LoginStore is the database's signin.Repository.
type LoginStore struct{ sqlbase.Base }

var _ signin.Repository = (*LoginStore)(nil)

// Ensure inserts the missing counters; an existing one is left alone. It
// reads first, without locks, so the usual case (the counters exist) takes
// no lock at all, and inserts in key order, the order Lock takes its locks
// in: an insert meeting a locked duplicate then waits instead of deadlocking.
func (s *LoginStore) Ensure(ctx context.Context, keys []string, now time.Time) error {
	var have []string
	if err := s.Conn(ctx).Model(&loginAttemptRow{}).Where("key_hash IN ?", keys).Pluck("key_hash", &have).Error; err != nil {
		return fmt.Errorf("read login counters: %w", sqlbase.Translate(err))
	}
	missing := slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return slices.Contains(have, k) })
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	rows := make([]loginAttemptRow, 0, len(missing))
	for _, k := range missing {
		rows = append(rows, loginAttemptRow{KeyHash: k, UpdatedAt: sqlbase.DBTime(now)})
	}
	if err := s.Conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&rows).Error; err != nil {
		return fmt.Errorf("create login counters: %w", sqlbase.Translate(err))
	}
	return nil
}

// Lock reads the counters with FOR UPDATE on MySQL, in primary key order
// (so two attempts never wait on each other crosswise); SQLite's
// transactions are IMMEDIATE and run one at a time.
func (s *LoginStore) Lock(ctx context.Context, keys []string) ([]signin.Counter, error) {
	var rows []loginAttemptRow
	if err := s.Locking(s.Conn(ctx)).Where("key_hash IN ?", keys).Order("key_hash").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("lock login counters: %w", sqlbase.Translate(err))
	}
	byKey := make(map[string]loginAttemptRow, len(rows))
	for _, r := range rows {
		byKey[r.KeyHash] = r
	}
	out := make([]signin.Counter, len(keys))
	for i, k := range keys {
		r := byKey[k]
		out[i] = signin.Counter{Key: k, Failures: r.Failures, BlockedUntil: sqlbase.TimeFromDB(r.BlockedUntil)}
		if r.KeyHash != "" {
			out[i].UpdatedAt = r.UpdatedAt.UTC()
		}
	}
	return out, nil
}

func (s *LoginStore) Save(ctx context.Context, cs []signin.Counter) error {
	rows := make([]loginAttemptRow, 0, len(cs))
	for _, c := range cs {
		rows = append(rows, toLoginAttemptRow(c))
	}
	err := s.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "key_hash"}},
		DoUpdates: clause.AssignmentColumns([]string{"failures", "blocked_until", "updated_at"}),
	}).Create(&rows).Error
	if err != nil {
		return fmt.Errorf("save login counters: %w", sqlbase.Translate(err))
	}
	return nil
}

// Purge picks the idle counters first, then deletes those still idle:
// neither MySQL nor SQLite deletes with LIMIT in the same way.
func (s *LoginStore) Purge(ctx context.Context, before, now time.Time, limit int) (int, error) {
	idle := "updated_at < ? AND (blocked_until IS NULL OR blocked_until <= ?)"
	var keys []string
	err := s.Conn(ctx).Model(&loginAttemptRow{}).Where(idle, sqlbase.DBTime(before), sqlbase.DBTime(now)).Limit(limit).Pluck("key_hash", &keys).Error
	if err != nil {
		return 0, fmt.Errorf("find idle login counters: %w", sqlbase.Translate(err))
	}
	if len(keys) == 0 {
		return 0, nil
	}
	res := s.Conn(ctx).Where("key_hash IN ?", keys).Where(idle, sqlbase.DBTime(before), sqlbase.DBTime(now)).Delete(&loginAttemptRow{})
	if res.Error != nil {
		return 0, fmt.Errorf("purge login counters: %w", sqlbase.Translate(res.Error))
	}
	return int(res.RowsAffected), nil
}
