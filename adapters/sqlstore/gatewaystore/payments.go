package gatewaystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/platform/errs"
)

// Gateway records: payments and their Idempotency-Keys, recharges,
// verifications. State changes are conditional updates on the state the
// caller read, so several instances never both win a transition.

// PaymentRow is a payments row.
type PaymentRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	PublicID    string     `gorm:"column:public_id"`
	UserID      uint64     `gorm:"column:user_id"`
	APIKeyID    uint64     `gorm:"column:api_key_id"`
	Amount      string     `gorm:"column:amount"`
	Currency    string     `gorm:"column:currency"`
	CustomerID  string     `gorm:"column:customer_id"`
	CallbackURL string     `gorm:"column:callback_url"`
	Status      string     `gorm:"column:status"`
	ProviderRef *string    `gorm:"column:provider_ref"`
	Livemode    bool       `gorm:"column:livemode"`
	Refunded    string     `gorm:"column:refunded_amount"`
	UTR         *string    `gorm:"column:utr"`
	Purpose     string     `gorm:"column:purpose"`
	Fee         string     `gorm:"column:fee"`
	ExpiresAt   time.Time  `gorm:"column:expires_at"`
	CompletedAt *time.Time `gorm:"column:completed_at"`
	CreditHeld  *time.Time `gorm:"column:credit_held_at"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt   *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (PaymentRow) TableName() string { return "payments" }

func toPaymentRow(p *payment.Payment) (PaymentRow, error) {
	var w sqlbase.MoneyWriter
	r := PaymentRow{
		ID: p.ID, PublicID: p.PublicID, UserID: p.UserID, APIKeyID: p.APIKeyID, Amount: w.Put(sqlbase.ColAmount, p.Amount),
		Currency: p.Currency, CustomerID: p.CustomerID, CallbackURL: p.CallbackURL, Status: string(p.Status),
		ProviderRef: p.ProviderRef, Livemode: p.Livemode, UTR: p.UTR, ExpiresAt: sqlbase.DBTime(p.ExpiresAt), CompletedAt: sqlbase.TimePtrToDB(p.CompletedAt),
		CreatedAt: sqlbase.Stamp(p.CreatedAt), UpdatedAt: sqlbase.Stamp(p.UpdatedAt), Refunded: w.Put(sqlbase.ColAmount, p.Refunded),
		Purpose: string(p.Purpose), Fee: w.Put(sqlbase.ColFee, p.Fee), CreditHeld: sqlbase.TimePtrToDB(p.CreditHeldAt),
	}
	if r.Purpose == "" {
		r.Purpose = string(payment.PurposeCollection)
	}
	return r, w.Err
}

func toDomainPayment(r *PaymentRow) (payment.Payment, error) {
	var w sqlbase.MoneyWriter
	p := payment.Payment{
		ID: r.ID, PublicID: r.PublicID, UserID: r.UserID, APIKeyID: r.APIKeyID, Amount: w.Get(sqlbase.ColAmount, r.Amount),
		Currency: r.Currency, CustomerID: r.CustomerID, CallbackURL: r.CallbackURL, Status: payment.Status(r.Status),
		ProviderRef: r.ProviderRef, Livemode: r.Livemode, UTR: r.UTR, ExpiresAt: r.ExpiresAt.UTC(), CompletedAt: sqlbase.TimePtrFromDB(r.CompletedAt),
		CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt), Refunded: w.Get(sqlbase.ColAmount, r.Refunded),
		Purpose: payment.Purpose(r.Purpose), Fee: w.Get(sqlbase.ColFee, r.Fee), CreditHeldAt: sqlbase.TimePtrFromDB(r.CreditHeld),
	}
	if w.Err != nil {
		return p, fmt.Errorf("payment %s: %w", r.PublicID, w.Err)
	}
	return p, nil
}

// PaymentStore is the database's payment.Repository.
type PaymentStore struct{ sqlbase.Base }

var _ payment.Repository = (*PaymentStore)(nil)

func (s *PaymentStore) Create(ctx context.Context, p *payment.Payment) error {
	r, err := toPaymentRow(p)
	if err != nil {
		return fmt.Errorf("insert payment: %w", err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert payment %s: %w", p.PublicID, sqlbase.Translate(err))
	}
	p.ID = r.ID
	return nil
}

func (s *PaymentStore) find(ctx context.Context, column string, v any) (*payment.Payment, error) {
	return s.findOn(s.Conn(ctx), column, v)
}

func (s *PaymentStore) findOn(q *gorm.DB, column string, v any) (*payment.Payment, error) {
	var r PaymentRow
	if err := q.Where(column+" = ?", v).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, payment.ErrNotFound
		}
		return nil, fmt.Errorf("find payment: %w", sqlbase.Translate(err))
	}
	p, err := toDomainPayment(&r)
	return &p, err
}

func (s *PaymentStore) ByPublicID(ctx context.Context, publicID string) (*payment.Payment, error) {
	return s.find(ctx, "public_id", publicID)
}

func (s *PaymentStore) ByID(ctx context.Context, id uint64) (*payment.Payment, error) {
	return s.find(ctx, "id", id)
}

func (s *PaymentStore) LockByID(ctx context.Context, id uint64) (*payment.Payment, error) {
	return s.findOn(s.Locking(s.Conn(ctx)), "id", id)
}

func (s *PaymentStore) SaveRefunded(ctx context.Context, p *payment.Payment) error {
	var w sqlbase.MoneyWriter
	v := w.Put(sqlbase.ColAmount, p.Refunded)
	if w.Err != nil {
		return fmt.Errorf("save refunded total of payment %s: %w", p.PublicID, w.Err)
	}
	if err := s.Conn(ctx).Model(&PaymentRow{}).Where("id = ?", p.ID).Update("refunded_amount", v).Error; err != nil {
		return fmt.Errorf("save refunded total of payment %s: %w", p.PublicID, sqlbase.Translate(err))
	}
	return nil
}

func (s *PaymentStore) Transition(ctx context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	fee, err := sqlbase.ColFee.ToDB(p.Fee)
	if err != nil {
		return false, fmt.Errorf("move payment %s: %w", p.PublicID, err)
	}
	res := s.ByPrimaryKey(ctx, &PaymentRow{}).Where("id = ? AND status = ?", p.ID, string(from)).Updates(map[string]any{
		"status": string(p.Status), "provider_ref": p.ProviderRef, "completed_at": sqlbase.TimePtrToDB(p.CompletedAt),
		"updated_at": sqlbase.DBTime(p.UpdatedAt), "fee": fee,
	})
	if res.Error != nil {
		return false, fmt.Errorf("move payment %s to %s: %w", p.PublicID, p.Status, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *PaymentStore) SubmitUTR(ctx context.Context, p *payment.Payment, from payment.Status, prev *string) (bool, error) {
	q := s.ByPrimaryKey(ctx, &PaymentRow{}).Where("id = ? AND status = ?", p.ID, string(from))
	if prev == nil {
		q = q.Where("utr IS NULL")
	} else {
		q = q.Where("utr = ?", *prev)
	}
	res := q.Updates(map[string]any{
		"status": string(p.Status), "utr": p.UTR, "expires_at": sqlbase.DBTime(p.ExpiresAt), "updated_at": sqlbase.DBTime(p.UpdatedAt),
	})
	if res.Error != nil {
		if errs.KindOf(sqlbase.Translate(res.Error)) == errs.Conflict {
			return false, payment.ErrUTRTaken.Wrap(res.Error)
		}
		return false, fmt.Errorf("record UTR of payment %s: %w", p.PublicID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *PaymentStore) HoldCredit(ctx context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	res := s.ByPrimaryKey(ctx, &PaymentRow{}).Where("id = ? AND status = ?", p.ID, string(from)).Updates(map[string]any{
		"status": string(p.Status), "credit_held_at": sqlbase.TimePtrToDB(p.CreditHeldAt), "updated_at": sqlbase.DBTime(p.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("hold credit of payment %s: %w", p.PublicID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *PaymentStore) Expirable(ctx context.Context, now time.Time, limit int) ([]payment.Payment, error) {
	var rows []PaymentRow
	err := s.Conn(ctx).Where("status IN ? AND expires_at <= ? AND credit_held_at IS NULL", []string{string(payment.StatusCreated), string(payment.StatusPending)}, sqlbase.DBTime(now)).
		Order("expires_at").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list expirable payments: %w", sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainPayment)
}

func (s *PaymentStore) List(ctx context.Context, f payment.Filter) ([]payment.Payment, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Held {
			q = q.Where("status IN ? AND credit_held_at IS NOT NULL", []string{string(payment.StatusCreated), string(payment.StatusPending)})
		}
		return sqlbase.CreatedBetween(q, f.From, f.To)
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "payments", toDomainPayment)
}

func (s *PaymentStore) ForEachByUser(ctx context.Context, userID uint64, fn func(payment.Payment) error) error {
	if err := sqlbase.ForEachOfUser(s.Conn(ctx), userID, func(r *PaymentRow) uint64 { return r.ID }, toDomainPayment, fn); err != nil {
		return fmt.Errorf("read payments of user %d: %w", userID, err)
	}
	return nil
}

type idempotencyRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID      uint64     `gorm:"column:user_id"`
	Key         string     `gorm:"column:idem_key"`
	RequestHash string     `gorm:"column:request_hash"`
	PaymentID   uint64     `gorm:"column:payment_id"`
	ExpiresAt   time.Time  `gorm:"column:expires_at"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (idempotencyRow) TableName() string { return "payment_idempotency_keys" }

