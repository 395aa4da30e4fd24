package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/core/gateway/payment"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/platform/errs"
)

// Gateway records: payments and their Idempotency-Keys, recharges,
// verifications. State changes are conditional updates on the state the
// caller read, so several instances never both win a transition.

type paymentRow struct {
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

func (paymentRow) TableName() string { return "payments" }

func toPaymentRow(p *payment.Payment) (paymentRow, error) {
	var w moneyWriter
	r := paymentRow{
		ID: p.ID, PublicID: p.PublicID, UserID: p.UserID, APIKeyID: p.APIKeyID, Amount: w.put(colAmount, p.Amount),
		Currency: p.Currency, CustomerID: p.CustomerID, CallbackURL: p.CallbackURL, Status: string(p.Status),
		ProviderRef: p.ProviderRef, Livemode: p.Livemode, UTR: p.UTR, ExpiresAt: dbTime(p.ExpiresAt), CompletedAt: timePtrToDB(p.CompletedAt),
		CreatedAt: stamp(p.CreatedAt), UpdatedAt: stamp(p.UpdatedAt), Refunded: w.put(colAmount, p.Refunded),
		Purpose: string(p.Purpose), Fee: w.put(colFee, p.Fee), CreditHeld: timePtrToDB(p.CreditHeldAt),
	}
	if r.Purpose == "" {
		r.Purpose = string(payment.PurposeCollection)
	}
	return r, w.err
}

func toDomainPayment(r *paymentRow) (payment.Payment, error) {
	var w moneyWriter
	p := payment.Payment{
		ID: r.ID, PublicID: r.PublicID, UserID: r.UserID, APIKeyID: r.APIKeyID, Amount: w.get(colAmount, r.Amount),
		Currency: r.Currency, CustomerID: r.CustomerID, CallbackURL: r.CallbackURL, Status: payment.Status(r.Status),
		ProviderRef: r.ProviderRef, Livemode: r.Livemode, UTR: r.UTR, ExpiresAt: r.ExpiresAt.UTC(), CompletedAt: timePtrFromDB(r.CompletedAt),
		CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt), Refunded: w.get(colAmount, r.Refunded),
		Purpose: payment.Purpose(r.Purpose), Fee: w.get(colFee, r.Fee), CreditHeldAt: timePtrFromDB(r.CreditHeld),
	}
	if w.err != nil {
		return p, fmt.Errorf("payment %s: %w", r.PublicID, w.err)
	}
	return p, nil
}

type paymentStore struct{ base }

var _ payment.Repository = (*paymentStore)(nil)

func (s *paymentStore) Create(ctx context.Context, p *payment.Payment) error {
	r, err := toPaymentRow(p)
	if err != nil {
		return fmt.Errorf("insert payment: %w", err)
	}
	r.ID = 0
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert payment %s: %w", p.PublicID, translate(err))
	}
	p.ID = r.ID
	return nil
}

func (s *paymentStore) find(ctx context.Context, column string, v any) (*payment.Payment, error) {
	return s.findOn(s.conn(ctx), column, v)
}

func (s *paymentStore) findOn(q *gorm.DB, column string, v any) (*payment.Payment, error) {
	var r paymentRow
	if err := q.Where(column+" = ?", v).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, payment.ErrNotFound
		}
		return nil, fmt.Errorf("find payment: %w", translate(err))
	}
	p, err := toDomainPayment(&r)
	return &p, err
}

func (s *paymentStore) ByPublicID(ctx context.Context, publicID string) (*payment.Payment, error) {
	return s.find(ctx, "public_id", publicID)
}

func (s *paymentStore) ByID(ctx context.Context, id uint64) (*payment.Payment, error) {
	return s.find(ctx, "id", id)
}

func (s *paymentStore) LockByID(ctx context.Context, id uint64) (*payment.Payment, error) {
	return s.findOn(s.locking(s.conn(ctx)), "id", id)
}

