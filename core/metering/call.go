package metering

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/apikey"
	"paygate/core/catalog"
	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/pricing"
	"paygate/core/sensitive"
	"paygate/core/store"
	"paygate/core/user"
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

// CallService meters one service call: checks in order (admission.go),
// reserves the charge atomically, calls upstream outside any transaction,
// then settles or refunds. Every call with a known owner and service writes
// exactly one hit log row.
func (a *Metering) CallService(ctx context.Context, in CallInput) (*CallResult, error) {
	var kq calledKey
	res, err := a.callService(ctx, in, &kq)
	a.countCall(in.Slug, kq.key != nil, res, err)
	return res, err
}

// countCall reports a call that got past authentication to the metrics: charged with its amount, or the error's code (a
// fixed set). Calls refused before (unknown service, bad credentials)
// belong to no one and are left to the HTTP metrics.
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

// callService is CallService; kq receives the key once it is known.
func (a *Metering) callService(ctx context.Context, in CallInput, kq *calledKey) (*CallResult, error) {
	svc, err := a.serviceBySlug(ctx, in.Slug)
	if err != nil || svc.Status != catalog.StatusActive || svc.Builtin {
		if err != nil && !errors.Is(err, catalog.ErrServiceNotFound) && errs.KindOf(err) != errs.NotFound {
			return nil, fmt.Errorf("find service %q: %w", in.Slug, err)
		}
		return nil, catalog.ErrServiceNotFound
	}
	if in.Method != svc.Method {
		return nil, &MethodError{Allow: svc.Method}
	}
	key, owner, err := a.authenticateKey(ctx, in.Key, in.Secret)
	if err != nil {
		return nil, err
	}
	now := a.now()
	*kq = calledKey{key: key, day: a.day(now)}
	price, err := a.applicablePrice(ctx, svc.ID, owner.ID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, catalog.ErrServiceNotFound // not sold
		}
		return nil, fmt.Errorf("find price: %w", err)
	}

	params, payload, perr := parseParams(svc.Method, in.Query, in.Body)
	specs, err := a.paramSpecs(ctx, svc)
	if err != nil {
		return nil, fmt.Errorf("find docs: %w", err)
	}
	// The hit log keeps sensitive values masked; upstream gets params and
	// payload as sent. secrets are the full values, to scrub from answers.
	stored, secrets, dropped := storedPayload(specs, params, payload, perr)
	hit := &hitlog.Hit{
		UserID: owner.ID, ServiceID: svc.ID, APIKeyID: key.ID, RequestID: in.RequestID,
		RequestPayload: a.capPayload(stored), IPAddress: in.IP,
		ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, CreatedAt: now.UTC(),
	}
	if !key.AllowsIP(hit.IPAddress) {
		return nil, a.reject(ctx, hit, hitlog.StatusFailed, apikey.ErrIPNotAllowed, now)
	}
	if !key.AllowsService(svc.ID) {
		return nil, a.reject(ctx, hit, hitlog.StatusFailed, apikey.ErrServiceNotAllowed, now)
	}
	if perr == nil {
		if perr = specs.Validate(params); perr != nil && len(dropped) > 0 {
			perr = &scrubbedError{error: perr, names: dropped}
		}
	}

	// The daily counter, the plan limit, the balance check and the debit
	// are decided in the batch's transaction (batch.go), in that order;
	// refused parameters are counted, then logged.
	charge := price.Charge(owner.Role)
	day := kq.day
	if perr == nil {
		hc, ok, exhausted, err := a.takeHold(ctx, owner, key.ID, charge, day)
		if err != nil {
			return nil, err
		}
		if ok {
			return a.callOnHold(ctx, svc, params, payload, secrets, hit, price, charge, hc, now)
		}
		if exhausted {
			if err := a.awaitHolds(ctx, owner.ID, key.ID, charge); err != nil {
				return nil, err
			}
		}
	}
	reservation := &batchOp{kind: batchReserve, hit: hit, keyID: key.ID, day: day, month: a.month(now),
		charge: charge, invalid: perr, start: now}
	a.submit(reservation)
	if reservation.counted {
		a.usage.add(key.ID, day, 1)
	}
	if reservation.err != nil {
		return nil, reservation.err
	}

	// The reservation is committed: whatever happens to the caller's
	// connection, the call is settled or refunded.
	a.metrics.ReservationStarted() // metrics: reservation in flight, until settled or refunded (or given up)
	data, _, failure := a.callUpstream(ctx, svc, params, payload, secrets, hit, price, charge, now)
	settlement := &batchOp{kind: batchSettle, hit: hit, month: reservation.month}
	if failure == nil {
		res := &CallResult{RequestID: hit.RequestID, Data: data, Charged: charge, BalanceLeft: reservation.balance}
		a.settleLater(settlement)
		return res, nil
	}
	defer a.metrics.ReservationSettled()
	if err := a.settle(settlement); err != nil {
		return nil, err
	}
	return nil, failure
}

