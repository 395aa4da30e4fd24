package gateway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/gateway/payment"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// RefundInput is one refund request: POST /api/v1/payment/refund (the key
// secret in Creds) or the panel's POST /payments/{id}/refunds (Actor).
type RefundInput struct {
	Creds          KeyCaller
	Actor          *user.User // the signed-in merchant; nil for a key caller
	IdempotencyKey string     // the header; empty when not sent
	Request        payment.RefundRequest
	BodyErrors     BodyErrors
}

// RefundResult is the refund as it stands, with its payment.
type RefundResult struct {
	Refund   payment.Refund
	Payment  payment.Payment
	Replayed bool // an earlier request's refund (same Idempotency-Key and body)
}

// errReplay ends a refund's transaction that found its Idempotency-Key
// already claimed.
var errReplay = errors.New("refund idempotency key already claimed")

// RefundPayment gives back part or all of a successful payment of the
// caller's (another merchant's payment is not found). In one transaction,
// under the merchant's and then the payment's row locks: what is left to
// refund is checked, the payment's refunded total raised, the merchant's
// balance debited (402 when it cannot cover the amount) and the refund
// written pending, with its Idempotency-Key. Then the provider is asked,
// outside any transaction; its answer ends the refund by a conditional
// update (a failure gives the money back in the same transaction). No
// answer leaves the refund pending for the refund worker (CheckRefunds).
func (a *Gateway) RefundPayment(ctx context.Context, in RefundInput) (*RefundResult, error) {
	merchant := in.Actor
	if merchant == nil {
		_, u, err := a.meter.AuthenticateGateway(ctx, in.Creds.Creds, in.Creds.IP)
		if err != nil {
			return nil, err
		}
		merchant = u
	}
	now := a.now()
	r, invalid := payment.NewRefund(in.Request, now)
	invalid = withBodyErrors(invalid, in.BodyErrors)
	if in.IdempotencyKey != "" && !payment.ValidIdempotencyKey(in.IdempotencyKey) {
		invalid = withBodyErrors(invalid, payment.ErrIdempotencyKeyInvalid.Fields)
	}
	if invalid != nil {
		return nil, invalid
	}
	p, err := a.findPayment(ctx, strings.TrimSpace(in.Request.PaymentID))
	if err != nil {
		return nil, err
	}
	if p.UserID != merchant.ID {
		return nil, payment.ErrNotFound
	}
	h := sha256.Sum256([]byte(strings.Join([]string{p.PublicID, r.Amount.StringFixed(2), r.Reason}, "\x00")))
	hash := hex.EncodeToString(h[:])
	if in.IdempotencyKey != "" {
		if res, err := a.replayRefund(ctx, merchant.ID, in.IdempotencyKey, hash); res != nil || err != nil {
			return res, err
		}
	}
	if err := p.CheckRefund(r.Amount); err != nil {
		return nil, err
	}
	r.PaymentID, r.UserID, r.Livemode = p.ID, p.UserID, p.Livemode
	// The request asks the provider itself; the worker's first look waits
	// until that question had its time.
	r.NextCheckAt = r.CreatedAt.Add(a.cfg.UpstreamTimeout + time.Minute)
	err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		// The merchant first, as every balance change locks it, then the
		// payment: its refunded total is read and raised under that lock.
		u, err := s.Users.LockByID(ctx, merchant.ID)
		if err != nil {
			return fmt.Errorf("lock merchant %d: %w", merchant.ID, err)
		}
		if in.IdempotencyKey != "" {
			// A concurrent duplicate that committed first (we waited for its locks).
			if _, err := s.RefundKeys.Find(ctx, u.ID, in.IdempotencyKey, now.UTC()); err == nil {
				return errReplay
			} else if errs.KindOf(err) != errs.NotFound {
				return err
			}
		}
		locked, err := s.Payments.LockByID(ctx, p.ID)
		if err != nil {
			return fmt.Errorf("lock payment %s: %w", p.PublicID, err)
		}
		if err := locked.CheckRefund(r.Amount); err != nil {
			return err
		}
		if err := s.Refunds.Create(ctx, r); err != nil {
			return err
		}
		locked.Refunded = locked.Refunded.Add(r.Amount)
		if err := s.Payments.SaveRefunded(ctx, locked); err != nil {
			return err
		}
		id := r.ID
		if _, err := store.Post(ctx, s.Books, now, r.Livemode, u, ledger.Debit, r.Amount, ledger.RefRefund, &id,
			fmt.Sprintf("Refund %s of payment %s", r.PublicID, p.PublicID)); err != nil {
			return err
		}
		if err := s.Users.SaveBalance(ctx, u); err != nil {
			return fmt.Errorf("save balance: %w", err)
		}
		*p = *locked
		if in.IdempotencyKey == "" {
			return nil
		}
		return s.RefundKeys.Claim(ctx, &payment.RefundKey{
			UserID: u.ID, Key: in.IdempotencyKey, RequestHash: hash, RefundID: r.ID,
			ExpiresAt: now.UTC().Add(payment.IdempotencyTTL), CreatedAt: now.UTC(),
		}, now.UTC())
	})
	if err != nil {
		if in.IdempotencyKey != "" && (errors.Is(err, errReplay) || errs.KindOf(err) == errs.Conflict && !errors.Is(err, payment.ErrNotRefundable)) {
			if res, rerr := a.replayRefund(ctx, merchant.ID, in.IdempotencyKey, hash); res != nil || rerr != nil {
				return res, rerr
			}
		}
		if errors.Is(err, errReplay) {
			return nil, errs.E(errs.Unavailable, "refund_retry", "Refund is being created by a concurrent request, please retry")
		}
		return nil, err
	}
	// The debit is committed: the provider is asked whatever the caller does.
	ctx = context.WithoutCancel(ctx)
	a.askRefund(ctx, p, r)
	cur, err := a.st.Payments.ByID(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return &RefundResult{Refund: *r, Payment: *cur}, nil
}

