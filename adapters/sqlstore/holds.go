package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/metering/hold"
)

var (
	colUnit = column{"unit_amount", 12, 2}
	colUsed = column{"used_amount", 12, 2}
)

type holdRow struct {
	ID         uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID     uint64     `gorm:"column:user_id"`
	APIKeyID   uint64     `gorm:"column:api_key_id"`
	Day        string     `gorm:"column:day"`
	UnitAmount string     `gorm:"column:unit_amount"`
	Calls      int        `gorm:"column:calls"`
	UsedCalls  int        `gorm:"column:used_calls"`
	UsedAmount string     `gorm:"column:used_amount"`
	ExpiresAt  time.Time  `gorm:"column:expires_at"`
	CreatedAt  *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (holdRow) TableName() string { return "call_holds" }

func toDomainHold(r *holdRow) (hold.Hold, error) {
	var w moneyWriter
	h := hold.Hold{
		ID: r.ID, UserID: r.UserID, KeyID: r.APIKeyID, Day: r.Day,
		Unit: w.get(colUnit, r.UnitAmount), Calls: r.Calls,
		UsedCalls: r.UsedCalls, UsedMoney: w.get(colUsed, r.UsedAmount),
		ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: timeFromDB(r.CreatedAt),
	}
	if w.err != nil {
		return hold.Hold{}, fmt.Errorf("hold %d: %w", r.ID, w.err)
	}
	return h, nil
}

type holdStore struct{ base }

var _ hold.Repository = (*holdStore)(nil)

func (s *holdStore) Insert(ctx context.Context, h *hold.Hold) error {
	var w moneyWriter
	r := holdRow{
		UserID: h.UserID, APIKeyID: h.KeyID, Day: h.Day, UnitAmount: w.put(colUnit, h.Unit), Calls: h.Calls,
		UsedCalls: h.UsedCalls, UsedAmount: w.put(colUsed, h.UsedMoney), ExpiresAt: dbTime(h.ExpiresAt), CreatedAt: stamp(h.CreatedAt),
	}
	if w.err != nil {
		return fmt.Errorf("insert hold: %w", w.err)
	}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert hold: %w", translate(err))
	}
	h.ID, h.CreatedAt = r.ID, timeFromDB(r.CreatedAt)
	return nil
}

func (s *holdStore) Get(ctx context.Context, id uint64) (hold.Hold, bool, error) {
	var rows []holdRow
	if err := s.conn(ctx).Where("id = ?", id).Limit(1).Find(&rows).Error; err != nil {
		return hold.Hold{}, false, fmt.Errorf("read hold %d: %w", id, translate(err))
	}
	if len(rows) == 0 {
		return hold.Hold{}, false, nil
	}
	h, err := toDomainHold(&rows[0])
	return h, err == nil, err
}

// useHold adds a batch's charges to a hold (MySQL: exact DECIMAL sum).
const useHold = "UPDATE call_holds SET used_calls = used_calls + ?, used_amount = used_amount + CAST(? AS DECIMAL(12, 2)) WHERE id = ?"

// Use adds calls and money to hold id's use; a hold already released is
// left as it is (no row).
func (s *holdStore) Use(ctx context.Context, id uint64, calls int, money decimal.Decimal) error {
	if !s.mysql {
		// SQLite stores money as text: read, add exactly, write (the
		// transaction holds the database's write lock).
		h, found, err := s.Get(ctx, id)
		if err != nil || !found {
			return err
		}
		var w moneyWriter
		used := w.put(colUsed, h.UsedMoney.Add(money))
		if w.err != nil {
			return fmt.Errorf("use hold %d: %w", id, w.err)
		}
		err = s.conn(ctx).Model(&holdRow{}).Where("id = ?", id).
			Updates(map[string]any{"used_calls": h.UsedCalls + calls, "used_amount": used}).Error
		if err != nil {
			return fmt.Errorf("use hold %d: %w", id, translate(err))
		}
		return nil
	}
	var w moneyWriter
	m := w.put(colUsed, money)
	if w.err != nil {
		return fmt.Errorf("use hold %d: %w", id, w.err)
	}
	if _, err := s.sqlExec(ctx, useHold, calls, m, id); err != nil {
		return fmt.Errorf("use hold %d: %w", id, translate(err))
	}
	return nil
}

// Delete releases hold id; false when it was already released.
func (s *holdStore) Delete(ctx context.Context, id uint64) (bool, error) {
	res := s.conn(ctx).Where("id = ?", id).Delete(&holdRow{})
	if res.Error != nil {
		return false, fmt.Errorf("delete hold %d: %w", id, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *holdStore) Expired(ctx context.Context, cutoff time.Time, limit int) ([]hold.Hold, error) {
	var rows []holdRow
	err := s.conn(ctx).Where("expires_at < ?", dbTime(cutoff)).Order("expires_at, id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list expired holds: %w", translate(err))
	}
	return toDomainHolds(rows)
}

func (s *holdStore) ByUser(ctx context.Context, userID uint64) ([]hold.Hold, error) {
	var rows []holdRow
	if err := s.conn(ctx).Where("user_id = ?", userID).Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list holds of user %d: %w", userID, translate(err))
	}
	return toDomainHolds(rows)
}

func toDomainHolds(rows []holdRow) ([]hold.Hold, error) {
	out := make([]hold.Hold, len(rows))
	for i := range rows {
		h, err := toDomainHold(&rows[i])
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}
