package gatewaystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/platform/utr"
)

type utrClaimRow struct {
	UTR       string     `gorm:"column:utr;primaryKey"`
	Owner     string     `gorm:"column:owner"`
	OwnerID   uint64     `gorm:"column:owner_id"`
	CreatedAt *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (utrClaimRow) TableName() string { return "utr_claims" }

// UTRClaimStore: the primary key on utr is the claim; of two transactions
// inserting one UTR, the second waits for the first and then fails.
type UTRClaimStore struct{ sqlbase.Base }

var _ utr.Claims = (*UTRClaimStore)(nil)

func (s *UTRClaimStore) Claim(ctx context.Context, u, owner string, ownerID uint64) error {
	err := s.Conn(ctx).Create(&utrClaimRow{UTR: u, Owner: owner, OwnerID: ownerID, CreatedAt: sqlbase.Stamp(time.Time{})}).Error
	if err == nil {
		return nil
	}
	if _, dup := sqlbase.DuplicateOf(err); !dup {
		return fmt.Errorf("claim UTR for %s %d: %w", owner, ownerID, sqlbase.Translate(err))
	}
	// A locking read sees the committed claim, whatever this transaction's
	// snapshot: the owner's own claim again is no conflict.
	var row utrClaimRow
	if rerr := s.Locking(s.Conn(ctx)).Where("utr = ?", u).Take(&row).Error; rerr != nil {
		if errors.Is(rerr, gorm.ErrRecordNotFound) {
			return utr.ErrTaken.Wrap(err)
		}
		return fmt.Errorf("read claim of UTR: %w", sqlbase.Translate(rerr))
	}
	if row.Owner == owner && row.OwnerID == ownerID {
		return nil
	}
	return utr.ErrTaken.Wrap(err)
}

func (s *UTRClaimStore) Release(ctx context.Context, u, owner string, ownerID uint64) error {
	err := s.Conn(ctx).Where("utr = ? AND owner = ? AND owner_id = ?", u, owner, ownerID).Delete(&utrClaimRow{}).Error
	if err != nil {
		return fmt.Errorf("release UTR of %s %d: %w", owner, ownerID, sqlbase.Translate(err))
	}
	return nil
}
