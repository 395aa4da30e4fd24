package sqlstore

import (
	"context"
	"fmt"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/platform/export"
)

type exportLeaseRow struct {
	UserID    uint64    `gorm:"column:user_id;primaryKey;autoIncrement:false"`
	Slot      int       `gorm:"column:slot;primaryKey;autoIncrement:false"`
	Holder    string    `gorm:"column:holder"`
	ExpiresAt time.Time `gorm:"column:expires_at"`
}

func (exportLeaseRow) TableName() string { return "export_leases" }

// exportStore keeps the leases of running exports (export_leases).
type exportStore struct{ sqlbase.Base }

var _ export.Repository = (*exportStore)(nil)

// Claim takes over a lapsed lease of the slot with a conditional update,
// else inserts the slot's row; the primary key refuses a second insert, so
// of two claims of one free slot exactly one succeeds.
func (s *exportStore) Claim(ctx context.Context, l export.Lease, now, until time.Time) (bool, error) {
	res := s.Conn(ctx).Model(&exportLeaseRow{}).
		Where("user_id = ? AND slot = ? AND expires_at < ?", l.UserID, l.Slot, sqlbase.DBTime(now)).
		Updates(map[string]any{"holder": l.Holder, "expires_at": sqlbase.DBTime(until)})
	if res.Error != nil {
		return false, fmt.Errorf("take over export slot %d of user %d: %w", l.Slot, l.UserID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	err := s.Conn(ctx).Create(&exportLeaseRow{UserID: l.UserID, Slot: l.Slot, Holder: l.Holder, ExpiresAt: sqlbase.DBTime(until)}).Error
	if err != nil {
		if _, dup := sqlbase.DuplicateOf(err); dup {
			return false, nil
		}
		return false, fmt.Errorf("claim export slot %d of user %d: %w", l.Slot, l.UserID, sqlbase.Translate(err))
	}
	return true, nil
}

func (s *exportStore) Renew(ctx context.Context, l export.Lease, until time.Time) (bool, error) {
	res := s.Conn(ctx).Model(&exportLeaseRow{}).
		Where("user_id = ? AND slot = ? AND holder = ?", l.UserID, l.Slot, l.Holder).
		Update("expires_at", sqlbase.DBTime(until))
	if res.Error != nil {
		return false, fmt.Errorf("renew export slot %d of user %d: %w", l.Slot, l.UserID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *exportStore) Release(ctx context.Context, l export.Lease) error {
	err := s.Conn(ctx).Where("user_id = ? AND slot = ? AND holder = ?", l.UserID, l.Slot, l.Holder).
		Delete(&exportLeaseRow{}).Error
	if err != nil {
		return fmt.Errorf("release export slot %d of user %d: %w", l.Slot, l.UserID, sqlbase.Translate(err))
	}
	return nil
}
