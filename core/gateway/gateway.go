package gateway

import (
	"context"

	"github.com/shopspring/decimal"

	"paygate/core/billing/gst"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/metering"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

// Slugs of the built-in services through which gateway operations are
// billed.
const (
	SlugPaymentCreate  = "payment-create"
	SlugAccountVerify  = "account-verify"
	SlugRechargeMobile = "recharge-mobile"
	SlugPayoutTransfer = "payout-transfer"
	SlugAccountOpen    = "account-open"
)

// ErrProviderUnavailable answers a gateway call whose provider did not
// answer; the charge is refunded.
var ErrProviderUnavailable = errs.E(errs.Unavailable, "provider_unavailable", "Provider unavailable, please retry")

// movesMoney are the built-in services whose charge is a fee for moving
// money (a payment collected, a recharge paid, a payout sent): their SAC is
// gst.PaymentSAC. Account verification and account opening are
// information services: the supplier's default SAC (migration 00050 sets
// the same on existing databases).
var movesMoney = map[string]bool{SlugPaymentCreate: true, SlugRechargeMobile: true, SlugPayoutTransfer: true}

// Services are the built-in service rows with their default prices, SAC
// and documentation, created at every start when missing (whatever
// DEMO_DATA says) and editable by admins afterwards.
func Services() []catalog.Seed {
	str := func(required bool, desc string) catalog.ParamSpec {
		return catalog.ParamSpec{Type: "string", Required: required, Description: &desc}
	}
	errorCodes := map[string]string{
		"401": "Invalid API credentials", "402": "Insufficient balance", "403": "IP not whitelisted",
		"422": "Invalid parameters", "429": "Daily limit exceeded / Monthly plan limit reached",
	}
	seed := func(slug, name, desc, price string, params map[string]catalog.ParamSpec, example map[string]any) catalog.Seed {
		d := desc
		p := decimal.RequireFromString(price)
		var sac *string
		if movesMoney[slug] {
			code := gst.PaymentSAC
			sac = &code
		}
		return catalog.Seed{
			Service: catalog.Service{Name: name, Slug: slug, Description: &d, Category: "gateway",
				ProviderURL: "builtin://" + slug, Method: "POST", Status: catalog.StatusActive, Builtin: true, SAC: sac},
			Doc: &catalog.Doc{Endpoint: gatewayEndpoints[slug], Method: "POST", Description: desc,
				RequestParams: params, ResponseExample: example, ErrorCodes: errorCodes},
			Price: pricing.Price{UserPrice: p, ResellerPrice: p, AdminCost: decimal.Zero, MinimumHitCharge: decimal.Zero,
				Status: pricing.StatusActive},
		}
	}
	return []catalog.Seed{
		seed(SlugPaymentCreate, "Payment create",
			"Create a payment and get its hosted UPI checkout page (PUBLIC_BASE_URL/<payment_id>). Authorization: Bearer <API secret>; optional Idempotency-Key header.",
			"0.00", map[string]catalog.ParamSpec{
				"amount":       {Type: "number", Required: true},
				"currency":     str(true, "INR"),
				"customer_id":  str(true, "your customer's id"),
				"callback_url": str(true, "an http(s) URL of yours"),
			}, map[string]any{"status": "success", "payment_id": "pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5",
				"payment_url": "http://localhost:8080/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5"}),
		seed(SlugAccountVerify, "Account verification",
			"Verify a bank account (account_number, ifsc), UPI address (vpa), PAN (pan, optional name and dob) or Aadhaar number (aadhaar). Authorization: Bearer <API secret>.",
			"1.00", map[string]catalog.ParamSpec{
				"type": str(true, "bank_account, upi, pan or aadhaar"), "account_number": str(false, "bank_account"),
				"ifsc": str(false, "bank_account"), "vpa": str(false, "upi"), "pan": str(false, "pan"),
				"name": str(false, "pan, optional"), "dob": str(false, "pan, optional, YYYY-MM-DD"), "aadhaar": str(false, "aadhaar"),
			}, map[string]any{"success": true, "request_id": "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "charged": "1.0000", "balance_left": "99.00",
				"data": map[string]any{"verified": true, "name_at_source": "Rahul Sharma", "reference_id": "VRF3F2A9C0D1B7E",
					"type": "upi", "identifier": "ra**********@okaxis", "message": nil}}),
		seed(SlugRechargeMobile, "Mobile recharge",
			"Recharge a prepaid mobile number; the amount is debited besides this fee, and refunded if the operator fails it. Authorization: Bearer <API secret>.",
			"0.00", map[string]catalog.ParamSpec{
				"mobile": str(true, "10 digits"), "operator": str(true, "airtel, jio, vi or bsnl"),
				"circle": str(true, "GET /api/v1/recharge/circles"), "amount": {Type: "number", Required: true},
				"reference_id": str(true, "your id, unique per account; retries with it are safe"),
			}, map[string]any{"success": true, "request_id": "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "charged": "0.0000", "balance_left": "301.00",
				"data": map[string]any{"id": 1, "reference_id": "rc-1001", "mobile": "9876543210", "operator": "jio",
					"circle": "delhi", "amount": "199.00", "status": "pending"}}),
		// The beneficiary is a JSON object; its fields are documented by
		// dotted names, which the panel's try-it console nests.
		seed(SlugPayoutTransfer, "Payout (money transfer)",
			"Send money to a bank account (IMPS, NEFT) or a UPI address. This service's charge is the fee; the amount and the fee are debited before the bank is asked, and a failure gives both back (a reversal, the amount). Authorization: Bearer <API secret>.",
			"5.00", map[string]catalog.ParamSpec{
				"beneficiary.type": str(true, "bank_account or vpa"), "beneficiary.name": str(true, "the name on the account"),
				"beneficiary.account_number": str(false, "bank_account: 9 to 18 digits"), "beneficiary.ifsc": str(false, "bank_account"),
				"beneficiary.vpa": str(false, "vpa: name@bank"), "amount": {Type: "number", Required: true},
				"mode":         str(false, "IMPS or NEFT for a bank account (default IMPS), UPI for a vpa"),
				"reference_id": str(true, "your id, unique per account; retries with it are safe"),
				"narration":    str(false, "at most 30 characters, on the beneficiary's statement"),
			}, map[string]any{"success": true, "request_id": "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "charged": "5.0000", "balance_left": "4495.00",
				"data": map[string]any{"payout_id": "pout_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "reference_id": "po-1001", "amount": "500.00",
					"fee": "5.0000", "mode": "IMPS", "status": "processing", "livemode": false,
					"beneficiary": map[string]any{"type": "bank_account", "name": "Asha Traders", "account_number": "XXXXXXXX9012",
						"ifsc": "HDFC0001234", "vpa": nil}}}),
		seed(SlugAccountOpen, "Digital account opening",
			"Open a savings account for an applicant: the bank sends them to its KYC page (kyc_url), then opens the account or rejects it (events account_opening.opened, account_opening.rejected). pan and aadhaar are stored and shown masked. Authorization: Bearer <API secret>.",
			"0.00", map[string]catalog.ParamSpec{
				"name": str(true, "the applicant's full name, 1 to 100 characters"), "dob": str(true, "YYYY-MM-DD; 18 or older"),
				"pan":     {Type: "string", Required: true, Sensitive: true, Description: ptr("5 letters, 4 digits, 1 letter")},
				"aadhaar": {Type: "string", Required: true, Sensitive: true, Description: ptr("12 digits, not starting with 0 or 1")},
				"mobile":  str(true, "10 digits"), "email": str(true, "the applicant's email"),
				"address": str(true, "1 to 300 characters"), "product": str(true, "savings"),
				"reference_id": str(true, "your id, unique per account; retries with it are safe"),
			}, map[string]any{"success": true, "request_id": "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "charged": "0.0000", "balance_left": "100.00",
				"data": map[string]any{"opening_id": "aco_01J9Z8X4K3M2N1P0Q9R8S7T6V5", "reference_id": "ao-1001", "product": "savings",
					"status": "kyc_pending", "kyc_url": "https://sandbox.example/kyc/aco_01J9Z8X4K3M2N1P0Q9R8S7T6V5",
					"applicant": map[string]any{"name": "Asha Rao", "pan": "XXXXXX234F", "aadhaar": "XXXXXXXX9012"}, "livemode": false}}),
	}
}

func ptr(s string) *string { return &s }

// gatewayEndpoints are the paths of the built-in services' operations.
var gatewayEndpoints = map[string]string{
	SlugPaymentCreate: "/api/v1/payment/create", SlugAccountVerify: "/api/v1/account/verify",
	SlugRechargeMobile: "/api/v1/recharge/mobile", SlugPayoutTransfer: "/api/v1/payout/transfer",
	SlugAccountOpen: "/api/v1/account/open",
}

// ServiceEndpoint is where a service is called: /api/v1/<slug>, or the
// gateway path of a built-in service.
func ServiceEndpoint(s *catalog.Service) string {
	if p, ok := gatewayEndpoints[s.Slug]; ok && s.Builtin {
		return p
	}
	return "/api/v1/" + s.Slug
}

// KeyCaller is a gateway caller identified by its key's secret (and,
// optionally, the key).
type KeyCaller struct {
	Creds metering.Credentials
	IP    string
}

// ListKeyTransactions is GET /api/v1/transaction/list: the key owner's ledger.
func (a *Gateway) ListKeyTransactions(ctx context.Context, c KeyCaller, f ledger.Filter) ([]ledger.Entry, int64, error) {
	_, u, err := a.meter.AuthenticateGateway(ctx, c.Creds, c.IP)
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
