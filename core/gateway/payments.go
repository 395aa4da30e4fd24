package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/gateway/payment"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// MaxPaymentAmount bounds one payment: the common UPI per-transaction limit.
var MaxPaymentAmount = decimal.NewFromInt(100000)

// PaymentInput is one POST /api/v1/payment/create.
type PaymentInput struct {
	RequestID, IP  string
	Creds          metering.Credentials
	IdempotencyKey string // the header; empty when not sent
	Create         payment.Create
	BodyErrors     BodyErrors
}

// PaymentCreated is the payment made (or found again by its Idempotency-Key).
type PaymentCreated struct {
	metering.Charge
	Payment payment.Payment
	URL     string // the hosted checkout page
}

// CreatePayment creates a payment billed through the payment-create service.
// With an Idempotency-Key, the key is claimed in the transaction that
// creates the payment (a unique (user, key) index): the same key and request
// answer the first payment, also under concurrent duplicates; the same key
// with another request is 409. Keys are kept 24 hours.
func (a *Gateway) CreatePayment(ctx context.Context, in PaymentInput) (*PaymentCreated, error) {
	now := a.now()
	p, invalid := payment.New(in.Create, 0, 0, MaxPaymentAmount, now)
	if p != nil {
		p.Livemode = a.liveBooks() // no provider: nobody collects, not live
	}
	invalid = withBodyErrors(invalid, in.BodyErrors)
	if in.IdempotencyKey != "" && !payment.ValidIdempotencyKey(in.IdempotencyKey) {
		fe := map[string][]string{}
		if e, ok := errs.As(invalid); ok {
			for k, v := range e.Fields {
				fe[k] = v
			}
		}
		fe["Idempotency-Key"] = payment.ErrIdempotencyKeyInvalid.Fields["Idempotency-Key"]
		invalid = errs.Validation(fe)
	}
	if p != nil {
		if msg := webhook.TargetProblem(a.targets, p.CallbackURL); msg != "" {
			invalid = withFieldError(invalid, "callback_url", msg)
		}
	}
	hash := ""
	if p != nil {
		h := sha256.Sum256([]byte(strings.Join([]string{p.Amount.StringFixed(2), p.Currency, p.CustomerID, p.CallbackURL}, "\x00")))
		hash = hex.EncodeToString(h[:])
	}
	out := &PaymentCreated{}
	payload := map[string]any{"amount": in.Create.Amount, "currency": in.Create.Currency,
		"customer_id": in.Create.CustomerID, "callback_url": in.Create.CallbackURL}
	if in.IdempotencyKey != "" {
		payload["idempotency_key"] = in.IdempotencyKey
	}
	op := metering.Op{
		Slug: SlugPaymentCreate, RequestID: in.RequestID, Creds: in.Creds, IP: in.IP, Payload: payload, Invalid: invalid,
		Perform: func(context.Context, *hitlog.Hit) (any, error) {
			return map[string]any{"status": "success", "payment_id": p.PublicID, "payment_url": a.paymentURL(p.PublicID)}, nil
		},
	}
	if in.IdempotencyKey != "" {
		op.Replay = func(ctx context.Context, _ *apikey.Key, u *user.User) (bool, error) {
			return a.replayPayment(ctx, u, in.IdempotencyKey, hash, p)
		}
	}
	// The key, the price, the allow lists and the daily count; a request
	// already answered (its Idempotency-Key) is answered again, unbilled.
	bill, charge, err := a.meter.Open(ctx, op)
	if err != nil {
		return nil, err
	}
	if charge == nil {
		// One transaction: the charge (the merchant's row locked, the call
		// admitted, its pending hit and debit), then the payment row and
		// its Idempotency-Key.
		err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
			u, hit, err := bill.Reserve(ctx, s.Metering)
			if err != nil || u == nil {
				return err // u nil: refused, its hit written
			}
			p.UserID, p.APIKeyID = u.ID, hit.APIKeyID
			if err := s.Payments.Create(ctx, p); err != nil {
				return err
			}
			if in.IdempotencyKey == "" {
				return nil
			}
			return s.Idempotency.Claim(ctx, &payment.IdempotencyKey{
				UserID: u.ID, Key: in.IdempotencyKey, RequestHash: hash, PaymentID: p.ID,
				ExpiresAt: now.UTC().Add(payment.IdempotencyTTL), CreatedAt: now.UTC(),
			}, now.UTC())
		})
		// Its outcome: a refusal answered, a concurrent duplicate's key
		// answered as its retry, else the call settled (no provider: the
		// payer acts on the checkout page).
		if charge, err = bill.Run(ctx, err); err != nil {
			return nil, err
		}
	}
	out.Charge = *charge
	out.Payment = *p
	out.URL = a.paymentURL(p.PublicID)
	return out, nil
}

