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
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
	"paygate/core/platform/utr"
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
		Reserve: func(ctx context.Context, s metering.TxStores, u *user.User, hit *hitlog.Hit) error {
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
		},
		Perform: func(context.Context, *hitlog.Hit) (any, error) {
			return map[string]any{"status": "success", "payment_id": p.PublicID, "payment_url": a.paymentURL(p.PublicID)}, nil
		},
	}
	if in.IdempotencyKey != "" {
		op.Replay = func(ctx context.Context, _ *apikey.Key, u *user.User) (bool, error) {
			k, err := a.st.Idempotency.Find(ctx, u.ID, in.IdempotencyKey, a.now().UTC())
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
	}
	charge, err := a.meter.Meter(ctx, op)
	if err != nil {
		return nil, err
	}
	out.Charge = *charge
	out.Payment = *p
	out.URL = a.paymentURL(p.PublicID)
	return out, nil
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

// movePayment moves p forward with a conditional update, in one
// transaction with what the move entails (settleIn); when another writer
// moved it first, p is reloaded and the move reported as lost (false).
// ErrFinal when p had already ended.
func (a *Gateway) movePayment(ctx context.Context, p *payment.Payment, to payment.Status, by string) (bool, error) {
	from := p.Status
	next := *p
	if err := next.Move(to, a.now()); err != nil {
		return false, err
	}
	ok := false
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		var err error
		ok, err = a.settleIn(ctx, s.SettleStores, &next, from, by)
		return err
	})
	if errors.Is(err, payment.ErrCreditHeld) {
		if herr := a.HoldCredit(ctx, p.ID, by); herr != nil {
			return false, errors.Join(err, herr)
		}
		if cur, rerr := a.st.Payments.ByID(ctx, p.ID); rerr == nil {
			*p = *cur
		}
	}
	if err != nil {
		return false, err
	}
	if ok {
		*p = next
		a.CountPaymentEnded(next.Status)
		return true, nil
	}
	cur, err := a.st.Payments.ByID(ctx, p.ID)
	if err != nil {
		return false, err
	}
	*p = *cur
	return false, nil
}

// settleIn writes next (moved from state from) in the caller's transaction
// s. The conditional update is the guard: only the transaction whose update
// finds the row still in state from goes on, so of racing writers (the
// payer, the expiry worker, another instance, reconciliation) exactly one
// wins, and a success credits exactly once. The winner of a success credits
// the beneficiary (creditIn); any end state writes its payment.* event.
// false when another writer moved the payment first (nothing written).
func (a *Gateway) settleIn(ctx context.Context, s SettleStores, next *payment.Payment, from payment.Status, by string) (bool, error) {
	var owner *user.User
	var feePercent decimal.Decimal
	if next.Status == payment.StatusSuccess {
		// The beneficiary's row lock comes first: its fee decides the
		// payment's fee column, written by the same conditional update.
		u, err := s.Users.LockByID(ctx, next.UserID)
		if err != nil {
			return false, fmt.Errorf("lock beneficiary of %s: %w", next.PublicID, err)
		}
		if !inr.FitsColumn(u.Balance.Add(next.Amount), 12, 2) {
			return false, payment.ErrCreditHeld // nothing written; the caller holds it (HoldCredit)
		}
		owner = u
		next.Fee = decimal.Zero
		if next.Purpose != payment.PurposeBalance {
			if feePercent, err = collectionFeePercent(ctx, s, u); err != nil {
				return false, err
			}
			next.Fee = payment.CollectionFee(next.Amount, feePercent)
		}
	}
	ok, err := s.Payments.Transition(ctx, next, from)
	if err != nil || !ok {
		return false, err
	}
	if owner != nil {
		if err := a.creditIn(ctx, s, owner, next, feePercent, by); err != nil {
			return false, err
		}
	}
	return true, a.emitPayment(ctx, s, next) // an end state's event, in the same transaction
}

// collectionFeePercent is the collection fee that applies to u: for a
// reseller's customer the higher of its own and its reseller's
// (user.EffectiveLimits), so a customer never collects cheaper than its
// reseller.
func collectionFeePercent(ctx context.Context, s SettleStores, u *user.User) (decimal.Decimal, error) {
	var reseller *user.User
	if u.ParentID != nil {
		r, err := s.Users.ByID(ctx, *u.ParentID)
		if err != nil {
			return decimal.Zero, fmt.Errorf("read reseller %d: %w", *u.ParentID, err)
		}
		reseller = r
	}
	return user.EffectiveLimits(u, reseller).CollectionFeePercent, nil
}

