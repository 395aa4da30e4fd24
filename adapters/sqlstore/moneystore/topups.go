package moneystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/money/topup"
)

type topUpRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID        uint64     `gorm:"column:user_id"`
	Amount        string     `gorm:"column:amount"`
	UTRNumber     string     `gorm:"column:utr_number"`
	PaymentMethod string     `gorm:"column:payment_method"`
	Screenshot    *string    `gorm:"column:screenshot"`
	Remarks       *string    `gorm:"column:remarks"`
	Status        string     `gorm:"column:status"`
	ApprovedBy    *uint64    `gorm:"column:approved_by"`
	ApprovedAt    *time.Time `gorm:"column:approved_at"`
	AdminRemarks  *string    `gorm:"column:admin_remarks"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt     *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (topUpRow) TableName() string { return "balance_requests" }

func toTopUpRow(r *topup.Request) (topUpRow, error) {
	var w sqlbase.MoneyWriter
	row := topUpRow{
		ID:            r.ID,
		UserID:        r.UserID,
		Amount:        w.Put(sqlbase.ColAmount, r.Amount),
		UTRNumber:     r.UTRNumber,
		PaymentMethod: r.PaymentMethod,
		Screenshot:    r.Screenshot,
		Remarks:       r.Remarks,
		Status:        string(r.Status),
		ApprovedBy:    r.ApprovedBy,
		ApprovedAt:    sqlbase.TimePtrToDB(r.ApprovedAt),
		AdminRemarks:  r.AdminRemarks,
		CreatedAt:     sqlbase.Stamp(r.CreatedAt),
		UpdatedAt:     sqlbase.Stamp(r.UpdatedAt),
	}
	if row.Status == "" {
		row.Status = string(topup.StatusPending)
	}
	if row.PaymentMethod == "" {
		row.PaymentMethod = topup.DefaultPaymentMethod
	}
	return row, w.Err
}

func toDomainTopUp(row *topUpRow) (topup.Request, error) {
	var w sqlbase.MoneyWriter
	r := topup.Request{
		ID:            row.ID,
		UserID:        row.UserID,
		Amount:        w.Get(sqlbase.ColAmount, row.Amount),
		UTRNumber:     row.UTRNumber,
		PaymentMethod: row.PaymentMethod,
		Screenshot:    row.Screenshot,
		Remarks:       row.Remarks,
		Status:        topup.Status(row.Status),
		ApprovedBy:    row.ApprovedBy,
		ApprovedAt:    sqlbase.TimePtrFromDB(row.ApprovedAt),
		AdminRemarks:  row.AdminRemarks,
		CreatedAt:     sqlbase.TimeFromDB(row.CreatedAt),
		UpdatedAt:     sqlbase.TimeFromDB(row.UpdatedAt),
	}
	if w.Err != nil {
		return r, fmt.Errorf("balance request %d: %w", row.ID, w.Err)
	}
	return r, nil
}

// TopUpStore is the database's topup.Repository.
type TopUpStore struct{ sqlbase.Base }

var _ topup.Repository = (*TopUpStore)(nil)

func (s *TopUpStore) Create(ctx context.Context, r *topup.Request) error {
	row, err := toTopUpRow(r)
	if err != nil {
		return fmt.Errorf("create balance request: %w", err)
	}
	row.ID = 0
	if err := s.Conn(ctx).Create(&row).Error; err != nil {
		if msg, dup := sqlbase.DuplicateOf(err); dup && sqlbase.Mentions(msg, "balance_requests_utr_number_unique", "balance_requests.utr_number") {
			return topup.ErrUTRTaken.Wrap(err)
		}
		return fmt.Errorf("create balance request: %w", sqlbase.Translate(err))
	}
	r.ID = row.ID
	r.CreatedAt, r.UpdatedAt = sqlbase.TimeFromDB(row.CreatedAt), sqlbase.TimeFromDB(row.UpdatedAt)
	return nil
}

func (s *TopUpStore) ByID(ctx context.Context, id uint64) (*topup.Request, error) {
	var row topUpRow
	if err := s.Conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, topup.ErrNotFound
		}
		return nil, fmt.Errorf("find balance request %d: %w", id, sqlbase.Translate(err))
	}
	r, err := toDomainTopUp(&row)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Decide is one conditional UPDATE … WHERE id = ? AND status = 'pending'. On
// MySQL a concurrent decider waits for the first one's row lock, then finds
// the row no longer pending; SQLite serialises the writing transactions.
func (s *TopUpStore) Decide(ctx context.Context, r *topup.Request) error {
	if r.Status == topup.StatusPending || !r.Status.Valid() {
		return fmt.Errorf("decide balance request %d: %q is not a decision", r.ID, r.Status)
	}
	res := s.ByPrimaryKey(ctx, &topUpRow{}).
		Where("id = ? AND status = ?", r.ID, string(topup.StatusPending)).
		Updates(map[string]any{
			"status":        string(r.Status),
			"approved_by":   r.ApprovedBy,
			"approved_at":   sqlbase.TimePtrToDB(r.ApprovedAt),
			"admin_remarks": r.AdminRemarks,
			"updated_at":    sqlbase.DBTime(r.UpdatedAt),
		})
	if res.Error != nil {
		return fmt.Errorf("decide balance request %d: %w", r.ID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return topup.ErrAlreadyDecided
	}
	return nil
}

// List lists requests newest first. From and To are inclusive bounds on
// created_at; Q matches part of the UTR number.
func (s *TopUpStore) List(ctx context.Context, f topup.Filter) ([]topup.Request, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Q != "" {
			q = q.Where("utr_number LIKE ?"+sqlbase.LikeEscape, sqlbase.LikePattern(f.Q))
		}
		if f.ParentID != nil {
			q = q.Where("user_id IN (SELECT id FROM users WHERE parent_id = ?)", *f.ParentID)
		}
		return sqlbase.CreatedBetween(q, f.From, f.To)
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "balance requests", toDomainTopUp)
}
