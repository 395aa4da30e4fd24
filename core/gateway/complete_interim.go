package gateway

// INTERIM — delete this file when the "collect" branch (issue 19, part 1)
// lands: it defines the real CompletePaymentIn, with this signature, which
// also credits the merchant in the same transaction. Until then,
// reconciliation completes payments through this stand-in, which only moves
// the payment to success (and writes its payment.success event).

import (
	"context"

	"paygate/core/payment"
	"paygate/core/store"
)

// CompletePaymentIn moves an open payment (created or pending) to success
// inside the caller's transaction s; ref, when not empty, becomes its
// provider_ref. A payment that already ended, or that a concurrent writer
// moved first, is payment.ErrFinal; one past its lifetime payment.ErrExpired.
func (a *Gateway) CompletePaymentIn(ctx context.Context, s store.Stores, paymentID uint64, ref, _ string) (*payment.Payment, error) {
	p, err := s.Payments.ByID(ctx, paymentID)
	if err != nil {
		return nil, err
	}
	now := a.now()
	if p.Status.Final() {
		return nil, payment.ErrFinal
	}
	if !now.Before(p.ExpiresAt) {
		return nil, payment.ErrExpired
	}
	from, next := p.Status, *p
	if from == payment.StatusCreated {
		next.Status = payment.StatusPending
	}
	if err := next.Move(payment.StatusSuccess, now); err != nil {
		return nil, err
	}
	if ref != "" {
		next.ProviderRef = &ref
	}
	ok, err := s.Payments.Transition(ctx, &next, from)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, payment.ErrFinal
	}
	if err := a.emitPayment(ctx, s, &next); err != nil {
		return nil, err
	}
	return &next, nil
}
