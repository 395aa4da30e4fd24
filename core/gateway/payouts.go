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
	"paygate/core/gateway/payout"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// PayoutInput is one POST /api/v1/payout/transfer.
type PayoutInput struct {
	RequestID, IP string
	Creds         metering.Credentials
	Request       payout.Request
	BodyErrors    BodyErrors
}

// PayoutResult is the payout as it stands, with what the call cost.
type PayoutResult struct {
	metering.Charge
	Payout payout.Payout
}

// PanelTransfer is Transfer for the signed-in caller, who confirmed their
// password (the panel's payout credential, checked before): billed and
// logged on keyID, an active key of the caller's (else 404), as a call
// signed with its secret would be; no secret is asked.
func (a *Gateway) PanelTransfer(ctx context.Context, caller *user.User, keyID uint64, in PayoutInput) (*PayoutResult, error) {
	creds, err := a.panelKey(ctx, caller, keyID)
	if err != nil {
		return nil, err
	}
	in.Creds = creds
	return a.Transfer(ctx, in)
}

// Transfer accepts a payout, billed through the payout-transfer service
// whose charge is the fee. In the reservation transaction, under the
// caller's row lock, the fee is debited (the call's charge), the daily limit
// is checked against the day's payouts, and the payout row is inserted with
// the debit of its amount (reference_type payout): concurrent payouts never
// overdraw nor pass the limit. The same reference_id with the same request
// answers the existing payout without a second debit; with another request,
// 409. The provider is asked outside any transaction: an answer moves the
// payout; no answer leaves it pending and unsubmitted, and the worker
// submits it again once payout.SubmitGrace has passed.
func (a *Gateway) Transfer(ctx context.Context, in PayoutInput) (*PayoutResult, error) {
	p, invalid := payout.New(in.Request, a.now())
	invalid = withBodyErrors(invalid, in.BodyErrors)
	b := in.Request.Beneficiary.Masked()
	payload := map[string]any{"beneficiary": map[string]any{"type": b.Type, "name": b.Name,
		"account_number": b.AccountNumber, "ifsc": b.IFSC, "vpa": b.VPA},
		"amount": in.Request.Amount, "mode": in.Request.Mode, "reference_id": in.Request.ReferenceID, "narration": in.Request.Narration}
	out := &PayoutResult{}
	var refused *payout.Outcome // the provider's refusal at Submit, applied once the call is settled
	op := metering.Op{
		Slug: SlugPayoutTransfer, RequestID: in.RequestID, Creds: in.Creds, IP: in.IP, Payload: payload, Invalid: invalid,
		LockReseller: true, // a customer's payouts count against its reseller's limit (checkDailyLimit)
		Replay: func(ctx context.Context, _ *apikey.Key, u *user.User) (bool, error) {
			old, err := a.st.Payouts.ByReference(ctx, u.ID, p.ReferenceID)
			if errors.Is(err, payout.ErrNotFound) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			if !old.Same(p) {
				return false, payout.ErrReferenceReused
			}
			out.Payout = *old
			return true, nil
		},
		Perform: func(ctx context.Context, _ *hitlog.Hit) (any, error) {
			if a.payouts != nil {
				o, err := a.submitPayout(ctx, p)
				if err != nil {
					return nil, err
				}
				if o != nil && o.Status == payout.StatusFailed {
					refused = o
				}
			}
			status := p.Status
			if refused != nil {
				status = payout.StatusFailed
			}
			return map[string]any{"payout_id": p.PublicID, "reference_id": p.ReferenceID, "status": status}, nil
		},
	}
	bill, charge, err := a.meter.Open(ctx, op)
	if err != nil {
		return nil, err
	}
	if charge == nil {
		// One transaction: the charge (the caller's row locked, the call
		// admitted, its pending hit and debit), then the daily limit
		// checked, the payout row and its amount's debit.
		err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
			u, hit, err := bill.Reserve(ctx, s.Metering)
			if err != nil || u == nil {
				return err // u nil: refused, its hit written
			}
			if err := a.checkDailyLimit(ctx, s, u, p.Amount); err != nil {
				return err
			}
			if u.Available().LessThan(p.Amount) {
				return ledger.ErrInsufficientBalance
			}
			p.UserID, p.APIKeyID, p.Fee, p.RequestID, p.Livemode = u.ID, hit.APIKeyID, hit.Reserved, hit.RequestID, a.livePayouts()
			// Left to this request until the grace ends; then the worker
			// submits it again if this request never recorded an answer.
			next := p.CreatedAt.Add(payout.SubmitGrace(a.cfg.UpstreamTimeout))
			p.NextCheckAt = &next
			if err := s.Payouts.Create(ctx, p); err != nil {
				return err
			}
			id := p.ID
			if _, err := store.Post(ctx, s.Books, a.now(), a.liveBooks(), u, ledger.Debit, p.Amount, ledger.RefPayout, &id,
				fmt.Sprintf("Payout %s to %s (%s)", p.PublicID, payeeOf(p), p.ReferenceID)); err != nil {
				return err
			}
			return s.Users.SaveBalance(ctx, u) // the reservation saved it before this debit
		})
		if charge, err = bill.Run(ctx, err); err != nil {
			return nil, err
		}
	}
	out.Charge = *charge
	if !charge.Replayed {
		a.metrics.PayoutEntered(string(payout.StatusPending)) // created with the call's reservation
	}
	if refused != nil {
		// The call is settled (its charge, the fee, kept), so the failure
		// gives the fee back with the amount. A crash before this leaves
		// the payout unsubmitted: the worker submits it again.
		bal, err := a.movePayout(ctx, p, *refused)
		if err != nil {
			return nil, err
		}
		if bal != nil {
			out.BalanceLeft = *bal
		}
	}
	if !charge.Replayed {
		out.Payout = *p
	}
	return out, nil
}