// creditIn posts a successful payment's money to u (locked in s): a credit
// of the amount (reference payment #id) and, for a collection with a fee,
// a debit of p.Fee (reference payment_fee #id) at feePercent.
func (a *Gateway) creditIn(ctx context.Context, s SettleStores, u *user.User, p *payment.Payment, feePercent decimal.Decimal, by string) error {
	ref := p.ID
	desc := "Payment " + p.PublicID + " collected"
	if p.Purpose == payment.PurposeBalance {
		desc = "Balance added by payment " + p.PublicID
	}
	if p.ProviderRef != nil && *p.ProviderRef != "" {
		desc += " (ref " + *p.ProviderRef + ")"
	}
	if by != "" {
		desc += ", confirmed by " + by
	}
	now := a.now()
	if _, err := store.Post(ctx, s.Books, now, p.Livemode, u, ledger.Credit, p.Amount, ledger.RefPayment, &ref, desc); err != nil {
		return fmt.Errorf("credit payment %s: %w", p.PublicID, err)
	}
	if p.Fee.IsPositive() {
		feeDesc := "Collection fee " + feePercent.StringFixed(2) + "% on payment " + p.PublicID
		if _, err := store.Post(ctx, s.Books, now, p.Livemode, u, ledger.Debit, p.Fee, ledger.RefPaymentFee, &ref, feeDesc); err != nil {
			return fmt.Errorf("fee of payment %s: %w", p.PublicID, err)
		}
	}
	return s.Users.SaveBalance(ctx, u)
}

// CompletePayment moves an open payment (created or pending) to success and,
// in the same transaction, credits its merchant (a ledger credit with
// reference_type payment, and a payment_fee debit when the merchant's
// collection fee is above zero) or, for a balance checkout, the payer's own
// balance with no fee. ref is the UTR or provider reference (stored as
// provider_ref when not empty); by names who confirmed it ("checkout",
// "reconciliation", ...) for the ledger description. A payment that already
// ended, or that a concurrent writer ended first, answers payment.ErrFinal;
// one past its lifetime payment.ErrExpired (whether or not the expiry worker
// came by): either way nothing is posted. One the beneficiary's balance
// cannot hold is held (HoldCredit) and answers payment.ErrCreditHeld.
func (a *Gateway) CompletePayment(ctx context.Context, paymentID uint64, ref, by string) (*payment.Payment, error) {
	var out *payment.Payment
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		var err error
		out, err = a.CompletePaymentIn(ctx, s.SettleStores, paymentID, ref, by)
		return err
	})
	if errors.Is(err, payment.ErrCreditHeld) {
		if herr := a.HoldCredit(ctx, paymentID, by); herr != nil {
			return nil, errors.Join(err, herr)
		}
	}
	if err != nil {
		return nil, err
	}
	a.CountPaymentEnded(out.Status)
	return out, nil
}

// HoldCredit holds the payment paymentID, whose confirmed success its
// beneficiary's balance could not hold (payment.ErrCreditHeld, which
// rolled the completing transaction back): it stays pending and never
// expires or fails, the operator gets an error log line and a metric, and
// admins see it (HeldCollections) until a retry completes it. by names who
// confirmed it. A payment that ended meanwhile is left alone.
func (a *Gateway) HoldCredit(ctx context.Context, paymentID uint64, by string) error {
	for range 3 { // another writer moved it between the read and the update: read again
		p, err := a.st.Payments.ByID(ctx, paymentID)
		if err != nil {
			return err
		}
		from, next := p.Status, *p
		if err := next.HoldCredit(a.now()); err != nil {
			return nil // ended meanwhile: nothing is held
		}
		ok, err := a.st.Payments.HoldCredit(ctx, &next, from)
		if err != nil {
			return err
		}
		if ok {
			a.log.Error("collection held: the beneficiary's balance cannot hold its credit",
				"payment_id", p.PublicID, "user_id", p.UserID, "amount", inr.Format2(p.Amount), "confirmed_by", by)
			a.metrics.CollectionHeld()
			return nil
		}
	}
	return fmt.Errorf("hold credit of payment %d: moved by other writers three times", paymentID)
}

