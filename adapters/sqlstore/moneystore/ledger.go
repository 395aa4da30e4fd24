package moneystore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/money/ledger"
)

type entryRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID        uint64     `gorm:"column:user_id"`
	TxnID         string     `gorm:"column:txn_id"`
	Type          string     `gorm:"column:type"`
	Amount        string     `gorm:"column:amount"`
	BalanceBefore string     `gorm:"column:balance_before"`
	BalanceAfter  string     `gorm:"column:balance_after"`
	ReferenceType string     `gorm:"column:reference_type"`
	ReferenceID   *uint64    `gorm:"column:reference_id"`
	Description   string     `gorm:"column:description"`
	Status        string     `gorm:"column:status"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt     *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (entryRow) TableName() string { return "transactions" }

func toEntryRow(e *ledger.Entry) (entryRow, error) {
	var w sqlbase.MoneyWriter
	r := entryRow{
		ID:            e.ID,
		UserID:        e.UserID,
		TxnID:         e.TxnID,
		Type:          string(e.Type),
		Amount:        w.Put(sqlbase.ColAmount, e.Amount),
		BalanceBefore: w.Put(sqlbase.ColBefore, e.BalanceBefore),
		BalanceAfter:  w.Put(sqlbase.ColAfter, e.BalanceAfter),
		ReferenceType: e.ReferenceType,
		ReferenceID:   e.ReferenceID,
		Description:   e.Description,
		Status:        e.Status,
		CreatedAt:     sqlbase.Stamp(e.CreatedAt),
	}
	r.UpdatedAt = r.CreatedAt
	if r.Status == "" {
		r.Status = "completed"
	}
	return r, w.Err
}

func toDomainEntry(r *entryRow) (ledger.Entry, error) {
	var w sqlbase.MoneyWriter
	e := ledger.Entry{
		ID:            r.ID,
		UserID:        r.UserID,
		TxnID:         r.TxnID,
		Type:          ledger.Type(r.Type),
		Amount:        w.Get(sqlbase.ColAmount, r.Amount),
		BalanceBefore: w.Get(sqlbase.ColBefore, r.BalanceBefore),
		BalanceAfter:  w.Get(sqlbase.ColAfter, r.BalanceAfter),
		ReferenceType: r.ReferenceType,
		ReferenceID:   r.ReferenceID,
		Description:   r.Description,
		Status:        r.Status,
		CreatedAt:     sqlbase.TimeFromDB(r.CreatedAt),
	}
	if w.Err != nil {
		return e, fmt.Errorf("transaction %s: %w", r.TxnID, w.Err)
	}
	return e, nil
}

// LedgerStore is the database's ledger.Repository.
type LedgerStore struct{ sqlbase.Base }

var _ ledger.Repository = (*LedgerStore)(nil)

func (s *LedgerStore) Insert(ctx context.Context, e *ledger.Entry) error {
	r, err := toEntryRow(e)
	if err != nil {
		return fmt.Errorf("insert transaction: %w", err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert transaction %s: %w", e.TxnID, sqlbase.Translate(err))
	}
	e.ID = r.ID
	e.CreatedAt = sqlbase.TimeFromDB(r.CreatedAt)
	return nil
}

// entryFilter narrows a ledger query to f's filters. From and To are
// inclusive bounds on created_at.
func entryFilter(f ledger.Filter) func(*gorm.DB) *gorm.DB {
	return func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Type != "" {
			q = q.Where("type = ?", string(f.Type))
		}
		if f.ReferenceType != "" {
			q = q.Where("reference_type = ?", f.ReferenceType)
		}
		if f.From != nil {
			q = q.Where("created_at >= ?", sqlbase.DBTime(*f.From))
		}
		if f.To != nil {
			q = q.Where("created_at <= ?", sqlbase.DBTime(*f.To))
		}
		return q
	}
}

// List lists entries newest first (id descending), counting at most
// ListWindow+1 matches.
func (s *LedgerStore) List(ctx context.Context, f ledger.Filter) ([]ledger.Entry, int64, error) {
	total, err := sqlbase.CappedCount(s.Conn(ctx).Model(&entryRow{}).Scopes(entryFilter(f)), ledger.ListWindow)
	if err != nil {
		return nil, 0, fmt.Errorf("count transactions: %w", err)
	}
	limit, offset := sqlbase.Paging(f.Page, f.PerPage)
	var rows []entryRow
	if err := s.Conn(ctx).Scopes(entryFilter(f)).Order("id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("list transactions: %w", sqlbase.Translate(err))
	}
	out, err := sqlbase.ConvertRows(rows, toDomainEntry)
	return out, total, err
}

// ForEach visits the entries matching f newest first (id descending), in
// keyset pages (forEachPage).
func (s *LedgerStore) ForEach(ctx context.Context, f ledger.Filter, fn func(ledger.Entry) error) error {
	order, after := "id DESC", "id < ?"
	if f.Oldest {
		order, after = "id", "id > ?"
	}
	page := func(last *entryRow) *gorm.DB {
		q := s.Conn(ctx).Model(&entryRow{}).Scopes(entryFilter(f)).Order(order)
		if last != nil {
			q = q.Where(after, last.ID)
		}
		return q
	}
	if err := sqlbase.ForEachPage(s.ExportPage, page, toDomainEntry, fn); err != nil {
		return fmt.Errorf("export transactions: %w", err)
	}
	return nil
}

// ForEachByUser streams a user's entries in id order. fn must not use the
// store while it runs inside a transaction: the rows hold the connection.
func (s *LedgerStore) ForEachByUser(ctx context.Context, userID uint64, fn func(ledger.Entry) error) error {
	q := s.Conn(ctx).Model(&entryRow{}).Where("user_id = ?", userID).Order("id")
	if err := sqlbase.ForEachRow(q, toDomainEntry, fn); err != nil {
		return fmt.Errorf("read transactions of user %d: %w", userID, err)
	}
	return nil
}
