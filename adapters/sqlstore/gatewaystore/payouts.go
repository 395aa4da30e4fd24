package gatewaystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/gateway/payout"
	"paygate/core/platform/errs"
)

type payoutRow struct {
	ID              uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	PublicID        string     `gorm:"column:public_id"`
	UserID          uint64     `gorm:"column:user_id"`
	APIKeyID        uint64     `gorm:"column:api_key_id"`
	RequestID       string     `gorm:"column:request_id"`
	ReferenceID     string     `gorm:"column:reference_id"`
	BeneficiaryType string     `gorm:"column:beneficiary_type"`
	BeneficiaryName string     `gorm:"column:beneficiary_name"`
	AccountNumber   *string    `gorm:"column:account_number"`
	IFSC            *string    `gorm:"column:ifsc"`
	VPA             *string    `gorm:"column:vpa"`
	Amount          string     `gorm:"column:amount"`
	Fee             string     `gorm:"column:fee"`
	Mode            string     `gorm:"column:mode"`
	Narration       *string    `gorm:"column:narration"`
	Status          string     `gorm:"column:status"`
	UTR             *string    `gorm:"column:utr"`
	FailReason      *string    `gorm:"column:fail_reason"`
	Livemode        bool       `gorm:"column:livemode"`
	SubmittedAt     *time.Time `gorm:"column:submitted_at"`
	NextCheckAt     *time.Time `gorm:"column:next_check_at"`
	Attempts        int        `gorm:"column:attempts"`
	ProcessedAt     *time.Time `gorm:"column:processed_at"`
	ReversedAt      *time.Time `gorm:"column:reversed_at"`
	CreatedAt       *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt       *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (payoutRow) TableName() string { return "payouts" }

func toPayoutRow(p *payout.Payout) (payoutRow, error) {
	var w sqlbase.MoneyWriter
	b := p.Beneficiary
	row := payoutRow{
		ID: p.ID, PublicID: p.PublicID, UserID: p.UserID, APIKeyID: p.APIKeyID, RequestID: p.RequestID, ReferenceID: p.ReferenceID,
		BeneficiaryType: b.Type, BeneficiaryName: b.Name, AccountNumber: sqlbase.NullString(b.AccountNumber),
		IFSC: sqlbase.NullString(b.IFSC), VPA: sqlbase.NullString(b.VPA),
		Amount: w.Put(sqlbase.ColAmount, p.Amount), Fee: w.Put(sqlbase.ColPayoutFee, p.Fee), Mode: string(p.Mode), Narration: p.Narration,
		Status: string(p.Status), UTR: p.UTR, FailReason: p.FailReason, Livemode: p.Livemode,
		SubmittedAt: sqlbase.TimePtrToDB(p.SubmittedAt), NextCheckAt: sqlbase.TimePtrToDB(p.NextCheckAt), Attempts: p.Attempts,
		ProcessedAt: sqlbase.TimePtrToDB(p.ProcessedAt), ReversedAt: sqlbase.TimePtrToDB(p.ReversedAt),
		CreatedAt: sqlbase.Stamp(p.CreatedAt), UpdatedAt: sqlbase.Stamp(p.UpdatedAt),
	}
	return row, w.Err
}

func toDomainPayout(r *payoutRow) (payout.Payout, error) {
	var w sqlbase.MoneyWriter
	out := payout.Payout{
		ID: r.ID, PublicID: r.PublicID, UserID: r.UserID, APIKeyID: r.APIKeyID, RequestID: r.RequestID, ReferenceID: r.ReferenceID,
		Beneficiary: payout.Beneficiary{Type: r.BeneficiaryType, Name: r.BeneficiaryName,
			AccountNumber: sqlbase.Deref(r.AccountNumber), IFSC: sqlbase.Deref(r.IFSC), VPA: sqlbase.Deref(r.VPA)},
		Amount: w.Get(sqlbase.ColAmount, r.Amount), Fee: w.Get(sqlbase.ColPayoutFee, r.Fee), Mode: payout.Mode(r.Mode), Narration: r.Narration,
		Status: payout.Status(r.Status), UTR: r.UTR, FailReason: r.FailReason, Livemode: r.Livemode,
		SubmittedAt: sqlbase.TimePtrFromDB(r.SubmittedAt), NextCheckAt: sqlbase.TimePtrFromDB(r.NextCheckAt), Attempts: r.Attempts,
		ProcessedAt: sqlbase.TimePtrFromDB(r.ProcessedAt), ReversedAt: sqlbase.TimePtrFromDB(r.ReversedAt),
		CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if w.Err != nil {
		return out, fmt.Errorf("payout %d: %w", r.ID, w.Err)
	}
	return out, nil
}

// PayoutStore is the database's payout.Repository.
type PayoutStore struct{ sqlbase.Base }

var _ payout.Repository = (*PayoutStore)(nil)

func (s *PayoutStore) Create(ctx context.Context, p *payout.Payout) error {
	row, err := toPayoutRow(p)
	if err != nil {
		return fmt.Errorf("insert payout: %w", err)
	}
	row.ID = 0
	if err := s.Conn(ctx).Create(&row).Error; err != nil {
		if msg, dup := sqlbase.DuplicateOf(err); dup && sqlbase.Mentions(msg, "payouts_user_reference_unique", "payouts.user_id") {
			return payout.ErrReferenceReused.Wrap(errs.ErrConflict.Wrap(err))
		}
		return fmt.Errorf("insert payout %s: %w", p.ReferenceID, sqlbase.Translate(err))
	}
	p.ID = row.ID
	return nil
}

func (s *PayoutStore) find(q *gorm.DB) (*payout.Payout, error) {
	var row payoutRow
	if err := q.Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, payout.ErrNotFound
		}
		return nil, fmt.Errorf("find payout: %w", sqlbase.Translate(err))
	}
	p, err := toDomainPayout(&row)
	return &p, err
}

