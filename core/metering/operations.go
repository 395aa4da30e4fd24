package metering

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

// Gateway operations (payments, verifications, recharges, payouts,
// account openings) are billed like service calls through their built-in
// service row: the same key checks and one hit log row per call, then the
// reservation before the provider is asked and the writer's Settle or
// Refund after (writer.go). An operation with rows of its own writes them
// in its reservation's transaction, which it opens itself (Bill.Reserve);
// one without (a verification) is Meter.

// Credentials are what a gateway caller presents: its key's secret alone
// (Authorization: Bearer <secret>), or the key and its secret (X-API-Key
// and X-API-Secret, or Basic). A key without its secret authorizes nothing.
type Credentials struct {
	Key    string // empty: the key is found by its secret's hash
	Secret string
	// KeyID names the key of a caller the service authenticated otherwise
	// (the panel's payout credential, after the password): no secret is
	// checked. Set by internal callers only, never from a request.
	KeyID uint64
}

// Op is one gateway operation, metered like a service call
// through its built-in service row.
type Op struct {
	Slug, RequestID, IP string
	Creds               Credentials
	Payload             any   // the hit log's request_payload: identifiers masked
	Invalid             error // the request's validation result: 422 after the key checks
	// Replay answers a retry of an earlier request (same Idempotency-Key or
	// reference_id) without billing: true when it did. Its error (a key
	// reused for another request) is the caller's answer.
	Replay func(ctx context.Context, k *apikey.Key, u *user.User) (bool, error)
	// LockReseller has the reservation lock the caller's reseller's row
	// (users.parent_id) too, with the caller's in id order, so the
	// operation's own writes may read it under its lock (LockByID) without
	// inverting the lock order: for a rule that spans a reseller and all
	// its customers (a payout's daily limit).
	LockReseller bool
	// Perform runs outside any transaction once the charge is reserved; an
	// error refunds the charge and is the caller's answer. The result is the
	// hit's response_payload.
	Perform func(ctx context.Context, hit *hitlog.Hit) (any, error)
}

// Charge is what a gateway call cost.
type Charge struct {
	RequestID   string
	Charged     decimal.Decimal
	BalanceLeft decimal.Decimal
	Replayed    bool // an earlier request's answer, not billed again
}

// Meter runs op, which writes no rows of its own, with the checks,
// reservation and settlement of a metered service call: Open, the
// reservation queued with the metered calls' (the writer's Reserve), Run.
func (a *Metering) Meter(ctx context.Context, op Op) (*Charge, error) {
	b, replayed, err := a.Open(ctx, op)
	if err != nil || replayed != nil {
		return replayed, err
	}
	a.w.Reserve(b.r)
	return b.Run(ctx, nil)
}

// Bill is one gateway operation being billed: opened (its caller
// authenticated, its price read, its daily call counted), then reserved in
// its own transaction (Reserve), then run (Run).
type Bill struct {
	a     *Metering
	op    Op
	svc   *catalog.Service
	key   *apikey.Key
	owner *user.User
	sl    sale
	hit   *hitlog.Hit
	start time.Time
	r     *batchOp   // the reservation
	plan  *batchPlan // the reservation as Reserve planned it, applied once its transaction committed
	u     *user.User // the caller's row as the reservation's transaction leaves it
}

// Open checks a gateway operation before its charge: the built-in service
// row, the caller's key (authenticate), its price, the key's allow lists
// and daily count, the request's validation, then an idempotent replay
// (Op.Replay: a hit success with charge 0, answered as replayed). Every
// refusal past authentication writes its hit. replayed is the answer of
// an earlier request; else the operation goes on with b.
func (a *Metering) Open(ctx context.Context, op Op) (b *Bill, replayed *Charge, err error) {
	var known bool
	b, replayed, err = a.open(ctx, op, &known)
	if known && err != nil {
		a.metrics.CallMetered(op.Slug, errorCode(err), decimal.Zero)
	}
	return b, replayed, err
}

