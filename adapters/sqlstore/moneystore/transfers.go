package moneystore

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/money/transfer"
)

type transferRow struct {
	ID               uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ResellerID       uint64     `gorm:"column:reseller_id"`
	CustomerID       uint64     `gorm:"column:customer_id"`
	Direction        string     `gorm:"column:direction"`
	Amount           string     `gorm:"column:amount"`
	IdempotencyKey   *string    `gorm:"column:idempotency_key"`
	RequestHash      string     `gorm:"column:request_hash"`
	BalanceRequestID *uint64    `gorm:"column:balance_request_id"`
	CreatedAt        *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (transferRow) TableName() string { return "transfers" }

func toDomainTransfer(r *transferRow) (transfer.Transfer, error) {
	var w sqlbase.MoneyWriter
	t := transfer.Transfer{ID: r.ID, ResellerID: r.ResellerID, CustomerID: r.CustomerID, Direction: transfer.Direction(r.Direction),
		Amount: w.Get(sqlbase.ColAmount, r.Amount), IdempotencyKey: r.IdempotencyKey, RequestHash: r.RequestHash,
		BalanceRequestID: r.BalanceRequestID, CreatedAt: sqlbase.TimeFromDB(r.CreatedAt)}
	return t, w.Err
}

// TransferStore keeps the transfers between resellers and their customers.
type TransferStore struct{ sqlbase.Base }

var _ transfer.Repository = (*TransferStore)(nil)

func (s *TransferStore) Insert(ctx context.Context, t *transfer.Transfer) error {
	var w sqlbase.MoneyWriter
	r := transferRow{ResellerID: t.ResellerID, CustomerID: t.CustomerID, Direction: string(t.Direction),
		Amount: w.Put(sqlbase.ColAmount, t.Amount), IdempotencyKey: t.IdempotencyKey, RequestHash: t.RequestHash,
		BalanceRequestID: t.BalanceRequestID, CreatedAt: sqlbase.Stamp(t.CreatedAt)}
	if w.Err != nil {
		return fmt.Errorf("insert transfer: %w", w.Err)
	}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		if msg, dup := sqlbase.DuplicateOf(err); dup && sqlbase.Mentions(msg, "transfers_idempotency", "transfers.reseller_id") {
			return transfer.ErrKeyTaken.Wrap(err)
		}
		return fmt.Errorf("insert transfer: %w", sqlbase.Translate(err))
	}
	t.ID = r.ID
	return nil
}

func (s *TransferStore) ByKey(ctx context.Context, resellerID uint64, key string) (*transfer.Transfer, error) {
	var r transferRow
	if err := s.Conn(ctx).Where("reseller_id = ? AND idempotency_key = ?", resellerID, key).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, transfer.ErrNotFound)
	}
	t, err := toDomainTransfer(&r)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func (s *TransferStore) List(ctx context.Context, f transfer.Filter) ([]transfer.Transfer, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		q = q.Where("reseller_id = ?", f.ResellerID)
		if f.CustomerID != nil {
			q = q.Where("customer_id = ?", *f.CustomerID)
		}
		return q
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "transfers", func(r *transferRow) (transfer.Transfer, error) {
		return toDomainTransfer(r)
	})
}

// Funded reads the pair's transfers (by the index transfers_customer) and
// sums them with transfer.Funded, in decimals rather than in SQL (SQLite's
// SUM of a TEXT amount is a float).
func (s *TransferStore) Funded(ctx context.Context, resellerID, customerID uint64) (decimal.Decimal, error) {
	var rows []transferRow
	if err := s.Conn(ctx).Select("id", "direction", "amount", "balance_request_id").
		Where("reseller_id = ? AND customer_id = ?", resellerID, customerID).Find(&rows).Error; err != nil {
		return decimal.Zero, fmt.Errorf("read transfers of customer %d: %w", customerID, sqlbase.Translate(err))
	}
	ts := make([]transfer.Transfer, len(rows))
	for i := range rows {
		t, err := toDomainTransfer(&rows[i])
		if err != nil {
			return decimal.Zero, err
		}
		ts[i] = t
	}
	return transfer.Funded(ts), nil
}

func (s *TransferStore) ForEach(ctx context.Context, fn func(transfer.Transfer) error) error {
	if err := sqlbase.ForEachRow(s.Conn(ctx).Model(&transferRow{}).Order("id"), toDomainTransfer, fn); err != nil {
		return fmt.Errorf("read transfers: %w", err)
	}
	return nil
}
