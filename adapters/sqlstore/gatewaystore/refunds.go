package gatewaystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/gateway/payment"
)

// Refunds of payments and their Idempotency-Keys. A refund ends by a
// conditional update from pending; the refund worker claims one by a
// conditional update of its attempts.

type refundRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	PublicID    string     `gorm:"column:public_id"`
	PaymentID   uint64     `gorm:"column:payment_id"`
	UserID      uint64     `gorm:"column:user_id"`
	Amount      string     `gorm:"column:amount"`
	Reason      string     `gorm:"column:reason"`
	Status      string     `gorm:"column:status"`
	Livemode    bool       `gorm:"column:livemode"`
	ProviderRef *string    `gorm:"column:provider_ref"`
	FailReason  *string    `gorm:"column:fail_reason"`
	Attempts    int        `gorm:"column:attempts"`
	NextCheckAt time.Time  `gorm:"column:next_check_at"`
	CompletedAt *time.Time `gorm:"column:completed_at"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt   *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (refundRow) TableName() string { return "payment_refunds" }

func toRefundRow(r *payment.Refund) (refundRow, error) {
	var w sqlbase.MoneyWriter
	row := refundRow{
		ID: r.ID, PublicID: r.PublicID, PaymentID: r.PaymentID, UserID: r.UserID, Amount: w.Put(sqlbase.ColAmount, r.Amount),
		Reason: r.Reason, Status: string(r.Status), Livemode: r.Livemode, ProviderRef: r.ProviderRef, FailReason: r.FailReason,
		Attempts: r.Attempts, NextCheckAt: sqlbase.DBTime(r.NextCheckAt), CompletedAt: sqlbase.TimePtrToDB(r.CompletedAt),
		CreatedAt: sqlbase.Stamp(r.CreatedAt), UpdatedAt: sqlbase.Stamp(r.UpdatedAt),
	}
	return row, w.Err
}

func toDomainRefund(r *refundRow) (payment.Refund, error) {
	var w sqlbase.MoneyWriter
	out := payment.Refund{
		ID: r.ID, PublicID: r.PublicID, PaymentID: r.PaymentID, UserID: r.UserID, Amount: w.Get(sqlbase.ColAmount, r.Amount),
		Reason: r.Reason, Status: payment.RefundStatus(r.Status), Livemode: r.Livemode, ProviderRef: r.ProviderRef,
		FailReason: r.FailReason, Attempts: r.Attempts, NextCheckAt: r.NextCheckAt.UTC(), CompletedAt: sqlbase.TimePtrFromDB(r.CompletedAt),
		CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if w.Err != nil {
		return out, fmt.Errorf("refund %s: %w", r.PublicID, w.Err)
	}
	return out, nil
}

// RefundStore is the database's payment.RefundRepository.
type RefundStore struct{ sqlbase.Base }

var _ payment.RefundRepository = (*RefundStore)(nil)

func (s *RefundStore) Create(ctx context.Context, r *payment.Refund) error {
	row, err := toRefundRow(r)
	if err != nil {
		return fmt.Errorf("insert refund: %w", err)
	}
	row.ID = 0
	if err := s.Conn(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("insert refund %s: %w", r.PublicID, sqlbase.Translate(err))
	}
	r.ID = row.ID
	return nil
}

func (s *RefundStore) ByID(ctx context.Context, id uint64) (*payment.Refund, error) {
	var row refundRow
	if err := s.Conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, payment.ErrRefundNotFound
		}
		return nil, fmt.Errorf("find refund: %w", sqlbase.Translate(err))
	}
	r, err := toDomainRefund(&row)
	return &r, err
}

func (s *RefundStore) ByPayment(ctx context.Context, paymentID uint64) ([]payment.Refund, error) {
	var rows []refundRow
	if err := s.Conn(ctx).Where("payment_id = ?", paymentID).Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list refunds of payment %d: %w", paymentID, sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainRefund)
}

func (s *RefundStore) Finish(ctx context.Context, r *payment.Refund) (bool, error) {
	res := s.ByPrimaryKey(ctx, &refundRow{}).Where("id = ? AND status = ?", r.ID, string(payment.RefundPending)).Updates(map[string]any{
		"status": string(r.Status), "provider_ref": r.ProviderRef, "fail_reason": r.FailReason,
		"completed_at": sqlbase.TimePtrToDB(r.CompletedAt), "updated_at": sqlbase.DBTime(r.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("finish refund %s: %w", r.PublicID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *RefundStore) Due(ctx context.Context, now time.Time, limit int) ([]payment.Refund, error) {
	var rows []refundRow
	err := s.Conn(ctx).Where("status = ? AND next_check_at <= ?", string(payment.RefundPending), sqlbase.DBTime(now)).
		Order("next_check_at").Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list due refunds: %w", sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainRefund)
}

func (s *RefundStore) Claim(ctx context.Context, old, next *payment.Refund, now time.Time) (bool, error) {
	res := s.ByPrimaryKey(ctx, &refundRow{}).Where("id = ? AND status = ? AND attempts = ? AND next_check_at <= ?",
		old.ID, string(payment.RefundPending), old.Attempts, sqlbase.DBTime(now)).
		Updates(map[string]any{"attempts": next.Attempts, "next_check_at": sqlbase.DBTime(next.NextCheckAt), "updated_at": sqlbase.DBTime(next.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("claim refund %s: %w", old.PublicID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *RefundStore) ForEachByUser(ctx context.Context, userID uint64, fn func(payment.Refund) error) error {
	if err := sqlbase.ForEachOfUser(s.Conn(ctx), userID, func(r *refundRow) uint64 { return r.ID }, toDomainRefund, fn); err != nil {
		return fmt.Errorf("read refunds of user %d: %w", userID, err)
	}
	return nil
}

type refundKeyRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID      uint64     `gorm:"column:user_id"`
	Key         string     `gorm:"column:idem_key"`
	RequestHash string     `gorm:"column:request_hash"`
	RefundID    uint64     `gorm:"column:refund_id"`
	ExpiresAt   time.Time  `gorm:"column:expires_at"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (refundKeyRow) TableName() string { return "refund_idempotency_keys" }