// callOnHold runs a call that took its money and daily count from a hold
// (holds.go): it calls upstream at once and answers; the hit and its
// charge are written afterwards by the capture writer (captureLater). A
// failed call is not charged. A call that saw the database fail while it
// ran answers 503 and is not charged: its charge might not be written.
func (a *Metering) callOnHold(ctx context.Context, svc *catalog.Service, params map[string]any, payload string, secrets []string,
	hit *hitlog.Hit, price *pricing.Price, charge decimal.Decimal, hc holdCall, now time.Time) (*CallResult, error) {
	a.metrics.ReservationStarted() // metrics: in flight until its charge is written (or given up)
	data, upStart, failure := a.callUpstream(ctx, svc, params, payload, secrets, hit, price, charge, now)
	if failure == nil && a.holdsFailedSince(upStart) {
		failure = ErrMeteringUnavailable
		failHit(hit, failure)
	}
	requestID := hit.RequestID // hit is the capture writer's once queued
	a.captureLater(&batchOp{kind: batchCapture, hit: hit, hold: hc.lh, charge: charge, month: a.month(now)})
	if failure != nil {
		return nil, failure
	}
	return &CallResult{RequestID: requestID, Data: data, Charged: charge, BalanceLeft: hc.balanceLeft}, nil
}

// callUpstream makes a metered call's upstream call and records its
// outcome on hit: a usable answer (2xx with JSON) succeeds at charge, with
// the price's admin cost and the answer as payload (data, failure nil);
// anything else fails with its error (failHit). started is when the
// upstream call began. The stored payloads have secrets (the full values
// of sensitive parameters) masked wherever the upstream echoed them.
func (a *Metering) callUpstream(ctx context.Context, svc *catalog.Service, params map[string]any, payload string, secrets []string,
	hit *hitlog.Hit, price *pricing.Price, charge decimal.Decimal, now time.Time) (data json.RawMessage, started time.Time, failure error) {
	started = time.Now() // metrics: upstream latency
	resp, callErr := a.up.Do(context.WithoutCancel(ctx), a.upstreamRequest(svc, params, payload))
	hit.ResponseTimeMs = int(a.now().Sub(now) / time.Millisecond)
	upOK := callErr == nil && resp.Status >= 200 && resp.Status < 300 && json.Valid(resp.Body)
	a.metrics.UpstreamDone(svc.Slug, time.Since(started), upOK) // metrics
	if !upOK {
		failure = upstreamFailure(resp, callErr)
		failHit(hit, failure)
		if len(secrets) > 0 {
			body := sensitive.Scrub(*hit.ResponsePayload, secrets)
			hit.ResponsePayload = &body
		}
		return nil, started, failure
	}
	hit.Status = hitlog.StatusSuccess
	hit.ChargeAmount = charge
	hit.CostAmount = price.AdminCost // the upstream's cost of this call, for the platform's margin
	body := a.capPayload(sensitive.Scrub(string(resp.Body), secrets))
	hit.ResponsePayload = &body
	return json.RawMessage(resp.Body), started, nil
}

// failHit records a failed call on its hit: no charge, no cost, the error
// as payload.
func failHit(hit *hitlog.Hit, failure error) {
	body := errorPayload(failure)
	hit.Status = hitlog.StatusFailed
	hit.ChargeAmount, hit.CostAmount = decimal.Zero, decimal.Zero
	hit.ResponsePayload = &body
}

