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
// writer's Reserve before the provider is asked and its Settle or Refund
// after (writer.go).

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
	// Reserve adds the operation's writes to the reservation transaction,
	// under the caller's row lock.
	Reserve func(ctx context.Context, s TxStores, u *user.User, hit *hitlog.Hit) error
	// LockReseller has the reservation lock the caller's reseller's row
	// (users.parent_id) too, with the caller's in id order, so Reserve may
	// read it under its lock (LockByID) without inverting the lock order:
	// for a rule that spans a reseller and all its customers (a payout's
	// daily limit).
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

// Meter runs op with the checks, reservation and settlement of a metered
// service call: every call past authentication writes one hit log row.
func (a *Metering) Meter(ctx context.Context, op Op) (*Charge, error) {
	var known bool
	c, err := a.meter(ctx, op, &known)
	switch {
	case !known || (c != nil && c.Replayed): // not this call's to bill
	case err == nil:
		a.metrics.CallMetered(op.Slug, "charged", c.Charged)
	default:
		a.metrics.CallMetered(op.Slug, errorCode(err), decimal.Zero)
	}
	return c, err
}

// meter is Meter; known is set once the caller is authenticated.
func (a *Metering) meter(ctx context.Context, op Op, known *bool) (*Charge, error) {
	svc, err := a.reads.Services.BySlug(ctx, op.Slug)
	if err != nil || svc.Status != catalog.StatusActive {
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return nil, fmt.Errorf("find service %q: %w", op.Slug, err)
		}
		return nil, catalog.ErrServiceNotFound
	}
	key, owner, err := a.gatewayKey(ctx, op.Creds)
	if err != nil {
		return nil, err
	}
	*known = true
	sl, err := a.saleOf(ctx, svc.ID, owner, false)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, catalog.ErrServiceNotFound
		}
		return nil, fmt.Errorf("find price: %w", err)
	}
	now := a.now()
	payload, _ := json.Marshal(op.Payload)
	hit := &hitlog.Hit{
		UserID: owner.ID, ServiceID: svc.ID, APIKeyID: key.ID, RequestID: op.RequestID,
		RequestPayload: a.capPayload(string(payload)), IPAddress: op.IP, ResellerID: sl.Reseller, Commission: decimal.Zero,
		ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, CreatedAt: now.UTC(),
	}
	if err := keyRefusal(key, svc.ID, op.IP); err != nil {
		return nil, a.reject(ctx, hit, err, now)
	}
	if err := a.countDay(ctx, key, hit, now); err != nil {
		return nil, err
	}
	if op.Invalid != nil {
		return nil, a.reject(ctx, hit, op.Invalid, now)
	}
	replay := func() (*Charge, bool, error) {
		if op.Replay == nil {
			return nil, false, nil
		}
		done, err := op.Replay(ctx, key, owner)
		if err != nil {
			if errs.KindOf(err) == errs.Internal {
				return nil, false, err
			}
			return nil, false, a.reject(ctx, hit, err, now)
		}
		if !done {
			return nil, false, nil
		}
		u, err := a.reads.Users.ByID(ctx, owner.ID)
		if err != nil {
			return nil, false, fmt.Errorf("read balance: %w", err)
		}
		// Logged as a successful, unbilled call.
		body := `{"replayed":true}`
		hit.Status, hit.ChargeAmount, hit.Reserved, hit.ResponsePayload = hitlog.StatusSuccess, decimal.Zero, decimal.Zero, &body
		hit.ResponseTimeMs = int(a.now().Sub(now) / time.Millisecond)
		if err := a.reads.Hits.Insert(context.WithoutCancel(ctx), hit); err != nil {
			return nil, false, fmt.Errorf("log replayed call: %w", err)
		}
		return &Charge{RequestID: hit.RequestID, Charged: decimal.Zero, BalanceLeft: u.Balance, Replayed: true}, true, nil
	}
	if res, done, err := replay(); done || err != nil {
		return res, err
	}

	// The reservation, with the operation's own rows (op.Reserve), through
	// the writer: its daily call was counted above.
	charge := sl.Charge
	r := &batchOp{hit: hit, keyID: key.ID, day: a.day(now), month: a.month(now), charge: charge, start: now,
		precounted: true, also: op.Reserve}
	if op.LockReseller {
		r.alsoLock = owner.ParentID
	}
	a.w.Reserve(r)
	if err := r.err; err != nil {
		if hit.ID != 0 {
			return nil, err // refused by admission: its hit is written
		}
		switch {
		case errors.Is(err, ledger.ErrInsufficientBalance):
			return nil, a.reject(ctx, hit, err, now)
		case errs.KindOf(err) == errs.Conflict:
			// A concurrent duplicate claimed the key first: answer as its retry.
			if res, done, rerr := replay(); done || rerr != nil {
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
	if op.Perform != nil {
		upStart := time.Now() // metrics: provider latency
		result, err = op.Perform(ctx, hit)
		a.metrics.UpstreamDone(svc.Slug, time.Since(upStart), err == nil) // metrics
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
	hit.Status = hitlog.StatusSuccess
	hit.ChargeAmount = charge
	hit.CostAmount = sl.Row.AdminCost // the provider's cost, for the platform's margin
	hit.Commission = sl.Commission    // the reseller's earning, when the caller is its customer
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
	k, u, err := a.gatewayKey(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	if !k.AllowsIP(ip) {
		return nil, nil, apikey.ErrIPNotAllowed
	}
	return k, u, nil
}

// gatewayKey finds the active key c names and its active owner. The key is
// read from the database, never from the lookups: gateway calls move money,
// so a rotated-away secret or a revoked key fails at once on every
// instance, not only on the one that changed it.
func (a *Metering) gatewayKey(ctx context.Context, c Credentials) (*apikey.Key, *user.User, error) {
	if c.KeyID == 0 && (c.Secret == "" || len(c.Secret) > 128 || len(c.Key) > 64) {
		return nil, nil, apikey.ErrInvalidCredentials
	}
	var k *apikey.Key
	var err error
	if c.KeyID != 0 {
		k, err = a.reads.Keys.ByID(ctx, c.KeyID)
	} else if c.Key == "" {
		k, err = a.reads.Keys.BySecretHash(ctx, apikey.HashSecret(c.Secret))
	} else {
		k, err = a.reads.Keys.ByKey(ctx, c.Key)
	}
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, nil, apikey.ErrInvalidCredentials
		}
		return nil, nil, fmt.Errorf("find key: %w", err)
	}
	if k.Status != apikey.StatusActive || c.KeyID == 0 && !k.SecretMatches(c.Secret) {
		return nil, nil, apikey.ErrInvalidCredentials
	}
	u, err := a.keyOwner(ctx, k)
	if err != nil {
		return nil, nil, err
	}
	return k, u, nil
}

// countDay counts a gateway call in its key's daily counter; a key over
// its limit is refused (and logged). A replayed request is counted too.
func (a *Metering) countDay(ctx context.Context, key *apikey.Key, hit *hitlog.Hit, now time.Time) error {
	ok, err := a.reads.Keys.CountHit(ctx, key.ID, a.day(now), now.UTC())
	if err != nil {
		return fmt.Errorf("count hit: %w", err)
	}
	if !ok {
		return a.reject(ctx, hit, apikey.ErrDailyLimit, now)
	}
	return nil
}
