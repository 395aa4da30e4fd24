package meteringstore

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hold"
)

var (
	colUnit = sqlbase.Column{Name: "unit_amount", Total: 12, Places: 2}
	colUsed = sqlbase.Column{Name: "used_amount", Total: 12, Places: 2}
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
	var w sqlbase.MoneyWriter
	h := hold.Hold{
		ID: r.ID, UserID: r.UserID, KeyID: r.APIKeyID, Day: r.Day,
		Unit: w.Get(colUnit, r.UnitAmount), Calls: r.Calls,
		UsedCalls: r.UsedCalls, UsedMoney: w.Get(colUsed, r.UsedAmount),
		ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: sqlbase.TimeFromDB(r.CreatedAt),
	}
	if w.Err != nil {
		return hold.Hold{}, fmt.Errorf("hold %d: %w", r.ID, w.Err)
	}
	return h, nil
}

// HoldStore is the database's hold.Repository.
type HoldStore struct{ sqlbase.Base }

var _ hold.Repository = (*HoldStore)(nil)

func (s *HoldStore) Insert(ctx context.Context, h *hold.Hold) error {
	var w sqlbase.MoneyWriter
	r := holdRow{
		UserID: h.UserID, APIKeyID: h.KeyID, Day: h.Day, UnitAmount: w.Put(colUnit, h.Unit), Calls: h.Calls,
		UsedCalls: h.UsedCalls, UsedAmount: w.Put(colUsed, h.UsedMoney), ExpiresAt: sqlbase.DBTime(h.ExpiresAt), CreatedAt: sqlbase.Stamp(h.CreatedAt),
	}
	if w.Err != nil {
		return fmt.Errorf("insert hold: %w", w.Err)
	}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert hold: %w", sqlbase.Translate(err))
	}
	h.ID, h.CreatedAt = r.ID, sqlbase.TimeFromDB(r.CreatedAt)
	return nil
}

func (s *HoldStore) Get(ctx context.Context, id uint64) (hold.Hold, bool, error) {
	var rows []holdRow
	if err := s.Conn(ctx).Where("id = ?", id).Limit(1).Find(&rows).Error; err != nil {
		return hold.Hold{}, false, fmt.Errorf("read hold %d: %w", id, sqlbase.Translate(err))
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
func (s *HoldStore) Use(ctx context.Context, id uint64, calls int, money decimal.Decimal) error {
	if !s.MySQL {
		// SQLite stores money as text: read, add exactly, write (the
		// transaction holds the database's write lock).
		h, found, err := s.Get(ctx, id)
		if err != nil || !found {
			return err
		}
		var w sqlbase.MoneyWriter
		used := w.Put(colUsed, h.UsedMoney.Add(money))
		if w.Err != nil {
			return fmt.Errorf("use hold %d: %w", id, w.Err)
		}
		err = s.Conn(ctx).Model(&holdRow{}).Where("id = ?", id).
			Updates(map[string]any{"used_calls": h.UsedCalls + calls, "used_amount": used}).Error
		if err != nil {
			return fmt.Errorf("use hold %d: %w", id, sqlbase.Translate(err))
		}
		return nil
	}
	var w sqlbase.MoneyWriter
	m := w.Put(colUsed, money)
	if w.Err != nil {
		return fmt.Errorf("use hold %d: %w", id, w.Err)
	}
	if _, err := s.SQLExec(ctx, useHold, calls, m, id); err != nil {
		return fmt.Errorf("use hold %d: %w", id, sqlbase.Translate(err))
	}
	return nil
}

// Delete releases hold id; false when it was already released.
func (s *HoldStore) Delete(ctx context.Context, id uint64) (bool, error) {
	res := s.Conn(ctx).Where("id = ?", id).Delete(&holdRow{})
	if res.Error != nil {
		return false, fmt.Errorf("delete hold %d: %w", id, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *HoldStore) Expired(ctx context.Context, cutoff time.Time, limit int) ([]hold.Hold, error) {
	var rows []holdRow
	err := s.Conn(ctx).Where("expires_at < ?", sqlbase.DBTime(cutoff)).Order("expires_at, id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list expired holds: %w", sqlbase.Translate(err))
	}
	return toDomainHolds(rows)
}

func (s *HoldStore) ByUser(ctx context.Context, userID uint64) ([]hold.Hold, error) {
	var rows []holdRow
	if err := s.Conn(ctx).Where("user_id = ?", userID).Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list holds of user %d: %w", userID, sqlbase.Translate(err))
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