// captureLater queues a hold call's hit and charge for the capture writer
// and returns at once; the writer retries while the database refuses it,
// for up to Config.SettleRetryWindow (then the call stays uncharged and its
// hold is released by recovery).
func (a *Metering) captureLater(op *batchOp) {
	a.unsettled.Add(1)
	op.firstTry = time.Now()
	op.after = a.afterCapture
	a.enqueueCapture(op)
}

// enqueueCapture queues a capture for the capture writer without waiting.
func (a *Metering) enqueueCapture(op *batchOp) { a.captures.enqueue(op, a.writeBatch) }

// afterCapture ends a capture, or queues it again while the database is
// away.
func (a *Metering) afterCapture(op *batchOp) {
	switch {
	case op.err == nil:
		a.callDone(op.hold, true, op.written.Reserved)
	case a.retryLater(op, a.enqueueCapture):
		a.databaseFailed(op.err)
		return
	default:
		a.log.Error("call's hit and charge not written; the call is not charged", "request_id", op.hit.RequestID, "err", op.err)
		a.callDone(op.hold, false, decimal.Zero)
	}
	a.metrics.ReservationSettled()
	a.unsettled.Done()
}

// ErrHitNotPending is a settlement that found its hit already settled or
// refunded (crash recovery of another instance took it).
var ErrHitNotPending = errs.E(errs.Conflict, "hit_not_pending", "The call was already settled")

// settle writes a call's outcome (and a failure's refund) through the
// batch writer.
func (a *Metering) settle(op *batchOp) error {
	a.submit(op)
	if op.err != nil {
		return fmt.Errorf("settle hit %s: %w", op.hit.RequestID, op.err)
	}
	if !op.moved {
		return fmt.Errorf("settle hit %s: %w", op.hit.RequestID, ErrHitNotPending)
	}
	return nil
}

// settleLater queues a successful call's settlement and returns at once:
// the charge committed with the reservation, so the answer need not wait
// for the hit's row to read success. The writer retries a settlement the database refused for
// up to Config.SettleRetryWindow; App.Wait waits for every one, and
// awaitSettlements lets a read see this instance's earlier calls settled.
func (a *Metering) settleLater(op *batchOp) {
	a.unsettled.Add(1)
	op.firstTry = time.Now()
	op.after = a.afterSettle
	a.enqueueSettlement(op)
}

// DefaultSettleRetryWindow bounds the retries of a settlement queued by
// settleLater (Config.SettleRetryWindow, and at most half of
// PendingHitGrace, so that the call's own settlement is tried well before
// recovery may take the hit); a hit still pending after it is refunded by
// crash recovery once PendingHitGrace has passed.
const DefaultSettleRetryWindow = 30 * time.Second

// afterSettle ends a settlement queued by settleLater, or queues it again
// while the database is away.
func (a *Metering) afterSettle(op *batchOp) {
	switch {
	case op.err == nil && op.moved:
	case op.err == nil:
		a.log.Warn("settlement found its hit no longer pending (crash recovery refunded it)", "request_id", op.hit.RequestID)
	case a.retryLater(op, a.enqueueSettlement):
		return
	default:
		a.log.Error("settlement failed; the hit stays pending until crash recovery refunds it", "request_id", op.hit.RequestID, "err", op.err)
	}
	a.metrics.ReservationSettled()
	a.unsettled.Done()
}

// retryWindow is how long a write queued after the answer (a settlement,
// a hold call's charge, a hold's release) is tried again while the
// database refuses it: Config.SettleRetryWindow, and at most half of
// PendingHitGrace, so that it is tried well before recovery may take over.
func (a *Metering) retryWindow() time.Duration {
	return min(a.cfg.SettleRetryWindow, a.cfg.PendingHitGrace/2)
}

// retryWait is the pause before try number try+1 of such a write: 250 ms,
// 500 ms, 1 s, then every 2 s.
func retryWait(try uint) time.Duration { return 250 * time.Millisecond << min(try, 3) }

