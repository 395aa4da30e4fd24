package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"paygate/core/accounts/user"
	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/platform/utr"
)

// The hosted checkout page: what it shows, the payer opening and paying
// it (the sandbox), and the UTR a upi_direct payer reports (and an admin
// corrects).

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
