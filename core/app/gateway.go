package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/apikey"
	"paygate/core/catalog"
	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/pricing"
	"paygate/core/user"
)

// Slugs of the built-in services through which gateway operations are
// billed (decisions part 7).
const (
	SlugPaymentCreate  = "payment-create"
	SlugAccountVerify  = "account-verify"
	SlugRechargeMobile = "recharge-mobile"
)

// ErrProviderUnavailable answers a gateway call whose provider did not
// answer; the charge is refunded.
var ErrProviderUnavailable = errs.E(errs.Unavailable, "provider_unavailable", "Provider unavailable, please retry")

// GatewayServices are the built-in service rows with their default prices
// and documentation, created at every start when missing (whatever
// DEMO_DATA says) and editable by admins afterwards.
func GatewayServices() []ServiceSeed {
	str := func(required bool, desc string) catalog.ParamSpec {
		return catalog.ParamSpec{Type: "string", Required: required, Description: &desc}
	}
	errorCodes := map[string]string{
		"401": "Invalid API credentials", "402": "Insufficient balance", "403": "IP not whitelisted",
		"422": "Invalid parameters", "429": "Daily limit exceeded / Monthly plan limit reached",
	}
	seed := func(slug, name, desc, price string, params map[string]catalog.ParamSpec, example map[string]any) ServiceSeed {
		d := desc
		p := decimal.RequireFromString(price)
		return ServiceSeed{
			Service: catalog.Service{Name: name, Slug: slug, Description: &d, Category: "gateway",
				ProviderURL: "builtin://" + slug, Method: "POST", Status: catalog.StatusActive, Builtin: true},
			Doc: &catalog.Doc{Endpoint: gatewayEndpoints[slug], Method: "POST", Description: desc,
				RequestParams: params, ResponseExample: example, ErrorCodes: errorCodes},
			Price: pricing.Price{UserPrice: p, ResellerPrice: p, AdminCost: decimal.Zero, MinimumHitCharge: decimal.Zero,
				Status: pricing.StatusActive},
		}
	}
	return []ServiceSeed{
		seed(SlugPaymentCreate, "Payment create",
			"Create a payment and get its hosted UPI checkout page (PUBLIC_BASE_URL/<payment_id>). Authorization: Bearer <API key>; optional Idempotency-Key header.",
			"0.00", map[string]catalog.ParamSpec{
				"amount":       {Type: "number", Required: true},
				"currency":     str(true, "INR"),
				"customer_id":  str(true, "your customer's id"),
				"callback_url": str(true, "an http(s) URL of yours"),
			}, map[string]any{"status": "success", "payment_id": "pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5",
				"payment_url": "http://localhost:8080/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5"}),
		seed(SlugAccountVerify, "Account verification",
			"Verify a bank account (account_number, ifsc), UPI address (vpa), PAN (pan, optional name and dob) or Aadhaar number (aadhaar). Authorization: Bearer <API key>.",
			"1.00", map[string]catalog.ParamSpec{
				"type": str(true, "bank_account, upi, pan or aadhaar"), "account_number": str(false, "bank_account"),
				"ifsc": str(false, "bank_account"), "vpa": str(false, "upi"), "pan": str(false, "pan"),
				"name": str(false, "pan, optional"), "dob": str(false, "pan, optional, YYYY-MM-DD"), "aadhaar": str(false, "aadhaar"),
			}, map[string]any{"success": true, "request_id": "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "charged": "1.0000", "balance_left": "99.00",
				"data": map[string]any{"verified": true, "name_at_source": "Rahul Sharma", "reference_id": "VRF3F2A9C0D1B7E",
					"type": "upi", "identifier": "ra**********@okaxis", "message": nil}}),
		seed(SlugRechargeMobile, "Mobile recharge",
			"Recharge a prepaid mobile number; the amount is debited besides this fee, and refunded if the operator fails it. Authorization: Bearer <API key>.",
			"0.00", map[string]catalog.ParamSpec{
				"mobile": str(true, "10 digits"), "operator": str(true, "airtel, jio, vi or bsnl"),
				"circle": str(true, "GET /api/v1/recharge/circles"), "amount": {Type: "number", Required: true},
				"reference_id": str(true, "your id, unique per account; retries with it are safe"),
			}, map[string]any{"success": true, "request_id": "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "charged": "0.0000", "balance_left": "301.00",
				"data": map[string]any{"id": 1, "reference_id": "rc-1001", "mobile": "9876543210", "operator": "jio",
					"circle": "delhi", "amount": "199.00", "status": "pending"}}),
	}
}