// payeeOf names a payout's beneficiary in ledger descriptions, masked.
func payeeOf(p *payout.Payout) string {
	b := p.Beneficiary.Masked()
	if b.Type == payout.VPA {
		return b.VPA
	}
	return b.AccountNumber + " " + b.IFSC
}

// checkDailyLimit refuses amount when it does not fit the user's daily
// payout limits (dayBounds). Run under the user's row lock, and for a
// reseller's customer its reseller's (Op.LockReseller: every payout of the
// reseller and of its customers takes it), so every earlier payout that
// counts is counted and concurrent payouts of several customers never pass
// the reseller's limit together.
func (a *Gateway) checkDailyLimit(ctx context.Context, s TxStores, u *user.User, amount decimal.Decimal) error {
	own, more, err := a.dayBounds(ctx, s.Payouts, u, func(id uint64) (*user.User, error) { return s.Users.LockByID(ctx, id) })
	if err != nil {
		return err
	}
	return payout.CheckDaily(amount, own, more...)
}

// payoutCounts is what dayBounds reads of the day's payouts.
type payoutCounts interface {
	CountedSinceWithCustomers(ctx context.Context, userID uint64, since time.Time) (decimal.Decimal, error)
}

// dayBounds are the daily limits a payout by u must fit: its own limit
// over its payouts and its customers', and for a reseller's customer its
// reseller's own limit over the payouts of the reseller and all its
// customers (whatever the reseller's state: a customer is never looser
// than its reseller, user.EffectiveLimits). reseller reads the reseller's
// row (under its lock in the reservation).
func (a *Gateway) dayBounds(ctx context.Context, counts payoutCounts, u *user.User, reseller func(uint64) (*user.User, error)) (payout.Bound, []payout.Bound, error) {
	day := a.dayStart()
	used, err := counts.CountedSinceWithCustomers(ctx, u.ID, day)
	if err != nil {
		return payout.Bound{}, nil, err
	}
	own := payout.Bound{Limit: u.DailyPayoutLimit, Used: used}
	if u.ParentID == nil {
		return own, nil, nil
	}
	r, err := reseller(*u.ParentID)
	if err != nil {
		return payout.Bound{}, nil, fmt.Errorf("read reseller %d: %w", *u.ParentID, err)
	}
	rused, err := counts.CountedSinceWithCustomers(ctx, r.ID, day)
	if err != nil {
		return payout.Bound{}, nil, err
	}
	return own, []payout.Bound{{Limit: r.DailyPayoutLimit, Used: rused}}, nil
}

// dayStart is the start of today in the service's time zone.
func (a *Gateway) dayStart() time.Time {
	now := a.now().In(a.cfg.Location)
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, a.cfg.Location)
}

// submitPayout sends p to the provider (bounded by the provider timeout)
// and records an acceptance or a success; no answer changes nothing. A
// refusal (failed) is returned for the caller to apply, since the fee's
// refund depends on the call being settled.
func (a *Gateway) submitPayout(ctx context.Context, p *payout.Payout) (*payout.Outcome, error) {
	pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
	o, err := a.payouts.Submit(pctx, *p)
	cancel()
	if err != nil {
		a.log.Warn("payout provider gave no answer; the worker submits again", "payout_id", p.PublicID, "err", err)
		return nil, nil
	}
	if o.Status == payout.StatusPending || o.Status == payout.StatusProcessing {
		o.Status = payout.StatusProcessing
	}
	if o.Status == payout.StatusFailed {
		return &o, nil
	}
	_, err = a.movePayout(ctx, p, o)
	return &o, err
}

