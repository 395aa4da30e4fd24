package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/gateway/recharge"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// RechargeInput is one POST /api/v1/recharge/mobile.
type RechargeInput struct {
	RequestID, IP string
	Creds         metering.Credentials
	Request       recharge.Request
	BodyErrors    BodyErrors
}

// RechargeResult is the recharge as it stands, with what the call cost.
type RechargeResult struct {
	metering.Charge
	Recharge recharge.Recharge
}

// RechargeMobile accepts a prepaid recharge, billed through the
// recharge-mobile service: the amount is debited (reference_type recharge)
// in the reservation transaction together with the recharge row, so
// concurrent recharges never overdraw. The same reference_id with the same
// request answers the existing recharge without a second debit; with another
// request, 409. The operator is asked outside any transaction: a failure
// refunds the amount once; no answer leaves it pending and unsubmitted, and
// the worker submits it again once recharge.SubmitGrace has passed.
func (a *Gateway) RechargeMobile(ctx context.Context, in RechargeInput) (*RechargeResult, error) {
	r, invalid := recharge.New(in.Request, 0, 0, a.now())
	invalid = withBodyErrors(invalid, in.BodyErrors)
	payload := map[string]any{"mobile": in.Request.Mobile, "operator": in.Request.Operator, "circle": in.Request.Circle,
		"amount": in.Request.Amount, "reference_id": in.Request.ReferenceID}
	out := &RechargeResult{}
	var refunded *decimal.Decimal
	op := metering.Op{
		Slug: SlugRechargeMobile, RequestID: in.RequestID, Creds: in.Creds, IP: in.IP, Payload: payload, Invalid: invalid,
		Replay: func(ctx context.Context, _ *apikey.Key, u *user.User) (bool, error) {
			old, err := a.st.Recharges.ByReference(ctx, u.ID, r.ReferenceID)
			if errors.Is(err, recharge.ErrNotFound) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			if !old.Same(r) {
				return false, recharge.ErrReferenceReused
			}
			out.Recharge = *old
			return true, nil
		},
		Perform: func(ctx context.Context, hit *hitlog.Hit) (any, error) {
			if a.recharger != nil {
				// No answer: the operator may still do it, so the recharge
				// stays pending and the worker submits it again after the grace.
				_, refund, err := a.submitRecharge(ctx, r, a.now().UTC().Add(recharge.FirstCheck))
				if err != nil {
					return nil, err
				}
				refunded = refund
			}
			out.Recharge = *r
			return map[string]any{"recharge_id": r.ID, "reference_id": r.ReferenceID, "status": r.Status}, nil
		},
	}
	bill, charge, err := a.meter.Open(ctx, op)
	if err != nil {
		return nil, err
	}
	if charge == nil {
		// One transaction: the charge (the caller's row locked, the call
		// admitted, its pending hit and debit), then the recharge row
		// and its amount's debit.
		err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
			u, hit, err := bill.Reserve(ctx, s.Metering)
			if err != nil || u == nil {
				return err // u nil: refused, its hit written
			}
			if u.Available().LessThan(r.Amount) {
				return ledger.ErrInsufficientBalance
			}
			r.UserID, r.APIKeyID = u.ID, hit.APIKeyID
			// Left to this request until the grace ends; then the worker
			// submits it again if this request never recorded an answer.
			r.NextCheckAt = r.CreatedAt.Add(recharge.SubmitGrace(a.cfg.UpstreamTimeout))
			if err := s.Recharges.Create(ctx, r); err != nil {
				return err
			}
			id := r.ID
			if _, err := store.Post(ctx, s.Books, a.now(), a.liveBooks(), u, ledger.Debit, r.Amount, ledger.RefRecharge, &id,
				fmt.Sprintf("Mobile recharge %s %s (%s)", r.Operator, r.Mobile, r.ReferenceID)); err != nil {
				return err
			}
			return s.Users.SaveBalance(ctx, u) // the reservation saved it before this debit
		})
		if charge, err = bill.Run(ctx, err); err != nil {
			return nil, err
		}
	}
	out.Charge = *charge
	if refunded != nil {
		out.BalanceLeft = *refunded
	}
	return out, nil
}

// finishRecharge writes the operator's final answer: a conditional update
// from pending (so of several checkers only one wins), for a failure the
// refund of the amount, and the recharge.* event, in one transaction under
// the owner's row lock.
// It returns the balance afterwards and whether this call finished it; r is
// updated to the stored state.
func (a *Gateway) finishRecharge(ctx context.Context, r *recharge.Recharge, o recharge.Outcome) (decimal.Decimal, bool, error) {
	var balance decimal.Decimal
	done := false
	next := *r
	next.Status = o.Status
	next.UpdatedAt = a.now().UTC()
	if o.OperatorRef != "" {
		ref := o.OperatorRef
		next.OperatorRef = &ref
	}
	if o.Status == recharge.StatusFailed {
		reason := o.Reason
		if reason == "" {
			reason = "Operator declined"
		}
		next.FailReason = &reason
	}
	if next.SubmittedAt == nil {
		at := next.UpdatedAt
		next.SubmittedAt = &at
	}
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, r.UserID)
		if err != nil {
			return fmt.Errorf("lock user %d: %w", r.UserID, err)
		}
		balance = u.Balance
		ok, err := s.Recharges.Finish(ctx, &next)
		if err != nil || !ok {
			return err
		}
		done = true
		if next.Status == recharge.StatusFailed {
			id := r.ID
			if _, err := store.Post(ctx, s.Books, a.now(), a.liveBooks(), u, ledger.Refund, r.Amount, ledger.RefRecharge, &id,
				fmt.Sprintf("Refund of failed recharge %s", r.ReferenceID)); err != nil {
				return err
			}
			if err := s.Users.SaveBalance(ctx, u); err != nil {
				return fmt.Errorf("save balance: %w", err)
			}
			balance = u.Balance
		}
		return a.emitRecharge(ctx, s, u, &next)
	})
	if err != nil {
		return decimal.Zero, false, fmt.Errorf("finish recharge %d: %w", r.ID, err)
	}
	if done {
		*r = next
	} else if cur, err := a.st.Recharges.ByID(ctx, r.ID); err == nil {
		*r = *cur
	}
	return balance, done, nil
}

