package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

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
	var w moneyWriter
	b := p.Beneficiary
	row := payoutRow{
		ID: p.ID, PublicID: p.PublicID, UserID: p.UserID, APIKeyID: p.APIKeyID, RequestID: p.RequestID, ReferenceID: p.ReferenceID,
		BeneficiaryType: b.Type, BeneficiaryName: b.Name, AccountNumber: nullString(b.AccountNumber),
		IFSC: nullString(b.IFSC), VPA: nullString(b.VPA),
		Amount: w.put(colAmount, p.Amount), Fee: w.put(colPayoutFee, p.Fee), Mode: string(p.Mode), Narration: p.Narration,
		Status: string(p.Status), UTR: p.UTR, FailReason: p.FailReason, Livemode: p.Livemode,
		SubmittedAt: timePtrToDB(p.SubmittedAt), NextCheckAt: timePtrToDB(p.NextCheckAt), Attempts: p.Attempts,
		ProcessedAt: timePtrToDB(p.ProcessedAt), ReversedAt: timePtrToDB(p.ReversedAt),
		CreatedAt: stamp(p.CreatedAt), UpdatedAt: stamp(p.UpdatedAt),
	}
	return row, w.err
}

func toDomainPayout(r *payoutRow) (payout.Payout, error) {
	var w moneyWriter
	out := payout.Payout{
		ID: r.ID, PublicID: r.PublicID, UserID: r.UserID, APIKeyID: r.APIKeyID, RequestID: r.RequestID, ReferenceID: r.ReferenceID,
		Beneficiary: payout.Beneficiary{Type: r.BeneficiaryType, Name: r.BeneficiaryName,
			AccountNumber: deref(r.AccountNumber), IFSC: deref(r.IFSC), VPA: deref(r.VPA)},
		Amount: w.get(colAmount, r.Amount), Fee: w.get(colPayoutFee, r.Fee), Mode: payout.Mode(r.Mode), Narration: r.Narration,
		Status: payout.Status(r.Status), UTR: r.UTR, FailReason: r.FailReason, Livemode: r.Livemode,
		SubmittedAt: timePtrFromDB(r.SubmittedAt), NextCheckAt: timePtrFromDB(r.NextCheckAt), Attempts: r.Attempts,
		ProcessedAt: timePtrFromDB(r.ProcessedAt), ReversedAt: timePtrFromDB(r.ReversedAt),
		CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt),
	}
	if w.err != nil {
		return out, fmt.Errorf("payout %d: %w", r.ID, w.err)
	}
	return out, nil
}

type payoutStore struct{ base }

var _ payout.Repository = (*payoutStore)(nil)

func (s *payoutStore) Create(ctx context.Context, p *payout.Payout) error {
	row, err := toPayoutRow(p)
	if err != nil {
		return fmt.Errorf("insert payout: %w", err)
	}
	row.ID = 0
	if err := s.conn(ctx).Create(&row).Error; err != nil {
		if msg, dup := duplicateOf(err); dup && mentions(msg, "payouts_user_reference_unique", "payouts.user_id") {
			return payout.ErrReferenceReused.Wrap(errs.ErrConflict.Wrap(err))
		}
		return fmt.Errorf("insert payout %s: %w", p.ReferenceID, translate(err))
	}
	p.ID = row.ID
	return nil
}

func (s *payoutStore) find(q *gorm.DB) (*payout.Payout, error) {
	var row payoutRow
	if err := q.Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, payout.ErrNotFound
		}
		return nil, fmt.Errorf("find payout: %w", translate(err))
	}
	p, err := toDomainPayout(&row)
	return &p, err
}

func (s *payoutStore) ByReference(ctx context.Context, userID uint64, referenceID string) (*payout.Payout, error) {
	return s.find(s.conn(ctx).Where("user_id = ? AND reference_id = ?", userID, referenceID))
}

func (s *payoutStore) ByPublicID(ctx context.Context, publicID string) (*payout.Payout, error) {
	return s.find(s.conn(ctx).Where("public_id = ?", publicID))
}

func (s *payoutStore) ByID(ctx context.Context, id uint64) (*payout.Payout, error) {
	return s.find(s.conn(ctx).Where("id = ?", id))
}