// replayRefund answers a retry with the refund its Idempotency-Key made (as
// it stands now), 409 when the key came with another request, nil when the
// key is unknown.
func (a *Gateway) replayRefund(ctx context.Context, userID uint64, key, hash string) (*RefundResult, error) {
	k, err := a.st.RefundKeys.Find(ctx, userID, key, a.now().UTC())
	if errs.KindOf(err) == errs.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if k.RequestHash != hash {
		return nil, payment.ErrIdempotencyReused
	}
	r, err := a.st.Refunds.ByID(ctx, k.RefundID)
	if err != nil {
		return nil, fmt.Errorf("refund of idempotency key: %w", err)
	}
	p, err := a.st.Payments.ByID(ctx, r.PaymentID)
	if err != nil {
		return nil, fmt.Errorf("payment of refund %s: %w", r.PublicID, err)
	}
	return &RefundResult{Refund: *r, Payment: *p, Replayed: true}, nil
}

// askRefund asks the provider about r (bounded by the provider timeout)
// and ends r on a final answer; no answer or "pending" leaves it to the
// worker, as does an answer that could not be written. r is updated to
// the stored state.
func (a *Gateway) askRefund(ctx context.Context, p *payment.Payment, r *payment.Refund) {
	if a.payments == nil {
		return
	}
	pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
	o, err := a.payments.Refund(pctx, *p, *r)
	cancel()
	if err != nil {
		a.log.Warn("refund: no answer from the payment provider", "refund_id", r.PublicID, "err", err)
		return
	}
	if o.Status != payment.RefundProcessed && o.Status != payment.RefundFailed {
		return
	}
	if _, err := a.finishRefund(ctx, r, o); err != nil {
		// The debit is committed: the caller gets the refund, pending, and
		// the worker writes the provider's answer.
		a.log.Warn("refund: answer not written, left to the refund worker", "refund_id", r.PublicID, "err", err)
	}
}

// finishRefund ends r with o: a conditional update from pending (so of the
// request and the workers only one wins), for a failure the payment's
// refunded total lowered and the merchant's debit given back (a refund
// entry), and the refund.* event, in one transaction under the merchant's
// and the payment's row locks. It reports whether this call ended r; r is
// updated to the stored state.
func (a *Gateway) finishRefund(ctx context.Context, r *payment.Refund, o payment.RefundOutcome) (bool, error) {
	next := r.Finish(o, a.now())
	done := false
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, r.UserID)
		if err != nil {
			return fmt.Errorf("lock merchant %d: %w", r.UserID, err)
		}
		p, err := s.Payments.LockByID(ctx, r.PaymentID)
		if err != nil {
			return fmt.Errorf("lock payment %d: %w", r.PaymentID, err)
		}
		ok, err := s.Refunds.Finish(ctx, &next)
		if err != nil || !ok {
			return err
		}
		done = true
		if next.Status == payment.RefundFailed {
			p.Refunded = p.Refunded.Sub(r.Amount)
			if err := s.Payments.SaveRefunded(ctx, p); err != nil {
				return err
			}
			id := r.ID
			if _, err := store.Post(ctx, s.Books, a.now(), r.Livemode, u, ledger.Refund, r.Amount, ledger.RefRefund, &id,
				fmt.Sprintf("Failed refund %s of payment %s given back", r.PublicID, p.PublicID)); err != nil {
				return err
			}
			if err := s.Users.SaveBalance(ctx, u); err != nil {
				return fmt.Errorf("save balance: %w", err)
			}
		}
		return a.emitRefund(ctx, s, u, p, &next)
	})
	if err != nil {
		return false, fmt.Errorf("finish refund %s: %w", r.PublicID, err)
	}
	if done {
		*r = next
		a.metrics.RefundEnded(string(next.Status))
	} else if cur, err := a.st.Refunds.ByID(ctx, r.ID); err == nil {
		*r = *cur
	}
	return done, nil
}