// replayPayment finds the payment of an earlier request with the same
// Idempotency-Key (into p): true when there is one; the key reused for
// another request (hash) is payment.ErrIdempotencyReused.
func (a *Gateway) replayPayment(ctx context.Context, u *user.User, key, hash string, p *payment.Payment) (bool, error) {
	k, err := a.st.Idempotency.Find(ctx, u.ID, key, a.now().UTC())
	if errs.KindOf(err) == errs.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if k.RequestHash != hash {
		return false, payment.ErrIdempotencyReused
	}
	first, err := a.st.Payments.ByID(ctx, k.PaymentID)
	if err != nil {
		return false, fmt.Errorf("payment of idempotency key: %w", err)
	}
	*p = *first
	return true, nil
}

func (a *Gateway) paymentURL(publicID string) string { return a.cfg.PublicBaseURL + "/" + publicID }

// PaymentURL is the hosted checkout page of a payment.
func (a *Gateway) PaymentURL(publicID string) string { return a.paymentURL(publicID) }

// PaymentStatus is GET /api/v1/payment/status: the key owner's payment
// (another merchant's is not found).
func (a *Gateway) PaymentStatus(ctx context.Context, c KeyCaller, publicID string) (*payment.Payment, error) {
	_, u, err := a.meter.AuthenticateGateway(ctx, c.Creds, c.IP)
	if err != nil {
		return nil, err
	}
	p, err := a.findPayment(ctx, publicID)
	if err != nil {
		return nil, err
	}
	if p.UserID != u.ID {
		return nil, payment.ErrNotFound
	}
	return p, nil
}

// findPayment reads a payment, expiring it first when its lifetime is over
// and the expiry worker has not come by yet.
func (a *Gateway) findPayment(ctx context.Context, publicID string) (*payment.Payment, error) {
	if !strings.HasPrefix(publicID, "pay_") || len(publicID) > 40 {
		return nil, payment.ErrNotFound
	}
	p, err := a.st.Payments.ByPublicID(ctx, publicID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, payment.ErrNotFound
		}
		return nil, err
	}
	if !p.Status.Final() && p.CreditHeldAt == nil && !a.now().Before(p.ExpiresAt) {
		if _, err := a.movePayment(ctx, p, payment.StatusExpired, "expiry"); err != nil && !errors.Is(err, payment.ErrFinal) && !errors.Is(err, payment.ErrCreditHeld) {
			return nil, err
		}
	}
	return p, nil
}

// ExpirePayments moves open payments past their lifetime to expired (the
// expiry worker). Safe with several instances: conditional updates. It
// returns how many this call expired.
func (a *Gateway) ExpirePayments(ctx context.Context, limit int) (int, error) {
	list, err := a.st.Payments.Expirable(ctx, a.now().UTC(), limit)
	if err != nil {
		return 0, err
	}
	n := 0
	for i := range list {
		ok, err := a.movePayment(ctx, &list[i], payment.StatusExpired, "expiry")
		if err != nil && !errors.Is(err, payment.ErrFinal) && !errors.Is(err, payment.ErrCreditHeld) { // held since the list was read
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// ListPayments lists payments: a user's own, an admin's all (or f.UserID's).
func (a *Gateway) ListPayments(ctx context.Context, actor *user.User, f payment.Filter) ([]payment.Payment, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return a.st.Payments.List(ctx, f)
}

// purposeOf is p's purpose as clients see it.
func purposeOf(p *payment.Payment) payment.Purpose {
	if p.Purpose == "" {
		return payment.PurposeCollection
	}
	return p.Purpose
}

// liveBooks reports whether this instance takes real money: its payment
// provider is live. Payments store it at creation; events of the
// platform's own books (balance.low here) take it as their livemode.
func (a *Gateway) liveBooks() bool { return a.payments != nil && !a.payments.Sandbox() }