func (s *PayoutStore) ByReference(ctx context.Context, userID uint64, referenceID string) (*payout.Payout, error) {
	return s.find(s.Conn(ctx).Where("user_id = ? AND reference_id = ?", userID, referenceID))
}

func (s *PayoutStore) ByPublicID(ctx context.Context, publicID string) (*payout.Payout, error) {
	return s.find(s.Conn(ctx).Where("public_id = ?", publicID))
}

func (s *PayoutStore) ByID(ctx context.Context, id uint64) (*payout.Payout, error) {
	return s.find(s.Conn(ctx).Where("id = ?", id))
}

func (s *PayoutStore) Move(ctx context.Context, next *payout.Payout, from payout.Status) (bool, error) {
	res := s.ByPrimaryKey(ctx, &payoutRow{}).Where("id = ? AND status = ?", next.ID, string(from)).Updates(map[string]any{
		"status": string(next.Status), "utr": next.UTR, "fail_reason": next.FailReason,
		"processed_at": sqlbase.TimePtrToDB(next.ProcessedAt), "reversed_at": sqlbase.TimePtrToDB(next.ReversedAt),
		"submitted_at": sqlbase.TimePtrToDB(next.SubmittedAt), "next_check_at": sqlbase.TimePtrToDB(next.NextCheckAt),
		"updated_at": sqlbase.DBTime(next.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("move payout %d to %s: %w", next.ID, next.Status, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *PayoutStore) Due(ctx context.Context, now time.Time, limit int) ([]payout.Payout, error) {
	var rows []payoutRow
	err := s.Conn(ctx).Where("next_check_at IS NOT NULL AND next_check_at <= ?", sqlbase.DBTime(now)).
		Order("next_check_at").Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list due payouts: %w", sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainPayout)
}

func (s *PayoutStore) Claim(ctx context.Context, old, next *payout.Payout, now time.Time) (bool, error) {
	q := s.ByPrimaryKey(ctx, &payoutRow{}).Where("id = ? AND status = ? AND attempts = ? AND next_check_at <= ?",
		old.ID, string(old.Status), old.Attempts, sqlbase.DBTime(now))
	if old.SubmittedAt == nil {
		q = q.Where("submitted_at IS NULL")
	} else {
		q = q.Where("submitted_at IS NOT NULL")
	}
	res := q.Updates(map[string]any{"attempts": next.Attempts, "next_check_at": sqlbase.TimePtrToDB(next.NextCheckAt),
		"updated_at": sqlbase.DBTime(next.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("claim payout %d: %w", old.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

// counted are the states whose amounts count against the daily limit.
var counted = []string{string(payout.StatusPending), string(payout.StatusProcessing), string(payout.StatusSuccess)}

type payoutAmountRow struct {
	UserID uint64 `gorm:"column:user_id"`
	Amount string `gorm:"column:amount"`
}

// countedRows reads the amounts (summed here: SQLite has no exact decimal
// SUM over TEXT) of the counted payouts created since, the user's or all.
func (s *PayoutStore) countedRows(ctx context.Context, userID *uint64, since time.Time) (map[uint64]decimal.Decimal, error) {
	q := s.Conn(ctx).Model(&payoutRow{}).Select("user_id, amount").
		Where("created_at >= ? AND status IN ?", sqlbase.DBTime(since), counted)
	if userID != nil {
		q = q.Where("user_id = ?", *userID)
	}
	var rows []payoutAmountRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("sum payouts since %s: %w", since.Format(time.RFC3339), sqlbase.Translate(err))
	}
	out := map[uint64]decimal.Decimal{}
	var w sqlbase.MoneyWriter
	for _, r := range rows {
		out[r.UserID] = out[r.UserID].Add(w.Get(sqlbase.ColAmount, r.Amount))
	}
	return out, w.Err
}

func (s *PayoutStore) CountedSince(ctx context.Context, userID uint64, since time.Time) (decimal.Decimal, error) {
	m, err := s.countedRows(ctx, &userID, since)
	return m[userID], err
}

func (s *PayoutStore) CountedSinceByUser(ctx context.Context, since time.Time) (map[uint64]decimal.Decimal, error) {
	return s.countedRows(ctx, nil, since)
}

// CountedSinceWithCustomers sums the counted payouts of the user and of
// its customers (users_parent is the index of the subquery).
func (s *PayoutStore) CountedSinceWithCustomers(ctx context.Context, resellerID uint64, since time.Time) (decimal.Decimal, error) {
	var rows []payoutAmountRow
	err := s.Conn(ctx).Model(&payoutRow{}).Select("user_id, amount").
		Where("created_at >= ? AND status IN ?", sqlbase.DBTime(since), counted).
		Where("(user_id = ? OR user_id IN (SELECT id FROM users WHERE parent_id = ?))", resellerID, resellerID).
		Find(&rows).Error
	if err != nil {
		return decimal.Zero, fmt.Errorf("sum reseller %d's payouts since %s: %w", resellerID, since.Format(time.RFC3339), sqlbase.Translate(err))
	}
	sum := decimal.Zero
	var w sqlbase.MoneyWriter
	for _, r := range rows {
		sum = sum.Add(w.Get(sqlbase.ColAmount, r.Amount))
	}
	return sum, w.Err
}

func payoutFilter(f payout.Filter) func(*gorm.DB) *gorm.DB {
	return func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Mode != "" {
			q = q.Where("mode = ?", string(f.Mode))
		}
		if f.Search != "" {
			q = q.Where("(public_id = ? OR reference_id = ? OR utr = ?)", f.Search, f.Search, f.Search)
		}
		return sqlbase.CreatedBetween(q, f.From, f.To)
	}
}

func (s *PayoutStore) List(ctx context.Context, f payout.Filter) ([]payout.Payout, int64, error) {
	return sqlbase.PageNewest(s.Conn(ctx), payoutFilter(f), f.Page, f.PerPage, "payouts", toDomainPayout)
}

func (s *PayoutStore) ForEach(ctx context.Context, f payout.Filter, fn func(payout.Payout) error) error {
	page := func(last *payoutRow) *gorm.DB {
		q := s.Conn(ctx).Model(&payoutRow{}).Scopes(payoutFilter(f)).Order("id DESC")
		if last != nil {
			q = q.Where("id < ?", last.ID)
		}
		return q
	}
	if err := sqlbase.ForEachPage(s.ExportPage, page, toDomainPayout, fn); err != nil {
		return fmt.Errorf("export payouts: %w", err)
	}
	return nil
}

func (s *PayoutStore) ForEachByUser(ctx context.Context, userID uint64, fn func(payout.Payout) error) error {
	if err := sqlbase.ForEachOfUser(s.Conn(ctx), userID, func(r *payoutRow) uint64 { return r.ID }, toDomainPayout, fn); err != nil {
		return fmt.Errorf("read payouts of user %d: %w", userID, err)
	}
	return nil
}