// submitRecharge sends r to the provider (bounded by the provider timeout)
// and records the answer: a final one finishes r, pending marks it
// submitted with its first check at firstCheck. No answer (error, timeout)
// changes nothing. It reports whether this call finished r and, when it
// refunded, the balance afterwards.
func (a *Gateway) submitRecharge(ctx context.Context, r *recharge.Recharge, firstCheck time.Time) (bool, *decimal.Decimal, error) {
	pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
	o, err := a.recharger.Submit(pctx, *r)
	cancel()
	if err != nil {
		return false, nil, nil
	}
	if o.Status != recharge.StatusPending {
		bal, done, err := a.finishRecharge(ctx, r, o)
		if err != nil || !done {
			return false, nil, err
		}
		if r.Status == recharge.StatusFailed {
			return true, &bal, nil
		}
		return true, nil, nil
	}
	now := a.now().UTC()
	next := *r
	next.SubmittedAt, next.UpdatedAt, next.NextCheckAt = &now, now, firstCheck
	ok, err := a.st.Recharges.MarkSubmitted(ctx, &next)
	if err != nil {
		return false, nil, err
	}
	if ok {
		*r = next
	}
	return false, nil, nil
}

// CheckRecharges is one round of the recharge worker over the pending
// recharges that are due, earliest first. Each is claimed first by a
// conditional update that also pushes its next look back (exponential
// backoff), so several instances never work on one at once and a row
// without an answer waits its turn instead of blocking newer ones. A
// recharge never known to have reached the provider is submitted again
// (Submit is idempotent by our reference); a submitted one is checked. A
// provider error or timeout leaves the row to its next turn and the round
// goes on; so does a store error on one row (returned at the end). A round
// claims no new row after Config.RechargeRoundBudget. It returns how many
// recharges it finished.
func (a *Gateway) CheckRecharges(ctx context.Context, limit int) (int, error) {
	if a.recharger == nil {
		return 0, nil
	}
	now := a.now().UTC()
	due, err := a.st.Recharges.Due(ctx, now, limit)
	if err != nil {
		return 0, err
	}
	return workRound(ctx, a.cfg.RechargeRoundBudget, due, func(ctx context.Context, r *recharge.Recharge) (bool, error) {
		return a.checkOne(ctx, r, now)
	})
}

// checkOne claims r and submits or checks it; true when this call finished it.
func (a *Gateway) checkOne(ctx context.Context, r *recharge.Recharge, now time.Time) (bool, error) {
	next := r.Claim(now)
	ok, err := a.st.Recharges.Claim(ctx, r, &next, now)
	if err != nil || !ok {
		return false, err // another worker has it
	}
	if next.ReconcileAt != nil && r.ReconcileAt == nil {
		a.log.Warn("recharge pending too long: flagged for manual reconciliation", "recharge_id", r.ID, "created_at", r.CreatedAt)
	}
	*r = next
	if r.SubmittedAt == nil {
		done, _, err := a.submitRecharge(ctx, r, r.NextCheckAt)
		return done, err
	}
	pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
	o, err := a.recharger.Check(pctx, *r)
	cancel()
	if err != nil || o.Status == recharge.StatusPending {
		return false, nil // asked again at NextCheckAt
	}
	_, done, err := a.finishRecharge(ctx, r, o)
	return done, err
}

// RechargeStatus is the key owner's recharge with that reference_id.
func (a *Gateway) RechargeStatus(ctx context.Context, c KeyCaller, referenceID string) (*recharge.Recharge, error) {
	_, u, err := a.meter.AuthenticateGateway(ctx, c.Creds, c.IP)
	if err != nil {
		return nil, err
	}
	r, err := a.st.Recharges.ByReference(ctx, u.ID, referenceID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, recharge.ErrNotFound
		}
		return nil, err
	}
	return r, nil
}

// ListRecharges lists recharges: a user's own, an admin's all (or f.UserID's).
func (a *Gateway) ListRecharges(ctx context.Context, actor *user.User, f recharge.Filter) ([]recharge.Recharge, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return a.st.Recharges.List(ctx, f)
}

// emitRecharge writes the event of r's end state.
func (a *Gateway) emitRecharge(ctx context.Context, s TxStores, u *user.User, r *recharge.Recharge) error {
	t := webhook.RechargeSuccess
	if r.Status == recharge.StatusFailed {
		t = webhook.RechargeFailed
	}
	return store.EmitMode(ctx, s.Webhooks, a.now(), u, t, map[string]any{
		"recharge_id": r.ID, "reference_id": r.ReferenceID, "mobile": r.Mobile, "operator": r.Operator,
		"circle": r.Circle, "amount": inr.Format2(r.Amount), "status": r.Status, "operator_ref": r.OperatorRef,
		"fail_reason": r.FailReason,
	}, "", a.liveRecharges())
}

// liveRecharges reports whether the recharge operator moves real money: a
// provider that says it is a sandbox (a Sandbox() bool method, as the
// payment provider's) is not live.
func (a *Gateway) liveRecharges() bool {
	sb, ok := a.recharger.(interface{ Sandbox() bool })
	return !ok || !sb.Sandbox()
}