// movePayout applies the provider's answer o to p: one conditional update
// from p's state (so of several workers only one moves it), with the
// refunds and the event of the new state, in one transaction under the
// owner's row lock. p is updated to the stored state. It returns the
// balance afterwards when this call refunded.
func (a *Gateway) movePayout(ctx context.Context, p *payout.Payout, o payout.Outcome) (*decimal.Decimal, error) {
	next, ok := a.nextPayout(p, o)
	if !ok {
		return nil, nil
	}
	var balance *decimal.Decimal
	moved := false
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, p.UserID)
		if err != nil {
			return fmt.Errorf("lock user %d: %w", p.UserID, err)
		}
		call, err := a.feeKept(ctx, s, &next)
		if err != nil {
			return err
		}
		feeKept := call != nil
		if moved, err = s.Payouts.Move(ctx, &next, p.Status); err != nil || !moved {
			return err
		}
		refunds := payoutRefunds(&next, feeKept)
		for _, r := range refunds {
			id := p.ID
			if _, err := store.Post(ctx, s.Books, a.now(), a.liveBooks(), u, ledger.Refund, r.amount, r.ref, &id, r.desc); err != nil {
				return err
			}
		}
		if feeKept {
			// The fee's call is no longer billed: its reseller's commission
			// on it is cancelled (taken back if a settlement credited it).
			if _, err := s.Commissions.CancelHit(ctx, call.ID); err != nil {
				return fmt.Errorf("cancel the commission of payout %s: %w", p.PublicID, err)
			}
		}
		if len(refunds) > 0 {
			if err := s.Users.SaveBalance(ctx, u); err != nil {
				return fmt.Errorf("save balance: %w", err)
			}
			b := u.Balance
			balance = &b
		}
		if t, ok := payoutEvents[next.Status]; ok {
			return store.EmitMode(ctx, s.Webhooks, a.now(), u, t, PayoutEventData(&next), "", next.Livemode)
		}
		return nil
	})
	if errors.Is(err, errCallUnsettled) {
		a.log.Info("payout failure waits for its call to settle", "payout_id", p.PublicID)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("move payout %s to %s: %w", p.PublicID, next.Status, err)
	}
	if moved {
		a.metrics.PayoutEntered(string(next.Status)) // metrics
		*p = next
	} else if cur, err := a.st.Payouts.ByID(ctx, p.ID); err == nil {
		*p = *cur
	}
	return balance, nil
}

// nextPayout is p after the answer o, and false when o moves nothing (the
// same state, or a move the states do not allow: reversed only from
// success, nothing from failed or reversed).
func (a *Gateway) nextPayout(p *payout.Payout, o payout.Outcome) (payout.Payout, bool) {
	now := a.now().UTC()
	next := *p
	next.Status, next.UpdatedAt = o.Status, now
	if next.SubmittedAt == nil {
		next.SubmittedAt = &now
	}
	check := now.Add(payout.FirstCheck)
	switch {
	case p.Status == payout.StatusPending && o.Status == payout.StatusProcessing:
		next.NextCheckAt = &check
	case (p.Status == payout.StatusPending || p.Status == payout.StatusProcessing) && o.Status == payout.StatusSuccess:
		utr := o.UTR
		next.UTR, next.ProcessedAt = &utr, &now
		next.NextCheckAt = &check // watched for a reversal (payout.ReversalWatch)
	case (p.Status == payout.StatusPending || p.Status == payout.StatusProcessing) && o.Status == payout.StatusFailed:
		reason := o.Reason
		if reason == "" {
			reason = "Declined by the beneficiary's bank"
		}
		next.FailReason, next.ProcessedAt, next.NextCheckAt = &reason, &now, nil
	case p.Status == payout.StatusSuccess && o.Status == payout.StatusReversed:
		reason := o.Reason
		if reason == "" {
			reason = "Reversed by the beneficiary's bank"
		}
		next.FailReason, next.ReversedAt, next.NextCheckAt = &reason, &now, nil
	default:
		return next, false
	}
	return next, true
}

// errCallUnsettled: a payout cannot fail while the call that charged its
// fee is unsettled (its request still running, or interrupted and not yet
// recovered): whether the fee comes back depends on how that call ends.
var errCallUnsettled = errors.New("the payout's call is not settled yet")