// CheckRefunds is one round of the refund worker (every instance runs it)
// over the pending refunds that are due: a refund left pending by a crash
// or a provider that did not answer. Each is claimed first by a
// conditional update that pushes its next look back, so two workers never
// ask about one at once; then the provider is asked again (Refund is
// idempotent by the refund's id). A refund past payment.RefundDeadline
// that still has no final answer fails, its money given back, exactly once
// (finishRefund's conditional update). It returns how many it ended.
func (a *Gateway) CheckRefunds(ctx context.Context, limit int) (int, error) {
	now := a.now().UTC()
	due, err := a.st.Refunds.Due(ctx, now, limit)
	if err != nil {
		return 0, err
	}
	n := 0
	var seen []error
	for i := range due {
		if ctx.Err() != nil {
			break
		}
		done, err := a.checkRefund(ctx, &due[i], now)
		if err != nil {
			seen = append(seen, err)
		}
		if done {
			n++
		}
	}
	return n, errors.Join(seen...)
}

// checkRefund claims r and asks about it; true when this call ended it.
func (a *Gateway) checkRefund(ctx context.Context, r *payment.Refund, now time.Time) (bool, error) {
	next := r.Claim(now)
	ok, err := a.st.Refunds.Claim(ctx, r, &next, now)
	if err != nil || !ok {
		return false, err // another worker has it
	}
	*r = next
	p, err := a.st.Payments.ByID(ctx, r.PaymentID)
	if err != nil {
		return false, err
	}
	o := payment.RefundOutcome{Status: payment.RefundPending}
	if a.payments != nil {
		pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
		answer, err := a.payments.Refund(pctx, *p, *r)
		cancel()
		if err == nil {
			o = answer
		}
	}
	if o.Status != payment.RefundProcessed && o.Status != payment.RefundFailed {
		if !r.Overdue(now) {
			return false, nil // asked again at NextCheckAt
		}
		o = payment.RefundOutcome{Status: payment.RefundFailed, Reason: "No answer from the provider within 24 hours"}
		a.log.Warn("refund failed after its deadline", "refund_id", r.PublicID, "created_at", r.CreatedAt)
	}
	return a.finishRefund(ctx, r, o)
}

// PaymentRefunds lists a payment's refunds, oldest first.
func (a *Gateway) PaymentRefunds(ctx context.Context, p *payment.Payment) ([]payment.Refund, error) {
	return a.st.Refunds.ByPayment(ctx, p.ID)
}

// MerchantPaymentRefunds is the panel's list of a payment's refunds: the
// signed-in merchant's own payment, or any for an admin.
func (a *Gateway) MerchantPaymentRefunds(ctx context.Context, actor *user.User, publicID string) (*payment.Payment, []payment.Refund, error) {
	p, err := a.findPayment(ctx, publicID)
	if err != nil {
		return nil, nil, err
	}
	if p.UserID != actor.ID && actor.Role != user.RoleAdmin {
		return nil, nil, payment.ErrNotFound
	}
	list, err := a.st.Refunds.ByPayment(ctx, p.ID)
	if err != nil {
		return nil, nil, err
	}
	return p, list, nil
}

// emitRefund writes r's refund.* event (its end state), livemode from the
// payment, to the merchant's webhook and the payment's callback URL.
func (a *Gateway) emitRefund(ctx context.Context, s TxStores, u *user.User, p *payment.Payment, r *payment.Refund) error {
	t := webhook.RefundProcessed
	if r.Status == payment.RefundFailed {
		t = webhook.RefundFailed
	}
	return store.EmitMode(ctx, s.Webhooks, a.now(), u, t, map[string]any{
		"refund_id": r.PublicID, "payment_id": p.PublicID, "amount": inr.Format2(r.Amount), "currency": p.Currency,
		"status": r.Status, "reason": r.Reason, "fail_reason": r.FailReason, "provider_ref": r.ProviderRef,
		"payment_refunded": inr.Format2(p.Refunded), "created_at": r.CreatedAt, "completed_at": r.CompletedAt,
		"livemode": r.Livemode,
	}, p.CallbackURL, r.Livemode)
}
