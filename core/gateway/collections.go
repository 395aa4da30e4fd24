package gateway

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/gateway/payment"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// A payment's success and what it entails: every path to an end state
// (the checkout page, confirmed money, the expiry worker) moves a payment
// through settleIn, which credits the beneficiary exactly once; a credit
// the beneficiary's balance cannot hold is held (HoldCredit) until an admin
// retries it.

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