// IdempotencyStore is the database's payment.IdempotencyKeys.
type IdempotencyStore struct{ sqlbase.Base }

var _ payment.IdempotencyKeys = (*IdempotencyStore)(nil)

func (s *IdempotencyStore) Claim(ctx context.Context, k *payment.IdempotencyKey, now time.Time) error {
	// An expired row of the same key gives way; a live one makes the insert
	// below fail on the unique (user_id, idem_key) index. The expired row is
	// found by a plain read and deleted by its id: a DELETE by a missing key
	// would take an InnoDB gap lock, and two such transactions inserting
	// into the same gap deadlock.
	var old idempotencyRow
	err := s.Conn(ctx).Select("id").Where("user_id = ? AND idem_key = ? AND expires_at <= ?", k.UserID, k.Key, sqlbase.DBTime(now)).Take(&old).Error
	switch {
	case err == nil:
		if err := s.Conn(ctx).Where("id = ? AND expires_at <= ?", old.ID, sqlbase.DBTime(now)).Delete(&idempotencyRow{}).Error; err != nil {
			return fmt.Errorf("drop expired idempotency key: %w", sqlbase.Translate(err))
		}
	case !errors.Is(err, gorm.ErrRecordNotFound):
		return fmt.Errorf("find expired idempotency key: %w", sqlbase.Translate(err))
	}
	r := idempotencyRow{UserID: k.UserID, Key: k.Key, RequestHash: k.RequestHash, PaymentID: k.PaymentID,
		ExpiresAt: sqlbase.DBTime(k.ExpiresAt), CreatedAt: sqlbase.Stamp(k.CreatedAt)}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("claim idempotency key: %w", sqlbase.Translate(err))
	}
	return nil
}