func (s *paymentStore) SaveRefunded(ctx context.Context, p *payment.Payment) error {
	var w moneyWriter
	v := w.put(colAmount, p.Refunded)
	if w.err != nil {
		return fmt.Errorf("save refunded total of payment %s: %w", p.PublicID, w.err)
	}
	if err := s.conn(ctx).Model(&paymentRow{}).Where("id = ?", p.ID).Update("refunded_amount", v).Error; err != nil {
		return fmt.Errorf("save refunded total of payment %s: %w", p.PublicID, translate(err))
	}
	return nil
}

func (s *paymentStore) Transition(ctx context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	fee, err := colFee.toDB(p.Fee)
	if err != nil {
		return false, fmt.Errorf("move payment %s: %w", p.PublicID, err)
	}
	res := s.byID(ctx, &paymentRow{}).Where("id = ? AND status = ?", p.ID, string(from)).Updates(map[string]any{
		"status": string(p.Status), "provider_ref": p.ProviderRef, "completed_at": timePtrToDB(p.CompletedAt),
		"updated_at": dbTime(p.UpdatedAt), "fee": fee,
	})
	if res.Error != nil {
		return false, fmt.Errorf("move payment %s to %s: %w", p.PublicID, p.Status, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *paymentStore) SubmitUTR(ctx context.Context, p *payment.Payment, from payment.Status, prev *string) (bool, error) {
	q := s.byID(ctx, &paymentRow{}).Where("id = ? AND status = ?", p.ID, string(from))
	if prev == nil {
		q = q.Where("utr IS NULL")
	} else {
		q = q.Where("utr = ?", *prev)
	}
	res := q.Updates(map[string]any{
		"status": string(p.Status), "utr": p.UTR, "expires_at": dbTime(p.ExpiresAt), "updated_at": dbTime(p.UpdatedAt),
	})
	if res.Error != nil {
		if errs.KindOf(translate(res.Error)) == errs.Conflict {
			return false, payment.ErrUTRTaken.Wrap(res.Error)
		}
		return false, fmt.Errorf("record UTR of payment %s: %w", p.PublicID, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *paymentStore) HoldCredit(ctx context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	res := s.byID(ctx, &paymentRow{}).Where("id = ? AND status = ?", p.ID, string(from)).Updates(map[string]any{
		"status": string(p.Status), "credit_held_at": timePtrToDB(p.CreditHeldAt), "updated_at": dbTime(p.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("hold credit of payment %s: %w", p.PublicID, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *paymentStore) Expirable(ctx context.Context, now time.Time, limit int) ([]payment.Payment, error) {
	var rows []paymentRow
	err := s.conn(ctx).Where("status IN ? AND expires_at <= ? AND credit_held_at IS NULL", []string{string(payment.StatusCreated), string(payment.StatusPending)}, dbTime(now)).
		Order("expires_at").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list expirable payments: %w", translate(err))
	}
	return convertRows(rows, toDomainPayment)
}

func (s *paymentStore) List(ctx context.Context, f payment.Filter) ([]payment.Payment, int64, error) {
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
		return createdBetween(q, f.From, f.To)
	}
	return pageNewest(s.conn(ctx), filter, f.Page, f.PerPage, "payments", toDomainPayment)
}

func (s *paymentStore) ForEachByUser(ctx context.Context, userID uint64, fn func(payment.Payment) error) error {
	if err := forEachOfUser(s.conn(ctx), userID, func(r *paymentRow) uint64 { return r.ID }, toDomainPayment, fn); err != nil {
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

type idempotencyStore struct{ base }

var _ payment.IdempotencyKeys = (*idempotencyStore)(nil)

func (s *idempotencyStore) Claim(ctx context.Context, k *payment.IdempotencyKey, now time.Time) error {
	// An expired row of the same key gives way; a live one makes the insert
	// below fail on the unique (user_id, idem_key) index. The expired row is
	// found by a plain read and deleted by its id: a DELETE by a missing key
	// would take an InnoDB gap lock, and two such transactions inserting
	// into the same gap deadlock.
	var old idempotencyRow
	err := s.conn(ctx).Select("id").Where("user_id = ? AND idem_key = ? AND expires_at <= ?", k.UserID, k.Key, dbTime(now)).Take(&old).Error
	switch {
	case err == nil:
		if err := s.conn(ctx).Where("id = ? AND expires_at <= ?", old.ID, dbTime(now)).Delete(&idempotencyRow{}).Error; err != nil {
			return fmt.Errorf("drop expired idempotency key: %w", translate(err))
		}
	case !errors.Is(err, gorm.ErrRecordNotFound):
		return fmt.Errorf("find expired idempotency key: %w", translate(err))
	}
	r := idempotencyRow{UserID: k.UserID, Key: k.Key, RequestHash: k.RequestHash, PaymentID: k.PaymentID,
		ExpiresAt: dbTime(k.ExpiresAt), CreatedAt: stamp(k.CreatedAt)}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("claim idempotency key: %w", translate(err))
	}
	return nil
}

func (s *idempotencyStore) Find(ctx context.Context, userID uint64, key string, now time.Time) (*payment.IdempotencyKey, error) {
	var r idempotencyRow
	err := s.conn(ctx).Where("user_id = ? AND idem_key = ? AND expires_at > ?", userID, key, dbTime(now)).Take(&r).Error
	if err != nil {
		return nil, fmt.Errorf("find idempotency key: %w", translate(err))
	}
	return &payment.IdempotencyKey{UserID: r.UserID, Key: r.Key, RequestHash: r.RequestHash, PaymentID: r.PaymentID,
		ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: timeFromDB(r.CreatedAt)}, nil
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
	var w moneyWriter
	row := rechargeRow{
		ID: r.ID, UserID: r.UserID, APIKeyID: r.APIKeyID, ReferenceID: r.ReferenceID, Mobile: r.Mobile,
		Operator: r.Operator, Circle: r.Circle, Amount: w.put(colAmount, r.Amount), Status: string(r.Status),
		OperatorRef: r.OperatorRef, FailReason: r.FailReason, CreatedAt: stamp(r.CreatedAt), UpdatedAt: stamp(r.UpdatedAt),
		SubmittedAt: timePtrToDB(r.SubmittedAt), NextCheckAt: dbTime(r.NextCheckAt), Attempts: r.Attempts,
		ReconcileAt: timePtrToDB(r.ReconcileAt),
	}
	return row, w.err
}

func toDomainRecharge(r *rechargeRow) (recharge.Recharge, error) {
	var w moneyWriter
	out := recharge.Recharge{
		ID: r.ID, UserID: r.UserID, APIKeyID: r.APIKeyID, ReferenceID: r.ReferenceID, Mobile: r.Mobile,
		Operator: r.Operator, Circle: r.Circle, Amount: w.get(colAmount, r.Amount), Status: recharge.Status(r.Status),
		OperatorRef: r.OperatorRef, FailReason: r.FailReason, CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt),
		SubmittedAt: timePtrFromDB(r.SubmittedAt), NextCheckAt: r.NextCheckAt.UTC(), Attempts: r.Attempts,
		ReconcileAt: timePtrFromDB(r.ReconcileAt),
	}
	if w.err != nil {
		return out, fmt.Errorf("recharge %d: %w", r.ID, w.err)
	}
	return out, nil
}

type rechargeStore struct{ base }

var _ recharge.Repository = (*rechargeStore)(nil)

func (s *rechargeStore) Create(ctx context.Context, r *recharge.Recharge) error {
	row, err := toRechargeRow(r)
	if err != nil {
		return fmt.Errorf("insert recharge: %w", err)
	}
	row.ID = 0
	if err := s.conn(ctx).Create(&row).Error; err != nil {
		if _, dup := duplicateOf(err); dup {
			return recharge.ErrReferenceReused.Wrap(errs.ErrConflict.Wrap(err))
		}
		return fmt.Errorf("insert recharge %s: %w", r.ReferenceID, translate(err))
	}
	r.ID = row.ID
	return nil
}

func (s *rechargeStore) find(ctx context.Context, q *gorm.DB) (*recharge.Recharge, error) {
	var row rechargeRow
	if err := q.Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, recharge.ErrNotFound
		}
		return nil, fmt.Errorf("find recharge: %w", translate(err))
	}
	r, err := toDomainRecharge(&row)
	return &r, err
}

func (s *rechargeStore) ByReference(ctx context.Context, userID uint64, referenceID string) (*recharge.Recharge, error) {
	return s.find(ctx, s.conn(ctx).Where("user_id = ? AND reference_id = ?", userID, referenceID))
}

func (s *rechargeStore) ByID(ctx context.Context, id uint64) (*recharge.Recharge, error) {
	return s.find(ctx, s.conn(ctx).Where("id = ?", id))
}

func (s *rechargeStore) Finish(ctx context.Context, r *recharge.Recharge) (bool, error) {
	submitted := r.UpdatedAt
	if r.SubmittedAt != nil {
		submitted = *r.SubmittedAt
	}
	res := s.byID(ctx, &rechargeRow{}).Where("id = ? AND status = ?", r.ID, string(recharge.StatusPending)).Updates(map[string]any{
		"status": string(r.Status), "operator_ref": r.OperatorRef, "fail_reason": r.FailReason, "updated_at": dbTime(r.UpdatedAt),
		"submitted_at": gorm.Expr("COALESCE(submitted_at, ?)", dbTime(submitted)),
	})
	if res.Error != nil {
		return false, fmt.Errorf("finish recharge %d: %w", r.ID, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *rechargeStore) MarkSubmitted(ctx context.Context, r *recharge.Recharge) (bool, error) {
	if r.SubmittedAt == nil {
		return false, fmt.Errorf("mark recharge %d submitted: no submission time", r.ID)
	}
	res := s.byID(ctx, &rechargeRow{}).
		Where("id = ? AND status = ? AND submitted_at IS NULL", r.ID, string(recharge.StatusPending)).
		Updates(map[string]any{"submitted_at": dbTime(*r.SubmittedAt), "next_check_at": dbTime(r.NextCheckAt), "updated_at": dbTime(r.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("mark recharge %d submitted: %w", r.ID, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *rechargeStore) Due(ctx context.Context, now time.Time, limit int) ([]recharge.Recharge, error) {
	var rows []rechargeRow
	err := s.conn(ctx).Where("status = ? AND next_check_at <= ?", string(recharge.StatusPending), dbTime(now)).
		Order("next_check_at").Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list due recharges: %w", translate(err))
	}
	return convertRows(rows, toDomainRecharge)
}

func (s *rechargeStore) Claim(ctx context.Context, old, next *recharge.Recharge, now time.Time) (bool, error) {
	q := s.byID(ctx, &rechargeRow{}).Where("id = ? AND status = ? AND attempts = ? AND next_check_at <= ?",
		old.ID, string(recharge.StatusPending), old.Attempts, dbTime(now))
	if old.SubmittedAt == nil {
		q = q.Where("submitted_at IS NULL")
	} else {
		q = q.Where("submitted_at IS NOT NULL")
	}
	res := q.Updates(map[string]any{"attempts": next.Attempts, "next_check_at": dbTime(next.NextCheckAt),
		"reconcile_at": timePtrToDB(next.ReconcileAt), "updated_at": dbTime(next.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("claim recharge %d: %w", old.ID, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *rechargeStore) List(ctx context.Context, f recharge.Filter) ([]recharge.Recharge, int64, error) {
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
		return createdBetween(q, f.From, f.To)
	}
	return pageNewest(s.conn(ctx), filter, f.Page, f.PerPage, "recharges", toDomainRecharge)
}

func (s *rechargeStore) ForEachByUser(ctx context.Context, userID uint64, fn func(recharge.Recharge) error) error {
	if err := forEachOfUser(s.conn(ctx), userID, func(r *rechargeRow) uint64 { return r.ID }, toDomainRecharge, fn); err != nil {
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

type verificationStore struct{ base }

var _ verification.Repository = (*verificationStore)(nil)

func (s *verificationStore) Create(ctx context.Context, v *verification.Record) error {
	r := verificationRow{
		UserID: v.UserID, APIKeyID: v.APIKeyID, RequestID: v.RequestID, Type: string(v.Type), Masked: v.Masked,
		Verified: v.Verified, NameAtSource: nullString(v.NameAtSource), ReferenceID: v.ReferenceID,
		Message: nullString(v.Message), CreatedAt: stamp(v.CreatedAt),
	}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert verification %s: %w", v.RequestID, translate(err))
	}
	v.ID = r.ID
	return nil
}