// retryLater queues op again through enqueue after retryWait, if its first
// try is within retryWindow, and reports whether it did.
func (a *Metering) retryLater(op *batchOp, enqueue func(*batchOp)) bool {
	if time.Since(op.firstTry) >= a.retryWindow() {
		return false
	}
	wait := retryWait(op.tries)
	op.tries++
	time.AfterFunc(wait, func() { enqueue(op) })
	return true
}

// enqueueSettlement queues a settlement for its writer without waiting.
func (a *Metering) enqueueSettlement(op *batchOp) {
	b, write := a.writerOf(op)
	b.enqueue(op, write)
}

// authenticateKey resolves key and secret to an active key and its owner,
// reading the key through the lookups.
func (a *Metering) authenticateKey(ctx context.Context, key, secret string) (*apikey.Key, *user.User, error) {
	if secret == "" || len(secret) > 128 || key == "" || len(key) > 64 {
		return nil, nil, apikey.ErrInvalidCredentials
	}
	k, err := a.keyByKey(ctx, key)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, nil, apikey.ErrInvalidCredentials
		}
		return nil, nil, fmt.Errorf("find key: %w", err)
	}
	if k.Status != apikey.StatusActive || !k.SecretMatches(secret) {
		return nil, nil, apikey.ErrInvalidCredentials
	}
	u, err := a.keyOwner(ctx, k)
	if err != nil {
		return nil, nil, err
	}
	return k, u, nil
}

// keyOwner is the owner of an authenticated key: 401 when gone, 403 when
// not active.
func (a *Metering) keyOwner(ctx context.Context, k *apikey.Key) (*user.User, error) {
	u, err := a.userByID(ctx, k.UserID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, apikey.ErrInvalidCredentials
		}
		return nil, fmt.Errorf("find key owner: %w", err)
	}
	if u.IsDeleted() {
		return nil, apikey.ErrInvalidCredentials
	}
	if u.Status != user.StatusActive {
		return nil, user.ErrNotActive
	}
	return u, nil
}

// admit runs the key's checks after authentication: allowed addresses, allowed services, the daily limit. A refusal
// writes the hit log row.
func (a *Metering) admit(ctx context.Context, key *apikey.Key, serviceID uint64, hit *hitlog.Hit, now time.Time) error {
	if !key.AllowsIP(hit.IPAddress) {
		return a.reject(ctx, hit, hitlog.StatusFailed, apikey.ErrIPNotAllowed, now)
	}
	if !key.AllowsService(serviceID) {
		return a.reject(ctx, hit, hitlog.StatusFailed, apikey.ErrServiceNotAllowed, now)
	}
	ok, err := a.st.Keys.CountHit(ctx, key.ID, a.day(now), now.UTC())
	if err != nil {
		return fmt.Errorf("count hit: %w", err)
	}
	if !ok {
		return a.reject(ctx, hit, hitlog.StatusFailed, apikey.ErrDailyLimit, now)
	}
	return nil
}

// reserve debits the charge and inserts the pending hit in one transaction,
// under the user's row lock, so concurrent calls can never overdraw. extra,
// when set, adds an operation's own writes to that transaction (a gateway
// recharge's debit). It returns the balance after the debits.
func (a *Metering) reserve(ctx context.Context, userID uint64, hit *hitlog.Hit, charge decimal.Decimal, now time.Time,
	extra func(ctx context.Context, s store.Stores, u *user.User) error) (decimal.Decimal, error) {
	var balance decimal.Decimal
	month := a.month(now)
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		u, err := s.Users.LockByID(ctx, userID)
		if err != nil {
			return fmt.Errorf("lock user %d: %w", userID, err)
		}
		// The key's daily count was taken before (admit).
		if err := Admit(Standing{DailyLeft: 1, Owner: u, Month: month, Charge: charge}); err != nil {
			return err
		}
		hit.Status = hitlog.StatusPending
		hit.Reserved, hit.Admitted = charge, admitted(charge)
		if err := s.Hits.Insert(ctx, hit); err != nil {
			return fmt.Errorf("insert hit: %w", err)
		}
		if charge.IsPositive() {
			id := hit.ID
			if _, err := store.Post(ctx, s, a.now(), a.cfg.Livemode, u, ledger.Debit, charge, ledger.RefAPIHit, &id, "API call "+hit.RequestID); err != nil {
				return err
			}
		}
		if extra != nil {
			if err := extra(ctx, s, u); err != nil {
				return err
			}
		}
		u.CountPlanCall(month)
		if err := s.Users.SaveBalance(ctx, u); err != nil {
			return fmt.Errorf("save balance: %w", err)
		}
		balance = u.Balance
		return nil
	})
	if err != nil {
		hit.ID = 0
		hit.Reserved, hit.Admitted = decimal.Zero, nil
	}
	return balance, err
}

