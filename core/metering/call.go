package metering

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// Errors of a metered call beyond those of the domains.
var (
	ErrMethodNotAllowed = errs.E(errs.MethodNotAllowed, "method_not_allowed", "Method not allowed for this service")
	ErrPlanLimit        = errs.E(errs.LimitExceeded, "monthly_plan_limit_reached", "Monthly plan limit reached")
	// ErrBodyNotObject is the 422 "Invalid parameters" of a POST/PUT body that
	// is not a JSON object.
	ErrBodyNotObject = errs.Validation(map[string][]string{"body": {"must be a JSON object"}})
)

// MethodError is a call with another method than the service's; Allow names
// the method to use (the Allow header of the 405).
type MethodError struct{ Allow string }

func (e *MethodError) Error() string        { return ErrMethodNotAllowed.Error() + " (allow " + e.Allow + ")" }
func (e *MethodError) Unwrap() error        { return ErrMethodNotAllowed }
func (e *MethodError) Is(target error) bool { return target == ErrMethodNotAllowed }

// CallInput is one call to /api/v1/<slug> as the HTTP edge received it.
type CallInput struct {
	RequestID string
	Slug      string
	Method    string
	Key       string
	Secret    string
	IP        string
	Query     url.Values
	Body      []byte
}

// CallResult is the success envelope's content.
type CallResult struct {
	RequestID   string
	Data        json.RawMessage // valid JSON: the upstream's body as it came
	Charged     decimal.Decimal
	BalanceLeft decimal.Decimal
}

// CallService meters one call to a service (/api/v1/<slug>): it reads
// what the call needs (prepare), then runs it on a hold or the per-call
// way, every charge written by the writer (writer.go). Every call with a
// known owner and service writes exactly one hit log row. It also reports
// where the caller's key stands against its daily limit: the zero
// DailyQuota (Limit 0) when the call was answered before its key was known
// (unknown service, wrong method, bad credentials).
func (a *Metering) CallService(ctx context.Context, in CallInput) (*CallResult, DailyQuota, error) {
	c, err := a.prepare(ctx, in)
	var res *CallResult
	if err == nil {
		res, err = a.run(ctx, c)
	}
	a.countCall(in.Slug, c != nil, res, err)
	if c == nil {
		return res, DailyQuota{}, err
	}
	return res, a.quota(c, err), err
}

// call is one metered call on its way down: what it calls, who pays what,
// and its hit log row.
type call struct {
	svc    *catalog.Service
	key    *apikey.Key
	owner  *user.User
	price  *pricing.Price
	charge decimal.Decimal
	// commission is the reseller's earning on the call when the caller is
	// its customer (the hit records it once the call succeeds).
	commission decimal.Decimal

	params  map[string]any // the parameters as sent, for upstream
	payload string         // the body as sent (POST/PUT), for upstream
	secrets []string       // full values of sensitive parameters, scrubbed from answers
	invalid error          // the parameters' refusal: counted for the day, then logged failed

	hit        *hitlog.Hit
	start      time.Time
	day, month string // the local day and month of start (TIMEZONE)
}

// run runs a prepared call: on a hold of its key when one serves it
// (holds.go), else the per-call way. The daily counter, the plan limit,
// the balance check and the debit are decided in the writer's transaction
// (batch.go), in that order; refused parameters are counted, then logged.
func (a *Metering) run(ctx context.Context, c *call) (*CallResult, error) {
	// A call that found the key's holds exhausted waits for them
	// (awaitHolds), then tries a hold again (up to holdWaits times): a
	// hold fetched meanwhile (its money held, invisible to a per-call
	// reservation) serves it rather than leaving it a 402 and its own
	// calls unused.
	for waits := 0; c.invalid == nil; waits++ {
		hc, ok, exhausted, err := a.takeHold(ctx, c.owner, c.key.ID, c.charge, c.day)
		if err != nil {
			return nil, err
		}
		if ok {
			return a.callOnHold(ctx, c, hc)
		}
		if !exhausted || waits == holdWaits {
			break
		}
		if err := a.awaitHolds(ctx, c.owner.ID, c.key.ID, c.charge, c.day); err != nil {
			return nil, err
		}
	}
	return a.callPerCall(ctx, c)
}

// holdWaits is how many times a call that found its key's holds
// exhausted waits for them (and for the slot's empty pause, at most
// emptyHoldPause each) before it goes the per-call way.
const holdWaits = 3

// callOnHold runs a call that took its money and daily count from a hold:
// it calls upstream at once and answers; the hit and its charge are
// written afterwards (Capture). A failed call is not charged. A call that
// saw the database fail while it ran answers 503 and is not charged: its
// charge might not be written.
func (a *Metering) callOnHold(ctx context.Context, c *call, hc holdCall) (*CallResult, error) {
	a.metrics.ReservationStarted() // metrics: in flight until its charge is written (or given up)
	data, upStart, failure := a.callUpstream(ctx, c)
	if failure == nil && a.holdsFailedSince(upStart) {
		failure = ErrMeteringUnavailable
		failHit(c.hit, failure)
	}
	requestID := c.hit.RequestID // the hit is the writer's once queued
	a.w.Capture(&batchOp{hit: c.hit, hold: hc.lh, charge: c.charge, month: c.month})
	if failure != nil {
		return nil, failure
	}
	return &CallResult{RequestID: requestID, Data: data, Charged: c.charge, BalanceLeft: hc.balanceLeft}, nil
}

// callPerCall reserves the call's charge (Reserve), calls upstream outside
// any transaction, then settles a success after the answer (SettleLater)
// or refunds a failure before it (Refund).
func (a *Metering) callPerCall(ctx context.Context, c *call) (*CallResult, error) {
	r := &batchOp{hit: c.hit, keyID: c.key.ID, day: c.day, month: c.month, charge: c.charge, invalid: c.invalid, start: c.start}
	a.w.Reserve(r)
	if r.counted {
		a.usage.add(c.key.ID, c.day, 1)
	}
	if r.err != nil {
		return nil, r.err
	}

	// The reservation is committed: whatever happens to the caller's
	// connection, the call is settled or refunded.
	a.metrics.ReservationStarted() // metrics: reservation in flight, until settled or refunded (or given up)
	data, _, failure := a.callUpstream(ctx, c)
	settlement := &batchOp{hit: c.hit, month: c.month}
	if failure == nil {
		res := &CallResult{RequestID: c.hit.RequestID, Data: data, Charged: c.charge, BalanceLeft: r.balance}
		a.w.SettleLater(settlement)
		return res, nil
	}
	defer a.metrics.ReservationSettled()
	if err := a.w.Refund(settlement); err != nil {
		return nil, err
	}
	return nil, failure
}

// countCall reports a call that got past authentication to the metrics:
// charged with its amount, or the error's code (a fixed set). Calls
// refused before (unknown service, bad credentials) belong to no one and
// are left to the HTTP metrics.
func (a *Metering) countCall(slug string, authenticated bool, res *CallResult, err error) {
	if !authenticated {
		return
	}
	if err == nil {
		a.metrics.CallMetered(slug, "charged", res.Charged)
		return
	}
	a.metrics.CallMetered(slug, errorCode(err), decimal.Zero)
}

// errorCode is err's code, "internal_error" for an error not built by errs.
func errorCode(err error) string {
	if e, ok := errs.As(err); ok {
		return e.Code
	}
	return "internal_error"
}
