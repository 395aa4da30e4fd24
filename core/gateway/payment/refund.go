package payment

import (
	"context"
	"crypto/rand"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// RefundStatus is a refund's state: pending until the provider answers,
// then processed or failed (the merchant's debit given back). Final states
// never change.
type RefundStatus string

const (
	RefundPending   RefundStatus = "pending"
	RefundProcessed RefundStatus = "processed"
	RefundFailed    RefundStatus = "failed"
)

// RefundDeadline is how long a refund may wait for the provider's answer:
// one still pending after it is failed by the refund worker (its money
// given back to the merchant).
const RefundDeadline = 24 * time.Hour

// RefundCheckMax bounds the wait between two questions to the provider
// about a pending refund (the backoff doubles from one minute).
const RefundCheckMax = time.Hour

// Refund is the return of part or all of a successful payment to its payer,
// paid from the merchant's balance.
type Refund struct {
	ID          uint64
	PublicID    string // "rfnd_" + ULID: the refund id clients see
	PaymentID   uint64
	UserID      uint64 // the merchant, whose balance pays it
	Amount      decimal.Decimal
	Reason      string
	Status      RefundStatus
	Livemode    bool // the payment's
	ProviderRef *string
	FailReason  *string
	Attempts    int       // questions the refund worker asked the provider
	NextCheckAt time.Time // when the refund worker asks next (while pending)
	CompletedAt *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

var (
	ErrRefundNotFound = errs.E(errs.NotFound, "refund_not_found", "Refund not found")
	// ErrNotRefundable: only a successful payment has money to give back.
	ErrNotRefundable = errs.E(errs.Conflict, "payment_not_refundable", "Only a successful payment can be refunded")
	// ErrBalanceNotRefundable: a balance top-up paid by checkout became the
	// payer's own balance; it is not given back as a refund.
	ErrBalanceNotRefundable = errs.E(errs.Conflict, "payment_not_refundable", "A balance top-up is not refunded; its money is in your balance")
	// ErrRefundTaken: a refund's state already moved.
	ErrRefundTaken = errs.E(errs.Conflict, "refund_final", "Refund is already completed")
)

// RefundRequest is a merchant's refund, as received.
type RefundRequest struct {
	PaymentID string // the payment's public id
	Amount    string // the JSON number or string, exactly as sent
	Reason    string
}

// MaxRefundReason bounds a refund's reason.
const MaxRefundReason = 255

// NewRefund validates req and returns a pending refund of amount (the
// payment and merchant are filled in by the caller). 422 with per-field
// errors.
func NewRefund(req RefundRequest, now time.Time) (*Refund, error) {
	fe := errs.FieldErrors{}
	if strings.TrimSpace(req.PaymentID) == "" {
		fe.Add("payment_id", "is required")
	}
	raw := strings.TrimSpace(req.Amount)
	amount, ok := inr.Parse(raw, 2)
	switch {
	case raw == "":
		fe.Add("amount", "is required")
	case !ok || !amount.IsPositive():
		fe.Add("amount", "must be a positive amount with at most 2 decimals")
	}
	reason := strings.TrimSpace(req.Reason)
	if len([]rune(reason)) > MaxRefundReason {
		fe.Add("reason", "must be at most 255 characters")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	now = now.UTC()
	return &Refund{
		PublicID: "rfnd_" + ulid.MustNew(ulid.Now(), rand.Reader).String(),
		Amount:   amount, Reason: reason, Status: RefundPending, NextCheckAt: now, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// Refundable is what is left to refund of p: the amount collected less its
// refunds not failed; nothing for a balance top-up.
func (p *Payment) Refundable() decimal.Decimal {
	if p.Status != StatusSuccess || p.Purpose == PurposeBalance {
		return decimal.Zero
	}
	return decimal.Max(decimal.Zero, p.Amount.Sub(p.Refunded))
}

// CheckRefund reports whether p can give back amount now: ErrNotRefundable
// unless p succeeded, ErrBalanceNotRefundable for a balance top-up, a 422 on
// amount when it is more than is left.
func (p *Payment) CheckRefund(amount decimal.Decimal) error {
	if p.Purpose == PurposeBalance {
		return ErrBalanceNotRefundable
	}
	if p.Status != StatusSuccess {
		return ErrNotRefundable
	}
	if left := p.Refundable(); amount.GreaterThan(left) {
		return errs.Validation(map[string][]string{"amount": {"must be at most " + inr.Format2(left) + ", what is left to refund of this payment"}})
	}
	return nil
}

// RefundOutcome is the provider's answer about a refund.
type RefundOutcome struct {
	Status      RefundStatus // pending: not decided yet
	ProviderRef string
	Reason      string // why it failed
}

// Finish is r ended by o at now (o.Status processed or failed).
func (r Refund) Finish(o RefundOutcome, now time.Time) Refund {
	now = now.UTC()
	r.Status, r.UpdatedAt, r.CompletedAt = o.Status, now, &now
	if o.ProviderRef != "" {
		ref := o.ProviderRef
		r.ProviderRef = &ref
	}
	if o.Status == RefundFailed {
		reason := o.Reason
		if reason == "" {
			reason = "Refund declined by the provider"
		}
		r.FailReason = &reason
	}
	return r
}

// Claim is r as the refund worker takes it at now: one more attempt, the
// next question pushed back (1 min, 2 min, 4 min, … up to RefundCheckMax),
// so another worker does not take it meanwhile.
func (r Refund) Claim(now time.Time) Refund {
	now = now.UTC()
	wait := time.Minute << min(r.Attempts, 10)
	r.Attempts++
	r.NextCheckAt, r.UpdatedAt = now.Add(min(wait, RefundCheckMax)), now
	return r
}

// Overdue reports whether r, still pending, has waited past RefundDeadline.
func (r *Refund) Overdue(now time.Time) bool {
	return r.Status == RefundPending && !now.Before(r.CreatedAt.Add(RefundDeadline))
}

// RefundRepository stores refunds. Finish is the only way a state changes:
// a conditional update from pending, so of the request and the workers
// only one ends a refund.
type RefundRepository interface {
	Create(ctx context.Context, r *Refund) error
	ByID(ctx context.Context, id uint64) (*Refund, error) // ErrRefundNotFound
	// ByPayment lists a payment's refunds, oldest first.
	ByPayment(ctx context.Context, paymentID uint64) ([]Refund, error)
	// Finish writes r's end state if the row is still pending; false when
	// another writer ended it first.
	Finish(ctx context.Context, r *Refund) (bool, error)
	// Due lists pending refunds whose next check is at or before now.
	Due(ctx context.Context, now time.Time, limit int) ([]Refund, error)
	// Claim writes next's attempts and next check if the row is still
	// pending with old's attempts and due at now; false when another
	// worker claimed it first.
	Claim(ctx context.Context, old, next *Refund, now time.Time) (bool, error)
	// ForEachByUser visits a merchant's refunds in id order.
	ForEachByUser(ctx context.Context, userID uint64, fn func(Refund) error) error
}

// RefundKey remembers which refund a merchant's Idempotency-Key made, and
// a hash of the request it came with.
type RefundKey struct {
	UserID      uint64
	Key         string
	RequestHash string
	RefundID    uint64
	ExpiresAt   time.Time
	CreatedAt   time.Time
}

// RefundKeys stores refunds' Idempotency-Keys as IdempotencyKeys stores
// payments': Claim in the transaction that creates the refund
// (errs.ErrConflict when a live row holds the key), Find the live row
// (errs.ErrNotFound).
type RefundKeys interface {
	Claim(ctx context.Context, k *RefundKey, now time.Time) error
	Find(ctx context.Context, userID uint64, key string, now time.Time) (*RefundKey, error)
}