// open is Open; known is set once the caller is authenticated.
func (a *Metering) open(ctx context.Context, op Op, known *bool) (*Bill, *Charge, error) {
	svc, err := a.reads.Services.BySlug(ctx, op.Slug)
	if err != nil || svc.Status != catalog.StatusActive {
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return nil, nil, fmt.Errorf("find service %q: %w", op.Slug, err)
		}
		return nil, nil, catalog.ErrServiceNotFound
	}
	key, owner, err := a.authenticate(ctx, op.Creds)
	if err != nil {
		return nil, nil, err
	}
	*known = true
	sl, err := a.saleOf(ctx, svc.ID, owner, false)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, nil, catalog.ErrServiceNotFound
		}
		return nil, nil, fmt.Errorf("find price: %w", err)
	}
	now := a.now()
	payload, _ := json.Marshal(op.Payload)
	hit := &hitlog.Hit{
		UserID: owner.ID, ServiceID: svc.ID, APIKeyID: key.ID, RequestID: op.RequestID,
		RequestPayload: a.capPayload(string(payload)), IPAddress: op.IP, ResellerID: sl.Reseller, Commission: decimal.Zero,
		ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, CreatedAt: now.UTC(),
	}
	if err := keyRefusal(key, svc.ID, op.IP); err != nil {
		return nil, nil, a.reject(ctx, hit, err, now)
	}
	day, month := a.day(now), a.month(now)
	if err := a.countDay(ctx, key, hit, day, now); err != nil {
		return nil, nil, err
	}
	if op.Invalid != nil {
		return nil, nil, a.reject(ctx, hit, op.Invalid, now)
	}
	// The reservation: its daily call was counted above.
	b := &Bill{a: a, op: op, svc: svc, key: key, owner: owner, sl: sl, hit: hit, start: now,
		r: &batchOp{kind: batchReserve, hit: hit, keyID: key.ID, day: day, month: month, charge: sl.Charge, start: now, precounted: true}}
	if op.LockReseller {
		b.r.alsoLock = owner.ParentID
	}
	if res, done, err := b.replay(ctx); done || err != nil {
		return nil, res, err
	}
	return b, nil, nil
}

// replay answers a retry of an earlier request (Op.Replay), logged as a
// successful, unbilled call: done when it did.
func (b *Bill) replay(ctx context.Context) (*Charge, bool, error) {
	a, hit, now := b.a, b.hit, b.start
	if b.op.Replay == nil {
		return nil, false, nil
	}
	done, err := b.op.Replay(ctx, b.key, b.owner)
	if err != nil {
		if errs.KindOf(err) == errs.Internal {
			return nil, false, err
		}
		return nil, false, a.reject(ctx, hit, err, now)
	}
	if !done {
		return nil, false, nil
	}
	u, err := a.reads.Users.ByID(ctx, b.owner.ID)
	if err != nil {
		return nil, false, fmt.Errorf("read balance: %w", err)
	}
	body := `{"replayed":true}`
	hit.Status, hit.ChargeAmount, hit.Reserved, hit.ResponsePayload = hitlog.StatusSuccess, decimal.Zero, decimal.Zero, &body
	hit.ResponseTimeMs = int(a.now().Sub(now) / time.Millisecond)
	if err := a.reads.Hits.Insert(context.WithoutCancel(ctx), hit); err != nil {
		return nil, false, fmt.Errorf("log replayed call: %w", err)
	}
	return &Charge{RequestID: hit.RequestID, Charged: decimal.Zero, BalanceLeft: u.Balance, Replayed: true}, true, nil
}