// EnsureGatewayServices creates the missing built-in gateway services.
func (a *App) EnsureGatewayServices(ctx context.Context) (int, error) {
	return a.Panel.SeedServices(ctx, GatewayServices())
}

// gatewayEndpoints are the paths of the built-in services' operations.
var gatewayEndpoints = map[string]string{
	SlugPaymentCreate: "/api/v1/payment/create", SlugAccountVerify: "/api/v1/account/verify",
	SlugRechargeMobile: "/api/v1/recharge/mobile",
}

// ServiceEndpoint is where a service is called: /api/v1/<slug>, or the
// gateway path of a built-in service.
func ServiceEndpoint(s *catalog.Service) string {
	if p, ok := gatewayEndpoints[s.Slug]; ok && s.Builtin {
		return p
	}
	return "/api/v1/" + s.Slug
}

// gatewayOp is one gateway operation, metered like a service call
// (decisions part 3) through its built-in service row.
type gatewayOp struct {
	slug, requestID, key, ip string
	payload                  any   // the hit log's request_payload: identifiers masked
	invalid                  error // the request's validation result: 422 after the key checks
	// replay answers a retry of an earlier request (same Idempotency-Key or
	// reference_id) without billing: true when it did. Its error (a key
	// reused for another request) is the caller's answer.
	replay func(ctx context.Context, k *apikey.Key, u *user.User) (bool, error)
	// reserve adds the operation's writes to the reservation transaction,
	// under the caller's row lock.
	reserve func(ctx context.Context, s Stores, u *user.User, hit *hitlog.Hit) error
	// perform runs outside any transaction once the charge is reserved; an
	// error refunds the charge and is the caller's answer. The result is the
	// hit's response_payload.
	perform func(ctx context.Context, hit *hitlog.Hit) (any, error)
}

// GatewayCharge is what a gateway call cost.
type GatewayCharge struct {
	RequestID   string
	Charged     decimal.Decimal
	BalanceLeft decimal.Decimal
	Replayed    bool // an earlier request's answer, not billed again
}