// HeldCollections lists the open payments whose credit is held, newest
// first (admin only).
func (a *Gateway) HeldCollections(ctx context.Context, actor *user.User, page, perPage int) ([]payment.Payment, int64, error) {
	if actor == nil || actor.Role != user.RoleAdmin {
		return nil, 0, errs.ErrForbidden
	}
	return a.st.Payments.List(ctx, payment.Filter{Held: true, Page: page, PerPage: perPage})
}

// Audit action and target type of an admin's retry of a held collection
// and of an admin's UTR correction.
const (
	ActionRetryCredit = "payment.credit_retry"
	ActionCorrectUTR  = "payment.utr_correct"
	TargetPayment     = "payment"
)

// RetryHeldCollection is an admin completing a held payment (its
// payment_id) once its beneficiary's balance can hold it: the credit and
// the audit entry commit together. Still too large: payment.ErrCreditHeld
// (held again, counted again). Not held: ErrNotHeld.
func (a *Gateway) RetryHeldCollection(ctx context.Context, actor *user.User, publicID string) (*payment.Payment, error) {
	if actor == nil || actor.Role != user.RoleAdmin {
		return nil, errs.ErrForbidden
	}
	p, err := a.findPayment(ctx, publicID)
	if err != nil {
		return nil, err
	}
	if p.CreditHeldAt == nil || !p.Status.Open() {
		return nil, ErrNotHeld
	}
	ref := ""
	if p.UTR != nil {
		ref = *p.UTR
	}
	var out *payment.Payment
	err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		var err error
		if out, err = a.CompletePaymentIn(ctx, s.SettleStores, p.ID, ref, "admin retry"); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, a.now(), actor, ActionRetryCredit, TargetPayment, p.ID, heldSnapshot(p), heldSnapshot(out))
	})
	if errors.Is(err, payment.ErrCreditHeld) {
		if herr := a.HoldCredit(ctx, p.ID, "admin retry"); herr != nil {
			return nil, errors.Join(err, herr)
		}
	}
	if err != nil {
		return nil, err
	}
	a.CountPaymentEnded(out.Status)
	return out, nil
}

// ErrNotHeld: the payment is not a held collection (never held, or completed).
var ErrNotHeld = errs.E(errs.Conflict, "collection_not_held", "This payment is not a held collection")

func heldSnapshot(p *payment.Payment) map[string]any {
	return map[string]any{"payment_id": p.PublicID, "user_id": p.UserID, "amount": inr.Format2(p.Amount),
		"status": p.Status, "utr": p.UTR, "credit_held_at": p.CreditHeldAt}
}

// CountPaymentEnded counts a payment that reached status (metrics), once
// the transaction that moved it committed: CompletePaymentIn's caller
// calls it after its commit. Open states are not counted.
func (a *Gateway) CountPaymentEnded(status payment.Status) {
	if status.Final() {
		a.metrics.PaymentEnded(string(status))
	}
}

// CompletePaymentIn is CompletePayment in the caller's transaction s, so
// the caller's own writes (a statement line's match) commit or roll back
// with the credit; the caller counts it (CountPaymentEnded) after commit. On payment.ErrFinal or ErrExpired nothing was written
// by it.
func (a *Gateway) CompletePaymentIn(ctx context.Context, s SettleStores, paymentID uint64, ref, by string) (*payment.Payment, error) {
	if len(ref) > 100 {
		return nil, errs.Validation(map[string][]string{"ref": {"must be at most 100 characters"}})
	}
	p, err := s.Payments.ByID(ctx, paymentID)
	if err != nil {
		return nil, err
	}
	next := *p
	if err := next.Complete(ref, a.now()); err != nil {
		return nil, err
	}
	ok, err := a.settleIn(ctx, s, &next, p.Status, by)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, payment.ErrFinal
	}
	return &next, nil
}

// Checkout is what the hosted checkout page shows.
type Checkout struct {
	Payment   payment.Payment
	PayeeName string
	URL       string
	Intent    string // the UPI intent while the payment is open
	Sandbox   bool   // the payer picks the outcome (test mode)
	AsksUTR   bool   // the payer reports the UTR on the page (upi_direct)
}

// asksUTR reports whether the provider's payers report their UTR.
func (a *Gateway) asksUTR() bool {
	c, ok := a.payments.(payment.UTRCollector)
	return ok && c.CollectsUTR()
}