func (s *payoutStore) Move(ctx context.Context, next *payout.Payout, from payout.Status) (bool, error) {
	res := s.byID(ctx, &payoutRow{}).Where("id = ? AND status = ?", next.ID, string(from)).Updates(map[string]any{
		"status": string(next.Status), "utr": next.UTR, "fail_reason": next.FailReason,
		"processed_at": timePtrToDB(next.ProcessedAt), "reversed_at": timePtrToDB(next.ReversedAt),
		"submitted_at": timePtrToDB(next.SubmittedAt), "next_check_at": timePtrToDB(next.NextCheckAt),
		"updated_at": dbTime(next.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("move payout %d to %s: %w", next.ID, next.Status, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *payoutStore) Due(ctx context.Context, now time.Time, limit int) ([]payout.Payout, error) {
	var rows []payoutRow
	err := s.conn(ctx).Where("next_check_at IS NOT NULL AND next_check_at <= ?", dbTime(now)).
		Order("next_check_at").Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list due payouts: %w", translate(err))
	}
	return convertRows(rows, toDomainPayout)
}

func (s *payoutStore) Claim(ctx context.Context, old, next *payout.Payout, now time.Time) (bool, error) {
	q := s.byID(ctx, &payoutRow{}).Where("id = ? AND status = ? AND attempts = ? AND next_check_at <= ?",
		old.ID, string(old.Status), old.Attempts, dbTime(now))
	if old.SubmittedAt == nil {
		q = q.Where("submitted_at IS NULL")
	} else {
		q = q.Where("submitted_at IS NOT NULL")
	}
	res := q.Updates(map[string]any{"attempts": next.Attempts, "next_check_at": timePtrToDB(next.NextCheckAt),
		"updated_at": dbTime(next.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("claim payout %d: %w", old.ID, translate(res.Error))
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
func (s *payoutStore) countedRows(ctx context.Context, userID *uint64, since time.Time) (map[uint64]decimal.Decimal, error) {
	q := s.conn(ctx).Model(&payoutRow{}).Select("user_id, amount").
		Where("created_at >= ? AND status IN ?", dbTime(since), counted)
	if userID != nil {
		q = q.Where("user_id = ?", *userID)
	}
	var rows []payoutAmountRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("sum payouts since %s: %w", since.Format(time.RFC3339), translate(err))
	}
	out := map[uint64]decimal.Decimal{}
	var w moneyWriter
	for _, r := range rows {
		out[r.UserID] = out[r.UserID].Add(w.get(colAmount, r.Amount))
	}
	return out, w.err
}

func (s *payoutStore) CountedSince(ctx context.Context, userID uint64, since time.Time) (decimal.Decimal, error) {
	m, err := s.countedRows(ctx, &userID, since)
	return m[userID], err
}

func (s *payoutStore) CountedSinceByUser(ctx context.Context, since time.Time) (map[uint64]decimal.Decimal, error) {
	return s.countedRows(ctx, nil, since)
}

// CountedSinceWithCustomers sums the counted payouts of the user and of
// its customers (users_parent is the index of the subquery).
func (s *payoutStore) CountedSinceWithCustomers(ctx context.Context, resellerID uint64, since time.Time) (decimal.Decimal, error) {
	var rows []payoutAmountRow
	err := s.conn(ctx).Model(&payoutRow{}).Select("user_id, amount").
		Where("created_at >= ? AND status IN ?", dbTime(since), counted).
		Where("(user_id = ? OR user_id IN (SELECT id FROM users WHERE parent_id = ?))", resellerID, resellerID).
		Find(&rows).Error
	if err != nil {
		return decimal.Zero, fmt.Errorf("sum reseller %d's payouts since %s: %w", resellerID, since.Format(time.RFC3339), translate(err))
	}
	sum := decimal.Zero
	var w moneyWriter
	for _, r := range rows {
		sum = sum.Add(w.get(colAmount, r.Amount))
	}
	return sum, w.err
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
		return createdBetween(q, f.From, f.To)
	}
}

func (s *payoutStore) List(ctx context.Context, f payout.Filter) ([]payout.Payout, int64, error) {
	return pageNewest(s.conn(ctx), payoutFilter(f), f.Page, f.PerPage, "payouts", toDomainPayout)
}

func (s *payoutStore) ForEach(ctx context.Context, f payout.Filter, fn func(payout.Payout) error) error {
	page := func(last *payoutRow) *gorm.DB {
		q := s.conn(ctx).Model(&payoutRow{}).Scopes(payoutFilter(f)).Order("id DESC")
		if last != nil {
			q = q.Where("id < ?", last.ID)
		}
		return q
	}
	if err := forEachPage(s.exportPage, page, toDomainPayout, fn); err != nil {
		return fmt.Errorf("export payouts: %w", err)
	}
	return nil
}

func (s *payoutStore) ForEachByUser(ctx context.Context, userID uint64, fn func(payout.Payout) error) error {
	if err := forEachOfUser(s.conn(ctx), userID, func(r *payoutRow) uint64 { return r.ID }, toDomainPayout, fn); err != nil {
		return fmt.Errorf("read payouts of user %d: %w", userID, err)
	}
	return nil
}