// refund returns a reserved charge and marks the hit failed, in one transaction.
func (a *Metering) refund(ctx context.Context, hit *hitlog.Hit, failure error, now time.Time) error {
	failHit(hit, failure)
	month := a.month(now)
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		u, err := s.Users.LockByID(ctx, hit.UserID)
		if err != nil {
			return fmt.Errorf("lock user %d: %w", hit.UserID, err)
		}
		if hit.Reserved.IsPositive() {
			id := hit.ID
			if _, err := store.Post(ctx, s, a.now(), a.cfg.Livemode, u, ledger.Refund, hit.Reserved, ledger.RefAPIHit, &id, "Refund of failed API call "+hit.RequestID); err != nil {
				return err
			}
		}
		u.UncountPlanCall(month)
		if err := s.Users.SaveBalance(ctx, u); err != nil {
			return fmt.Errorf("save balance: %w", err)
		}
		return s.Hits.Finish(ctx, hit)
	})
	if err != nil {
		return fmt.Errorf("refund hit %s: %w", hit.RequestID, err)
	}
	return nil
}

// reject writes the hit log row of a call refused before any charge.
func (a *Metering) reject(ctx context.Context, hit *hitlog.Hit, status hitlog.Status, cause error, now time.Time) error {
	body := errorPayload(cause)
	hit.Status = status
	hit.ChargeAmount = decimal.Zero
	hit.ResponsePayload = &body
	hit.ResponseTimeMs = int(a.now().Sub(now) / time.Millisecond)
	if err := a.st.Hits.Insert(context.WithoutCancel(ctx), hit); err != nil {
		return fmt.Errorf("log rejected hit: %w (rejected with: %v)", err, cause)
	}
	return cause
}

func (a *Metering) upstreamRequest(svc *catalog.Service, params map[string]any, payload string) UpstreamRequest {
	h := http.Header{}
	providerKey := ""
	if svc.ProviderKey != nil {
		providerKey = *svc.ProviderKey
	}
	for name, v := range svc.Headers {
		h.Set(name, strings.ReplaceAll(v, "{provider_key}", providerKey))
	}
	req := UpstreamRequest{Method: svc.Method, URL: svc.ProviderURL, Header: h, Timeout: a.cfg.UpstreamTimeout}
	if svc.Method == http.MethodGet || svc.Method == http.MethodDelete {
		q := url.Values{}
		for k, v := range params {
			q.Set(k, fmt.Sprint(v))
		}
		req.Query = q
	} else {
		req.Body = []byte(payload)
	}
	return req
}