// feeKept returns the call that charged next's fee when next, a failure,
// must give that fee back: only when the call was settled keeping it (an
// interrupted call refunded by crash recovery gave the fee back already);
// nil otherwise. Read under the owner's row lock, which crash recovery
// takes too.
func (a *Gateway) feeKept(ctx context.Context, s TxStores, next *payout.Payout) (*hitlog.Hit, error) {
	if next.Status != payout.StatusFailed || !next.Fee.IsPositive() {
		return nil, nil
	}
	h, err := s.Hits.ByRequestID(ctx, next.RequestID)
	if err != nil {
		return nil, fmt.Errorf("read the call of payout %s: %w", next.PublicID, err)
	}
	switch h.Status {
	case hitlog.StatusPending:
		return nil, errCallUnsettled
	case hitlog.StatusSuccess:
		if h.ChargeAmount.IsPositive() {
			return h, nil
		}
	}
	return nil, nil
}

type payoutRefund struct {
	amount decimal.Decimal
	ref    string
	desc   string
}

// payoutRefunds are the ledger refunds of p's new state: a failure gives
// back the amount and the fee (when its call kept it), a reversal the
// amount.
func payoutRefunds(p *payout.Payout, feeKept bool) []payoutRefund {
	var out []payoutRefund
	switch p.Status {
	case payout.StatusFailed:
		out = append(out, payoutRefund{p.Amount, ledger.RefPayout, "Refund of failed payout " + p.PublicID})
		if feeKept {
			out = append(out, payoutRefund{p.Fee, ledger.RefPayoutFee, "Refund of the fee of failed payout " + p.PublicID})
		}
	case payout.StatusReversed:
		out = append(out, payoutRefund{p.Amount, ledger.RefPayout, "Refund of reversed payout " + p.PublicID})
	}
	return out
}

var payoutEvents = map[payout.Status]webhook.EventType{
	payout.StatusSuccess: webhook.PayoutSuccess, payout.StatusFailed: webhook.PayoutFailed,
	payout.StatusReversed: webhook.PayoutReversed,
}

// PayoutEventData is the data of a payout.* event: the beneficiary masked.
func PayoutEventData(p *payout.Payout) map[string]any {
	b := p.Beneficiary.Masked()
	return map[string]any{
		"payout_id": p.PublicID, "reference_id": p.ReferenceID, "amount": inr.Format2(p.Amount),
		"fee": p.Fee.StringFixed(4), "mode": p.Mode, "status": p.Status, "utr": p.UTR, "fail_reason": p.FailReason,
		"beneficiary": map[string]any{"type": b.Type, "name": b.Name, "account_number": optionalText(b.AccountNumber),
			"ifsc": optionalText(b.IFSC), "vpa": optionalText(b.VPA)},
	}
}

func optionalText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// CheckPayouts is one round of the payout worker over the payouts that are
// due, earliest first: each is claimed by a conditional update that also
// pushes its next look back, so several instances never work on one at
// once. A payout never known to have reached the provider is submitted
// again (Submit is idempotent by our reference); others are checked, a
// success for its reversal until payout.ReversalWatch. A provider error
// leaves the row to its next turn. It returns how many payouts it moved.
func (a *Gateway) CheckPayouts(ctx context.Context, limit int) (int, error) {
	if a.payouts == nil {
		return 0, nil
	}
	now := a.now().UTC()
	due, err := a.st.Payouts.Due(ctx, now, limit)
	if err != nil {
		return 0, err
	}
	return workRound(ctx, a.cfg.RechargeRoundBudget, due, func(ctx context.Context, p *payout.Payout) (bool, error) {
		return a.checkPayout(ctx, p, now)
	})
}

// checkPayout claims p and submits or checks it; true when this call moved it.
func (a *Gateway) checkPayout(ctx context.Context, p *payout.Payout, now time.Time) (bool, error) {
	next := p.Claim(now)
	ok, err := a.st.Payouts.Claim(ctx, p, &next, now)
	if err != nil || !ok {
		return false, err // another worker has it
	}
	*p = next
	if p.Stuck(now) {
		a.log.Warn("payout not final after a day: ask the provider", "payout_id", p.PublicID, "status", p.Status)
	}
	before := p.Status
	if p.SubmittedAt == nil {
		o, err := a.submitPayout(ctx, p)
		if err != nil {
			return false, err
		}
		if o != nil && o.Status == payout.StatusFailed {
			if _, err := a.movePayout(ctx, p, *o); err != nil {
				return false, err
			}
		}
		return p.Status != before, nil
	}
	pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
	o, err := a.payouts.Check(pctx, *p)
	cancel()
	if err != nil {
		return false, nil // asked again at NextCheckAt
	}
	if _, err := a.movePayout(ctx, p, o); err != nil {
		return false, err
	}
	return p.Status != before, nil
}

// livePayouts reports whether the payout provider moves real money: a
// provider that says it is a sandbox is not live.
func (a *Gateway) livePayouts() bool {
	sb, ok := a.payouts.(interface{ Sandbox() bool })
	return !ok || !sb.Sandbox()
}