// SubmitUTR is the payer reporting the 12-digit UTR of a upi_direct
// payment on its checkout page: the payment is pending, awaiting the bank
// statement line that confirms it (reconciliation). The UTR is claimed in
// the transaction that writes it, so one held by another payment or a
// balance request is utr.ErrTaken (payment.ErrUTRTaken). The same UTR again
// changes nothing; another is payment.ErrUTRSubmitted (only an admin
// corrects it, CorrectUTR). Providers that ask no UTR answer ErrNotFound.
func (a *Gateway) SubmitUTR(ctx context.Context, publicID, u string) (*Checkout, error) {
	if !a.asksUTR() {
		return nil, payment.ErrNotFound
	}
	p, err := a.findPayment(ctx, publicID)
	if err != nil {
		return nil, err
	}
	payee, err := a.payee(ctx, p)
	if err != nil {
		return nil, err
	}
	if p.Status == payment.StatusExpired {
		return nil, payment.ErrExpired
	}
	for range 3 { // a concurrent writer (the page opening, expiry, another submission) moved it: read again
		next := *p
		if err := next.SubmitUTR(u, a.now()); err != nil {
			return nil, err
		}
		if p.UTR != nil && p.Status == payment.StatusPending {
			break // idempotent: already recorded
		}
		ok, err := a.writeUTR(ctx, p, &next)
		if err != nil {
			return nil, err
		}
		if ok {
			*p = next
			break
		}
		if p, err = a.st.Payments.ByID(ctx, p.ID); err != nil {
			return nil, err
		}
	}
	return a.checkout(ctx, p, payee)
}

// errMoved rolls back a UTR's claim when its payment moved under it.
var errMoved = errors.New("payment moved")

// writeUTR claims next's UTR and writes it over cur (as read) in one
// transaction, releasing cur's UTR when it had another; false when another
// writer changed the payment first (nothing written).
func (a *Gateway) writeUTR(ctx context.Context, cur, next *payment.Payment) (bool, error) {
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if cur.UTR != nil && *cur.UTR != *next.UTR {
			if err := s.UTRs.Release(ctx, *cur.UTR, utr.OwnerPayment, cur.ID); err != nil {
				return err
			}
		}
		if err := s.UTRs.Claim(ctx, *next.UTR, utr.OwnerPayment, cur.ID); err != nil {
			return err
		}
		ok, err := s.Payments.SubmitUTR(ctx, next, cur.Status, cur.UTR)
		if err == nil && !ok {
			return errMoved
		}
		return err
	})
	if errors.Is(err, errMoved) {
		return false, nil
	}
	return err == nil, err
}

// CorrectUTR is an admin replacing the UTR of an open payment (its
// payer mistyped it; the page refuses a second one): the old UTR is
// released and the new one claimed with the write, and the audit entry
// (reason required) commits with them.
func (a *Gateway) CorrectUTR(ctx context.Context, actor *user.User, publicID, u, reason string) (*payment.Payment, error) {
	if actor == nil || actor.Role != user.RoleAdmin {
		return nil, errs.ErrForbidden
	}
	reason = strings.TrimSpace(reason)
	if reason == "" || len([]rune(reason)) > 500 {
		return nil, errs.Validation(map[string][]string{"reason": {"is required, at most 500 characters"}})
	}
	p, err := a.findPayment(ctx, publicID)
	if err != nil {
		return nil, err
	}
	next := *p
	if err := next.CorrectUTR(u, a.now()); err != nil {
		return nil, err
	}
	if p.UTR != nil && *p.UTR == *next.UTR {
		return p, nil // nothing to correct
	}
	err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if p.UTR != nil {
			if err := s.UTRs.Release(ctx, *p.UTR, utr.OwnerPayment, p.ID); err != nil {
				return err
			}
		}
		if err := s.UTRs.Claim(ctx, *next.UTR, utr.OwnerPayment, p.ID); err != nil {
			return err
		}
		ok, err := s.Payments.SubmitUTR(ctx, &next, p.Status, p.UTR)
		if err != nil {
			return err
		}
		if !ok {
			return errs.E(errs.Conflict, "payment_changed", "The payment changed meanwhile; read it again")
		}
		before, after := heldSnapshot(p), heldSnapshot(&next)
		after["reason"] = reason
		return store.Record(ctx, s.Audit, a.now(), actor, ActionCorrectUTR, TargetPayment, p.ID, before, after)
	})
	if err != nil {
		return nil, err
	}
	return &next, nil
}

// ErrMerchantUnavailable: the payee's account is blocked, pending or
// deleted, so its open payments cannot be paid.
var ErrMerchantUnavailable = errs.E(errs.Conflict, "merchant_unavailable", "This merchant cannot take payments at the moment")