// JSONBlank reports whether b holds only the whitespace JSON allows between
// tokens (RFC 8259: space, tab, CR, LF). bytes.TrimSpace would also take
// \v, \f and Unicode spaces, letting `{}\v` pass as JSON (seed
// f1e9a4b59530a1da). The panel's and the gateway's body checks use it too.
func JSONBlank(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

// parseParams reads the caller's parameters: the query string for GET and
// DELETE services, the JSON object body for POST and PUT. payload is the
// JSON kept in the hit log (and sent upstream for POST/PUT).
func parseParams(method string, query url.Values, body []byte) (map[string]any, string, error) {
	params := map[string]any{}
	if method == http.MethodGet || method == http.MethodDelete {
		for k, v := range query {
			if len(v) > 0 {
				params[k] = v[0]
			}
		}
		b, _ := json.Marshal(params)
		return params, string(b), nil
	}
	if JSONBlank(body) {
		return params, "{}", nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	// Only blanks may follow the object: dec.More() let `{"a":1}]` through
	// as a payload that is not JSON; `null` decodes to no map (both found by
	// FuzzParseParams).
	if err := dec.Decode(&params); err != nil || params == nil || !JSONBlank(body[dec.InputOffset():]) {
		b, _ := json.Marshal(map[string]string{"invalid_body": truncate(string(body), 1000)})
		return nil, string(b), ErrBodyNotObject
	}
	return params, string(body), nil
}

// storedPayload is the hit log's request_payload of a call: for a service
// with sensitive parameters, only its documented parameters, sensitive
// values masked (catalog's Stored), those values in full (to scrub from the
// stored answer), and the names dropped. A body that is not a JSON object
// cannot be told apart into parameters: with sensitive parameters, it is
// kept masked whole.
func storedPayload(specs *catalog.CompiledSpecs, params map[string]any, payload string, perr error) (string, []string, []string) {
	if !specs.HasSensitive() {
		return payload, nil, nil
	}
	if perr != nil {
		var bad map[string]string
		if json.Unmarshal([]byte(payload), &bad) != nil {
			return `{"invalid_body":""}`, nil, nil
		}
		b, _ := json.Marshal(map[string]string{"invalid_body": sensitive.Mask(bad["invalid_body"])})
		return string(b), nil, nil
	}
	stored, secrets, dropped := specs.Stored(params)
	b, err := json.Marshal(stored)
	if err != nil {
		return `{}`, secrets, dropped
	}
	return string(b), secrets, dropped
}

// scrubbedError is a refusal that names parameters the hit log must not
// keep (an undocumented name of a service with sensitive parameters may be
// the number itself): the caller's answer names them, the stored answer
// (errorPayload) has them masked.
type scrubbedError struct {
	error
	names []string
}

func (e *scrubbedError) Unwrap() error { return e.error }

// upstreamFailure turns a bad upstream answer into the 500 the caller sees.
func upstreamFailure(resp UpstreamResponse, callErr error) error {
	msg := "Service error"
	switch {
	case callErr != nil:
		msg = "Service error: " + callErr.Error()
	case resp.Status >= 200 && resp.Status < 300:
		msg = "Service error: upstream answered invalid JSON"
	default:
		var body struct {
			Message any `json:"message"`
			Error   any `json:"error"`
		}
		if json.Unmarshal(resp.Body, &body) == nil {
			for _, v := range []any{body.Message, body.Error} {
				if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
					msg = truncate(strings.TrimSpace(s), 200)
					break
				}
			}
		}
	}
	return errs.E(errs.Upstream, "upstream_error", msg)
}

func errorPayload(err error) string {
	out := map[string]any{"error": "internal_error", "message": "Internal error"}
	if e, ok := errs.As(err); ok {
		out["error"], out["message"] = e.Code, e.Message
		if len(e.Fields) > 0 {
			out["errors"] = e.Fields
		}
	}
	b, _ := json.Marshal(out)
	var se *scrubbedError
	if errors.As(err, &se) {
		return scrubNames(string(b), se.names)
	}
	return string(b)
}

// scrubNames masks names in a JSON text, as they are and as JSON escapes
// them.
func scrubNames(text string, names []string) string {
	all := make([]string, 0, 2*len(names))
	for _, n := range names {
		q, _ := json.Marshal(n)
		all = append(all, n, string(q[1:len(q)-1]))
	}
	return sensitive.Scrub(text, all)
}

// capPayload keeps hit log payloads within the column; a larger one is
// replaced by a JSON note of its size.
// Bytes that are not UTF-8 (encoding/json lets them through inside
// strings) become U+FFFD: MySQL refuses such text, and one refused row
// would fail the whole group-committed batch of other users' calls.
func (a *Metering) capPayload(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= a.cfg.MaxPayloadBytes {
		return s
	}
	b, _ := json.Marshal(map[string]any{"truncated": true, "bytes": len(s)})
	return string(b)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