// meter runs op with the checks, reservation and settlement of a metered
// service call: every call past authentication writes one hit log row.
func (a *App) meter(ctx context.Context, op gatewayOp) (*GatewayCharge, error) {
	svc, err := a.st.Services.BySlug(ctx, op.slug)
	if err != nil || svc.Status != catalog.StatusActive {
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return nil, fmt.Errorf("find service %q: %w", op.slug, err)
		}
		return nil, catalog.ErrServiceNotFound
	}
	key, owner, err := a.resolveKey(ctx, op.key, nil)
	if err != nil {
		return nil, err
	}
	price, err := a.st.Pricing.Applicable(ctx, svc.ID, owner.ID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, catalog.ErrServiceNotFound
		}
		return nil, fmt.Errorf("find price: %w", err)
	}
	now := a.now()
	payload, _ := json.Marshal(op.payload)
	hit := &hitlog.Hit{
		UserID: owner.ID, ServiceID: svc.ID, APIKeyID: key.ID, RequestID: op.requestID,
		RequestPayload: a.capPayload(string(payload)), IPAddress: op.ip,
		ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, CreatedAt: now.UTC(),
	}
	if err := a.admit(ctx, key, svc.ID, hit, now); err != nil {
		return nil, err
	}
	if op.invalid != nil {
		return nil, a.reject(ctx, hit, hitlog.StatusFailed, op.invalid, now)
	}
	replay := func() (*GatewayCharge, bool, error) {
		if op.replay == nil {
			return nil, false, nil
		}
		done, err := op.replay(ctx, key, owner)
		if err != nil {
			if errs.KindOf(err) == errs.Internal {
				return nil, false, err
			}
			return nil, false, a.reject(ctx, hit, hitlog.StatusFailed, err, now)
		}
		if !done {
			return nil, false, nil
		}
		u, err := a.st.Users.ByID(ctx, owner.ID)
		if err != nil {
			return nil, false, fmt.Errorf("read balance: %w", err)
		}
		// Logged as a successful, unbilled call.
		body := `{"replayed":true}`
		hit.Status, hit.ChargeAmount, hit.Reserved, hit.ResponsePayload = hitlog.StatusSuccess, decimal.Zero, decimal.Zero, &body
		hit.ResponseTimeMs = int(a.now().Sub(now) / time.Millisecond)
		if err := a.st.Hits.Insert(context.WithoutCancel(ctx), hit); err != nil {
			return nil, false, fmt.Errorf("log replayed call: %w", err)
		}
		return &GatewayCharge{RequestID: hit.RequestID, Charged: decimal.Zero, BalanceLeft: u.Balance, Replayed: true}, true, nil
	}
	if res, done, err := replay(); done || err != nil {
		return res, err
	}

	charge := price.Charge(owner.Role)
	var extra func(ctx context.Context, s Stores, u *user.User) error
	if op.reserve != nil {
		extra = func(ctx context.Context, s Stores, u *user.User) error { return op.reserve(ctx, s, u, hit) }
	}
	balance, err := a.reserve(ctx, owner.ID, hit, charge, now, extra)
	if err != nil {
		switch {
		case errors.Is(err, ledger.ErrInsufficientBalance):
			return nil, a.reject(ctx, hit, hitlog.StatusInsufficientBalance, err, now)
		case errors.Is(err, ErrPlanLimit):
			return nil, a.reject(ctx, hit, hitlog.StatusFailed, err, now)
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
	if op.perform != nil {
		upStart := time.Now() // metrics: provider latency
		result, err = op.perform(ctx, hit)
		a.metrics.UpstreamDone(svc.Slug, time.Since(upStart), err == nil) // metrics
	}
	hit.ResponseTimeMs = int(a.now().Sub(now) / time.Millisecond)
	if err != nil {
		if rerr := a.refund(ctx, hit, err, now); rerr != nil {
			return nil, rerr
		}
		return nil, err
	}
	hit.Status = hitlog.StatusSuccess
	hit.ChargeAmount = charge
	hit.CostAmount = price.AdminCost // the provider's cost, for the platform's margin
	body, _ := json.Marshal(result)
	resp := a.capPayload(string(body))
	hit.ResponsePayload = &resp
	if err := a.st.Hits.Finish(ctx, hit); err != nil {
		return nil, fmt.Errorf("settle hit %s: %w", hit.RequestID, err)
	}
	return &GatewayCharge{RequestID: hit.RequestID, Charged: charge, BalanceLeft: balance}, nil
}

// authenticateBearer checks a gateway key for calls that are not billed
// (status, lists): owner active, caller address allowed.
func (a *App) authenticateBearer(ctx context.Context, key, ip string) (*apikey.Key, *user.User, error) {
	k, u, err := a.resolveKey(ctx, key, nil)
	if err != nil {
		return nil, nil, err
	}
	if !k.AllowsIP(ip) {
		return nil, nil, apikey.ErrIPNotAllowed
	}
	return k, u, nil
}

// KeyCaller is a gateway caller identified by its Bearer key.
type KeyCaller struct {
	Key, IP string
}

// ListKeyTransactions is GET /api/v1/transaction/list: the key owner's ledger.
func (a *App) ListKeyTransactions(ctx context.Context, c KeyCaller, f ledger.Filter) ([]ledger.Entry, int64, error) {
	_, u, err := a.authenticateBearer(ctx, c.Key, c.IP)
	if err != nil {
		return nil, 0, err
	}
	id := u.ID
	f.UserID = &id
	return a.st.Ledger.List(ctx, f)
}

// BodyErrors are per-field problems the HTTP edge found while reading a
// gateway body (a field of the wrong JSON type, an unknown field). They are
// answered with the request's validation errors, after the key checks.
type BodyErrors map[string][]string

// withBodyErrors merges the edge's field errors into a validation result.
func withBodyErrors(invalid error, body BodyErrors) error {
	if len(body) == 0 {
		return invalid
	}
	fe := errs.FieldErrors{}
	for k, v := range body {
		fe[k] = append(fe[k], v...)
	}
	if err := fe.Merge(invalid); err != nil {
		return err
	}
	return fe.Err()
}

// withFieldError adds one field's error to invalid.
func withFieldError(invalid error, field, msg string) error {
	return withBodyErrors(invalid, BodyErrors{field: {msg}})
}
