package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

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
	var w moneyWriter
	row := topUpRow{
		ID:            r.ID,
		UserID:        r.UserID,
		Amount:        w.put(colAmount, r.Amount),
		UTRNumber:     r.UTRNumber,
		PaymentMethod: r.PaymentMethod,
		Screenshot:    r.Screenshot,
		Remarks:       r.Remarks,
		Status:        string(r.Status),
		ApprovedBy:    r.ApprovedBy,
		ApprovedAt:    timePtrToDB(r.ApprovedAt),
		AdminRemarks:  r.AdminRemarks,
		CreatedAt:     stamp(r.CreatedAt),
		UpdatedAt:     stamp(r.UpdatedAt),
	}
	if row.Status == "" {
		row.Status = string(topup.StatusPending)
	}
	if row.PaymentMethod == "" {
		row.PaymentMethod = topup.DefaultPaymentMethod
	}
	return row, w.err
}

func toDomainTopUp(row *topUpRow) (topup.Request, error) {
	var w moneyWriter
	r := topup.Request{
		ID:            row.ID,
		UserID:        row.UserID,
		Amount:        w.get(colAmount, row.Amount),
		UTRNumber:     row.UTRNumber,
		PaymentMethod: row.PaymentMethod,
		Screenshot:    row.Screenshot,
		Remarks:       row.Remarks,
		Status:        topup.Status(row.Status),
		ApprovedBy:    row.ApprovedBy,
		ApprovedAt:    timePtrFromDB(row.ApprovedAt),
		AdminRemarks:  row.AdminRemarks,
		CreatedAt:     timeFromDB(row.CreatedAt),
		UpdatedAt:     timeFromDB(row.UpdatedAt),
	}
	if w.err != nil {
		return r, fmt.Errorf("balance request %d: %w", row.ID, w.err)
	}
	return r, nil
}

type topUpStore struct{ base }

var _ topup.Repository = (*topUpStore)(nil)

func (s *topUpStore) Create(ctx context.Context, r *topup.Request) error {
	row, err := toTopUpRow(r)
	if err != nil {
		return fmt.Errorf("create balance request: %w", err)
	}
	row.ID = 0
	if err := s.conn(ctx).Create(&row).Error; err != nil {
		if msg, dup := duplicateOf(err); dup && mentions(msg, "balance_requests_utr_number_unique", "balance_requests.utr_number") {
			return topup.ErrUTRTaken.Wrap(err)
		}
		return fmt.Errorf("create balance request: %w", translate(err))
	}
	r.ID = row.ID
	r.CreatedAt, r.UpdatedAt = timeFromDB(row.CreatedAt), timeFromDB(row.UpdatedAt)
	return nil
}

func (s *topUpStore) ByID(ctx context.Context, id uint64) (*topup.Request, error) {
	var row topUpRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, topup.ErrNotFound
		}
		return nil, fmt.Errorf("find balance request %d: %w", id, translate(err))
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
func (s *topUpStore) Decide(ctx context.Context, r *topup.Request) error {
	if r.Status == topup.StatusPending || !r.Status.Valid() {
		return fmt.Errorf("decide balance request %d: %q is not a decision", r.ID, r.Status)
	}
	res := s.byID(ctx, &topUpRow{}).
		Where("id = ? AND status = ?", r.ID, string(topup.StatusPending)).
		Updates(map[string]any{
			"status":        string(r.Status),
			"approved_by":   r.ApprovedBy,
			"approved_at":   timePtrToDB(r.ApprovedAt),
			"admin_remarks": r.AdminRemarks,
			"updated_at":    dbTime(r.UpdatedAt),
		})
	if res.Error != nil {
		return fmt.Errorf("decide balance request %d: %w", r.ID, translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return topup.ErrAlreadyDecided
	}
	return nil
}

// List lists requests newest first. From and To are inclusive bounds on
// created_at; Q matches part of the UTR number.
func (s *topUpStore) List(ctx context.Context, f topup.Filter) ([]topup.Request, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Q != "" {
			q = q.Where("utr_number LIKE ?"+likeEscape, likePattern(f.Q))
		}
		if f.ParentID != nil {
			q = q.Where("user_id IN (SELECT id FROM users WHERE parent_id = ?)", *f.ParentID)
		}
		return createdBetween(q, f.From, f.To)
	}
	return pageNewest(s.conn(ctx), filter, f.Page, f.PerPage, "balance requests", toDomainTopUp)
}