// Run ends the operation once its reservation's transaction ended, txErr
// its error: a refusal is answered (its hit written), a concurrent
// duplicate that claimed the same key first as its retry (Op.Replay);
// a reserved call runs Op.Perform outside any transaction, then the
// writer's Settle, or its Refund when Perform failed.
func (b *Bill) Run(ctx context.Context, txErr error) (*Charge, error) {
	c, err := b.run(ctx, txErr)
	switch {
	case c != nil && c.Replayed: // not this call's to bill
	case err == nil:
		b.a.metrics.CallMetered(b.op.Slug, "charged", c.Charged)
	default:
		b.a.metrics.CallMetered(b.op.Slug, errorCode(err), decimal.Zero)
	}
	return c, err
}

// run is Run.
func (b *Bill) run(ctx context.Context, txErr error) (*Charge, error) {
	a, r, hit, now := b.a, b.r, b.hit, b.start
	if b.plan != nil { // reserved in the operation's transaction (Reserve)
		if txErr != nil {
			r.err = txErr // nothing of it was written
		} else {
			a.w.batchDone([]*batchOp{r}, b.plan)
			if b.u != nil {
				r.balance = b.u.Balance // after the operation's own debits
			}
		}
	}
	if err := r.err; err != nil {
		if hit.ID != 0 {
			return nil, err // refused by admission: its hit is written
		}
		switch {
		case errors.Is(err, ledger.ErrInsufficientBalance):
			return nil, a.reject(ctx, hit, err, now)
		case errs.KindOf(err) == errs.Conflict:
			// A concurrent duplicate claimed the key first: answer as its retry.
			if res, done, rerr := b.replay(ctx); done || rerr != nil {
				return res, rerr
			}
		}
		return nil, err
	}

	// The reservation is committed: settle or refund whatever the caller does.
	a.metrics.ReservationStarted()       // metrics: reservation in flight
	defer a.metrics.ReservationSettled() // metrics: settled or refunded (or failed trying) on return
	ctx = context.WithoutCancel(ctx)
	var result any
	var err error
	if b.op.Perform != nil {
		upStart := time.Now() // metrics: provider latency
		result, err = b.op.Perform(ctx, hit)
		a.metrics.UpstreamDone(b.svc.Slug, time.Since(upStart), err == nil) // metrics
	}
	hit.ResponseTimeMs = int(a.now().Sub(now) / time.Millisecond)
	settlement := &batchOp{hit: hit, month: r.month}
	if err != nil {
		failHit(hit, err)
		if rerr := a.w.Refund(settlement); rerr != nil {
			return nil, rerr
		}
		return nil, err
	}
	charge := b.sl.Charge
	hit.Status = hitlog.StatusSuccess
	hit.ChargeAmount = charge
	hit.CostAmount = b.sl.Row.AdminCost // the provider's cost, for the platform's margin
	hit.Commission = b.sl.Commission    // the reseller's earning, when the caller is its customer
	body, _ := json.Marshal(result)
	resp := a.capPayload(string(body))
	hit.ResponsePayload = &resp
	if err := a.w.Settle(settlement); err != nil {
		return nil, err
	}
	return &Charge{RequestID: hit.RequestID, Charged: charge, BalanceLeft: r.balance}, nil
}

// AuthenticateGateway checks a gateway caller's credentials for calls that
// are not billed (status, lists): owner active, caller address allowed.
func (a *Metering) AuthenticateGateway(ctx context.Context, c Credentials, ip string) (*apikey.Key, *user.User, error) {
	k, u, err := a.authenticate(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	if !k.AllowsIP(ip) {
		return nil, nil, apikey.ErrIPNotAllowed
	}
	return k, u, nil
}

// countDay counts a gateway call in its key's daily counter; a key over
// its limit is refused (and logged). A replayed request is counted too.
func (a *Metering) countDay(ctx context.Context, key *apikey.Key, hit *hitlog.Hit, day string, now time.Time) error {
	ok, err := a.reads.Keys.CountHit(ctx, key.ID, day, now.UTC())
	if err != nil {
		return fmt.Errorf("count hit: %w", err)
	}
	if !ok {
		return a.reject(ctx, hit, apikey.ErrDailyLimit, now)
	}
	return nil
}