// OpenCheckout is the payer opening the checkout page: created → pending.
// Unknown ids are ErrNotFound; ended payments are shown as they are.
func (a *Gateway) OpenCheckout(ctx context.Context, publicID string) (*Checkout, error) {
	p, err := a.findPayment(ctx, publicID)
	if err != nil {
		return nil, err
	}
	payee, err := a.payee(ctx, p)
	if err != nil {
		return nil, err
	}
	if p.Status == payment.StatusCreated {
		if _, err := a.movePayment(ctx, p, payment.StatusPending, "checkout"); err != nil && errs.KindOf(err) != errs.Conflict {
			return nil, err
		}
	}
	return a.checkout(ctx, p, payee)
}

// CheckoutStatus is the page's polled status; it changes nothing but expiry.
func (a *Gateway) CheckoutStatus(ctx context.Context, publicID string) (*payment.Payment, error) {
	return a.findPayment(ctx, publicID)
}

// CompleteCheckout is the sandbox payer's "Pay" (success) or "Fail": a
// forward-only, conditional transition. A payment already ended, or ended
// by a concurrent writer, answers ErrFinal (409).
func (a *Gateway) CompleteCheckout(ctx context.Context, publicID string, success bool) (*Checkout, error) {
	if !a.payments.Sandbox() {
		return nil, payment.ErrNotFound // a live provider reports outcomes itself
	}
	p, err := a.findPayment(ctx, publicID)
	if err != nil {
		return nil, err
	}
	payee, err := a.payee(ctx, p)
	if err != nil {
		return nil, err
	}
	to := payment.StatusFailed
	if success {
		to = payment.StatusSuccess
	}
	ok, err := a.movePayment(ctx, p, to, "sandbox checkout")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, payment.ErrFinal
	}
	return a.checkout(ctx, p, payee)
}

// PublicBaseURL is where clients reach the service (PUBLIC_BASE_URL).
func (a *Gateway) PublicBaseURL() string { return a.cfg.PublicBaseURL }

// payee is the merchant of p, who must be able to take payments while p is
// open (an ended payment is shown whatever the merchant's state).
func (a *Gateway) payee(ctx context.Context, p *payment.Payment) (*user.User, error) {
	u, err := a.st.Users.ByID(ctx, p.UserID)
	if err != nil {
		return nil, fmt.Errorf("payee of %s: %w", p.PublicID, err)
	}
	if !p.Status.Final() && (u.IsDeleted() || u.Status != user.StatusActive) {
		return nil, ErrMerchantUnavailable
	}
	return u, nil
}

func (a *Gateway) checkout(ctx context.Context, p *payment.Payment, payee *user.User) (*Checkout, error) {
	name := payee.Name
	if p.Purpose == payment.PurposeBalance {
		name = a.cfg.PlatformName // the user pays the platform
	}
	co := &Checkout{Payment: *p, PayeeName: name, URL: a.paymentURL(p.PublicID), Sandbox: a.payments.Sandbox(), AsksUTR: a.asksUTR()}
	if !p.Status.Final() {
		intent, err := a.payments.Intent(ctx, *p, name)
		if err != nil {
			return nil, fmt.Errorf("payment intent of %s: %w", p.PublicID, err)
		}
		co.Intent = intent
	}
	return co, nil
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

// emitPayment writes the event of p's end state (none before it ends).
func (a *Gateway) emitPayment(ctx context.Context, s SettleStores, p *payment.Payment) error {
	var t webhook.EventType
	switch p.Status {
	case payment.StatusSuccess:
		t = webhook.PaymentSuccess
	case payment.StatusFailed:
		t = webhook.PaymentFailed
	case payment.StatusExpired:
		t = webhook.PaymentExpired
	default:
		return nil
	}
	u, err := s.Users.ByID(ctx, p.UserID)
	if err != nil {
		return fmt.Errorf("merchant of %s: %w", p.PublicID, err)
	}
	return store.EmitMode(ctx, s.Webhooks, a.now(), u, t, map[string]any{
		"payment_id": p.PublicID, "amount": inr.Format2(p.Amount), "currency": p.Currency,
		"customer_id": p.CustomerID, "status": p.Status, "provider_ref": p.ProviderRef, "completed_at": p.CompletedAt,
		"created_at": p.CreatedAt, "livemode": p.Livemode, "purpose": purposeOf(p), "fee": inr.Format2(p.Fee),
	}, p.CallbackURL, p.Livemode)
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