// RefundKeyStore is the database's payment.RefundKeys.
type RefundKeyStore struct{ sqlbase.Base }

var _ payment.RefundKeys = (*RefundKeyStore)(nil)

func (s *RefundKeyStore) Claim(ctx context.Context, k *payment.RefundKey, now time.Time) error {
	// As idempotencyStore.Claim: an expired row is found by a plain read and
	// deleted by its id (no gap lock), a live one fails the insert below.
	var old refundKeyRow
	err := s.Conn(ctx).Select("id").Where("user_id = ? AND idem_key = ? AND expires_at <= ?", k.UserID, k.Key, sqlbase.DBTime(now)).Take(&old).Error
	switch {
	case err == nil:
		if err := s.Conn(ctx).Where("id = ? AND expires_at <= ?", old.ID, sqlbase.DBTime(now)).Delete(&refundKeyRow{}).Error; err != nil {
			return fmt.Errorf("drop expired refund idempotency key: %w", sqlbase.Translate(err))
		}
	case !errors.Is(err, gorm.ErrRecordNotFound):
		return fmt.Errorf("find expired refund idempotency key: %w", sqlbase.Translate(err))
	}
	r := refundKeyRow{UserID: k.UserID, Key: k.Key, RequestHash: k.RequestHash, RefundID: k.RefundID,
		ExpiresAt: sqlbase.DBTime(k.ExpiresAt), CreatedAt: sqlbase.Stamp(k.CreatedAt)}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("claim refund idempotency key: %w", sqlbase.Translate(err))
	}
	return nil
}

func (s *RefundKeyStore) Find(ctx context.Context, userID uint64, key string, now time.Time) (*payment.RefundKey, error) {
	var r refundKeyRow
	err := s.Conn(ctx).Where("user_id = ? AND idem_key = ? AND expires_at > ?", userID, key, sqlbase.DBTime(now)).Take(&r).Error
	if err != nil {
		return nil, fmt.Errorf("find refund idempotency key: %w", sqlbase.Translate(err))
	}
	return &payment.RefundKey{UserID: r.UserID, Key: r.Key, RequestHash: r.RequestHash, RefundID: r.RefundID,
		ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: sqlbase.TimeFromDB(r.CreatedAt)}, nil
}
