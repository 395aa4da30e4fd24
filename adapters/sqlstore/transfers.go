package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

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
	var w moneyWriter
	t := transfer.Transfer{ID: r.ID, ResellerID: r.ResellerID, CustomerID: r.CustomerID, Direction: transfer.Direction(r.Direction),
		Amount: w.get(colAmount, r.Amount), IdempotencyKey: r.IdempotencyKey, RequestHash: r.RequestHash,
		BalanceRequestID: r.BalanceRequestID, CreatedAt: timeFromDB(r.CreatedAt)}
	return t, w.err
}

// transferStore keeps the transfers between resellers and their customers.
type transferStore struct{ base }

var _ transfer.Repository = (*transferStore)(nil)

func (s *transferStore) Insert(ctx context.Context, t *transfer.Transfer) error {
	var w moneyWriter
	r := transferRow{ResellerID: t.ResellerID, CustomerID: t.CustomerID, Direction: string(t.Direction),
		Amount: w.put(colAmount, t.Amount), IdempotencyKey: t.IdempotencyKey, RequestHash: t.RequestHash,
		BalanceRequestID: t.BalanceRequestID, CreatedAt: stamp(t.CreatedAt)}
	if w.err != nil {
		return fmt.Errorf("insert transfer: %w", w.err)
	}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		if msg, dup := duplicateOf(err); dup && mentions(msg, "transfers_idempotency", "transfers.reseller_id") {
			return transfer.ErrKeyTaken.Wrap(err)
		}
		return fmt.Errorf("insert transfer: %w", translate(err))
	}
	t.ID = r.ID
	return nil
}

func (s *transferStore) ByKey(ctx context.Context, resellerID uint64, key string) (*transfer.Transfer, error) {
	var r transferRow
	if err := s.conn(ctx).Where("reseller_id = ? AND idempotency_key = ?", resellerID, key).Take(&r).Error; err != nil {
		return nil, errNotFoundOr(err, transfer.ErrNotFound)
	}
	t, err := toDomainTransfer(&r)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func (s *transferStore) List(ctx context.Context, f transfer.Filter) ([]transfer.Transfer, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		q = q.Where("reseller_id = ?", f.ResellerID)
		if f.CustomerID != nil {
			q = q.Where("customer_id = ?", *f.CustomerID)
		}
		return q
	}
	return pageNewest(s.conn(ctx), filter, f.Page, f.PerPage, "transfers", func(r *transferRow) (transfer.Transfer, error) {
		return toDomainTransfer(r)
	})
}

// Funded reads the pair's transfers (by the index transfers_customer) and
// sums them with transfer.Funded, in decimals rather than in SQL (SQLite's
// SUM of a TEXT amount is a float).
func (s *transferStore) Funded(ctx context.Context, resellerID, customerID uint64) (decimal.Decimal, error) {
	var rows []transferRow
	if err := s.conn(ctx).Select("id", "direction", "amount", "balance_request_id").
		Where("reseller_id = ? AND customer_id = ?", resellerID, customerID).Find(&rows).Error; err != nil {
		return decimal.Zero, fmt.Errorf("read transfers of customer %d: %w", customerID, translate(err))
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

func (s *transferStore) ForEach(ctx context.Context, fn func(transfer.Transfer) error) error {
	if err := forEachRow(s.conn(ctx).Model(&transferRow{}).Order("id"), toDomainTransfer, fn); err != nil {
		return fmt.Errorf("read transfers: %w", err)
	}
	return nil
}