func (s *IdempotencyStore) Find(ctx context.Context, userID uint64, key string, now time.Time) (*payment.IdempotencyKey, error) {
	var r idempotencyRow
	err := s.Conn(ctx).Where("user_id = ? AND idem_key = ? AND expires_at > ?", userID, key, sqlbase.DBTime(now)).Take(&r).Error
	if err != nil {
		return nil, fmt.Errorf("find idempotency key: %w", sqlbase.Translate(err))
	}
	return &payment.IdempotencyKey{UserID: r.UserID, Key: r.Key, RequestHash: r.RequestHash, PaymentID: r.PaymentID,
		ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: sqlbase.TimeFromDB(r.CreatedAt)}, nil
}

type rechargeRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID      uint64     `gorm:"column:user_id"`
	APIKeyID    uint64     `gorm:"column:api_key_id"`
	ReferenceID string     `gorm:"column:reference_id"`
	Mobile      string     `gorm:"column:mobile"`
	Operator    string     `gorm:"column:operator"`
	Circle      string     `gorm:"column:circle"`
	Amount      string     `gorm:"column:amount"`
	Status      string     `gorm:"column:status"`
	OperatorRef *string    `gorm:"column:operator_ref"`
	FailReason  *string    `gorm:"column:fail_reason"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt   *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
	SubmittedAt *time.Time `gorm:"column:submitted_at"`
	NextCheckAt time.Time  `gorm:"column:next_check_at"`
	Attempts    int        `gorm:"column:attempts"`
	ReconcileAt *time.Time `gorm:"column:reconcile_at"`
}

func (rechargeRow) TableName() string { return "recharges" }

func toRechargeRow(r *recharge.Recharge) (rechargeRow, error) {
	var w sqlbase.MoneyWriter
	row := rechargeRow{
		ID: r.ID, UserID: r.UserID, APIKeyID: r.APIKeyID, ReferenceID: r.ReferenceID, Mobile: r.Mobile,
		Operator: r.Operator, Circle: r.Circle, Amount: w.Put(sqlbase.ColAmount, r.Amount), Status: string(r.Status),
		OperatorRef: r.OperatorRef, FailReason: r.FailReason, CreatedAt: sqlbase.Stamp(r.CreatedAt), UpdatedAt: sqlbase.Stamp(r.UpdatedAt),
		SubmittedAt: sqlbase.TimePtrToDB(r.SubmittedAt), NextCheckAt: sqlbase.DBTime(r.NextCheckAt), Attempts: r.Attempts,
		ReconcileAt: sqlbase.TimePtrToDB(r.ReconcileAt),
	}
	return row, w.Err
}

func toDomainRecharge(r *rechargeRow) (recharge.Recharge, error) {
	var w sqlbase.MoneyWriter
	out := recharge.Recharge{
		ID: r.ID, UserID: r.UserID, APIKeyID: r.APIKeyID, ReferenceID: r.ReferenceID, Mobile: r.Mobile,
		Operator: r.Operator, Circle: r.Circle, Amount: w.Get(sqlbase.ColAmount, r.Amount), Status: recharge.Status(r.Status),
		OperatorRef: r.OperatorRef, FailReason: r.FailReason, CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt),
		SubmittedAt: sqlbase.TimePtrFromDB(r.SubmittedAt), NextCheckAt: r.NextCheckAt.UTC(), Attempts: r.Attempts,
		ReconcileAt: sqlbase.TimePtrFromDB(r.ReconcileAt),
	}
	if w.Err != nil {
		return out, fmt.Errorf("recharge %d: %w", r.ID, w.Err)
	}
	return out, nil
}

// RechargeStore is the database's recharge.Repository.
type RechargeStore struct{ sqlbase.Base }

var _ recharge.Repository = (*RechargeStore)(nil)

func (s *RechargeStore) Create(ctx context.Context, r *recharge.Recharge) error {
	row, err := toRechargeRow(r)
	if err != nil {
		return fmt.Errorf("insert recharge: %w", err)
	}
	row.ID = 0
	if err := s.Conn(ctx).Create(&row).Error; err != nil {
		if _, dup := sqlbase.DuplicateOf(err); dup {
			return recharge.ErrReferenceReused.Wrap(errs.ErrConflict.Wrap(err))
		}
		return fmt.Errorf("insert recharge %s: %w", r.ReferenceID, sqlbase.Translate(err))
	}
	r.ID = row.ID
	return nil
}

func (s *RechargeStore) find(ctx context.Context, q *gorm.DB) (*recharge.Recharge, error) {
	var row rechargeRow
	if err := q.Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, recharge.ErrNotFound
		}
		return nil, fmt.Errorf("find recharge: %w", sqlbase.Translate(err))
	}
	r, err := toDomainRecharge(&row)
	return &r, err
}

func (s *RechargeStore) ByReference(ctx context.Context, userID uint64, referenceID string) (*recharge.Recharge, error) {
	return s.find(ctx, s.Conn(ctx).Where("user_id = ? AND reference_id = ?", userID, referenceID))
}

func (s *RechargeStore) ByID(ctx context.Context, id uint64) (*recharge.Recharge, error) {
	return s.find(ctx, s.Conn(ctx).Where("id = ?", id))
}

func (s *RechargeStore) Finish(ctx context.Context, r *recharge.Recharge) (bool, error) {
	submitted := r.UpdatedAt
	if r.SubmittedAt != nil {
		submitted = *r.SubmittedAt
	}
	res := s.ByPrimaryKey(ctx, &rechargeRow{}).Where("id = ? AND status = ?", r.ID, string(recharge.StatusPending)).Updates(map[string]any{
		"status": string(r.Status), "operator_ref": r.OperatorRef, "fail_reason": r.FailReason, "updated_at": sqlbase.DBTime(r.UpdatedAt),
		"submitted_at": gorm.Expr("COALESCE(submitted_at, ?)", sqlbase.DBTime(submitted)),
	})
	if res.Error != nil {
		return false, fmt.Errorf("finish recharge %d: %w", r.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *RechargeStore) MarkSubmitted(ctx context.Context, r *recharge.Recharge) (bool, error) {
	if r.SubmittedAt == nil {
		return false, fmt.Errorf("mark recharge %d submitted: no submission time", r.ID)
	}
	res := s.ByPrimaryKey(ctx, &rechargeRow{}).
		Where("id = ? AND status = ? AND submitted_at IS NULL", r.ID, string(recharge.StatusPending)).
		Updates(map[string]any{"submitted_at": sqlbase.DBTime(*r.SubmittedAt), "next_check_at": sqlbase.DBTime(r.NextCheckAt), "updated_at": sqlbase.DBTime(r.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("mark recharge %d submitted: %w", r.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *RechargeStore) Due(ctx context.Context, now time.Time, limit int) ([]recharge.Recharge, error) {
	var rows []rechargeRow
	err := s.Conn(ctx).Where("status = ? AND next_check_at <= ?", string(recharge.StatusPending), sqlbase.DBTime(now)).
		Order("next_check_at").Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list due recharges: %w", sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainRecharge)
}

func (s *RechargeStore) Claim(ctx context.Context, old, next *recharge.Recharge, now time.Time) (bool, error) {
	q := s.ByPrimaryKey(ctx, &rechargeRow{}).Where("id = ? AND status = ? AND attempts = ? AND next_check_at <= ?",
		old.ID, string(recharge.StatusPending), old.Attempts, sqlbase.DBTime(now))
	if old.SubmittedAt == nil {
		q = q.Where("submitted_at IS NULL")
	} else {
		q = q.Where("submitted_at IS NOT NULL")
	}
	res := q.Updates(map[string]any{"attempts": next.Attempts, "next_check_at": sqlbase.DBTime(next.NextCheckAt),
		"reconcile_at": sqlbase.TimePtrToDB(next.ReconcileAt), "updated_at": sqlbase.DBTime(next.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("claim recharge %d: %w", old.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *RechargeStore) List(ctx context.Context, f recharge.Filter) ([]recharge.Recharge, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.NeedsReconciliation {
			q = q.Where("status = ? AND reconcile_at IS NOT NULL", string(recharge.StatusPending))
		}
		return sqlbase.CreatedBetween(q, f.From, f.To)
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "recharges", toDomainRecharge)
}

func (s *RechargeStore) ForEachByUser(ctx context.Context, userID uint64, fn func(recharge.Recharge) error) error {
	if err := sqlbase.ForEachOfUser(s.Conn(ctx), userID, func(r *rechargeRow) uint64 { return r.ID }, toDomainRecharge, fn); err != nil {
		return fmt.Errorf("read recharges of user %d: %w", userID, err)
	}
	return nil
}

type verificationRow struct {
	ID           uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID       uint64     `gorm:"column:user_id"`
	APIKeyID     uint64     `gorm:"column:api_key_id"`
	RequestID    string     `gorm:"column:request_id"`
	Type         string     `gorm:"column:type"`
	Masked       string     `gorm:"column:masked_identifier"`
	Verified     bool       `gorm:"column:verified"`
	NameAtSource *string    `gorm:"column:name_at_source"`
	ReferenceID  string     `gorm:"column:reference_id"`
	Message      *string    `gorm:"column:message"`
	CreatedAt    *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (verificationRow) TableName() string { return "verifications" }

// VerificationStore is the database's verification.Repository.
type VerificationStore struct{ sqlbase.Base }

var _ verification.Repository = (*VerificationStore)(nil)

func (s *VerificationStore) Create(ctx context.Context, v *verification.Record) error {
	r := verificationRow{
		UserID: v.UserID, APIKeyID: v.APIKeyID, RequestID: v.RequestID, Type: string(v.Type), Masked: v.Masked,
		Verified: v.Verified, NameAtSource: sqlbase.NullString(v.NameAtSource), ReferenceID: v.ReferenceID,
		Message: sqlbase.NullString(v.Message), CreatedAt: sqlbase.Stamp(v.CreatedAt),
	}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert verification %s: %w", v.RequestID, sqlbase.Translate(err))
	}
	v.ID = r.ID
	return nil
}
