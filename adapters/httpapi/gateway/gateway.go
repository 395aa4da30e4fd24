package gateway

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	meteringhttp "paygate/adapters/httpapi/metering"
	"paygate/adapters/httpapi/web"
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/metering"
	"paygate/core/money/ledger"
	"paygate/core/platform/directory"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Gateway endpoints (docs/decisions.md, "Gateway operations are metered
// like service calls"): Authorization: Bearer <secret>,
// or the key and its secret as a service call sends them.

// gatewayCredentials reads X-API-Key/X-API-Secret or Basic key:secret as
// ServiceCredentials does, else "Authorization: Bearer <secret>" (the
// scheme in any case). A key id in the Bearer header is no secret: it is
// looked up as one and found by nothing.
func gatewayCredentials(c echo.Context) metering.Credentials {
	if key, secret := meteringhttp.ServiceCredentials(c.Request()); key != "" || secret != "" {
		return metering.Credentials{Key: key, Secret: secret}
	}
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
		return metering.Credentials{Secret: strings.TrimSpace(h[7:])}
	}
	return metering.Credentials{}
}

// keyCaller is the caller of a gateway endpoint: its credentials and address.
func keyCaller(c echo.Context) gateway.KeyCaller {
	return gateway.KeyCaller{Creds: gatewayCredentials(c), IP: c.RealIP()}
}

// gatewayBody reads a gateway request's JSON object. Field values stay
// loose here (numbers keep their exact text, never a float64); wrong types
// and unknown fields become field errors that the use case answers after
// the key checks, so a bad request is still a logged, counted call.
type gatewayBody struct {
	fields map[string]any
	errors gateway.BodyErrors
	known  map[string]bool
}

// readGatewayBody reads the body of a gateway request, of which known are
// the expected fields.
func readGatewayBody(kit *web.Kit, c echo.Context, known ...string) (*gatewayBody, error) {
	raw, err := kit.ReadBody(c)
	if err != nil {
		return nil, err
	}
	fields := map[string]any{}
	if !metering.JSONBlank(raw) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		// Only blanks may follow the object (dec.More() let `{…}]` through).
		if err := dec.Decode(&fields); err != nil || !metering.JSONBlank(raw[dec.InputOffset():]) || fields == nil {
			return nil, web.ErrBadJSON
		}
	}
	return newGatewayBody(fields, known), nil
}

// newGatewayBody reads the decoded object fields, of which known are the
// expected keys: any other key is a field error.
func newGatewayBody(fields map[string]any, known []string) *gatewayBody {
	g := &gatewayBody{fields: fields, errors: gateway.BodyErrors{}, known: map[string]bool{}}
	for _, k := range known {
		g.known[k] = true
	}
	for k := range g.fields {
		if !g.known[k] {
			g.errors[k] = append(g.errors[k], "is not a known field")
		}
	}
	return g
}

// str is a text field; numbers are accepted as their exact text when
// numeric is true (amounts: "499.50" or 499.50).
func (g *gatewayBody) str(name string, numeric bool) string {
	switch v := g.fields[name].(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		if numeric {
			return v.String()
		}
	}
	if numeric {
		g.errors[name] = append(g.errors[name], "must be a number or a string")
	} else {
		g.errors[name] = append(g.errors[name], "must be a string")
	}
	return ""
}

// gatewayEnvelope is the success body of a billed gateway call (the
// service call's envelope, callEnvelope).
type gatewayEnvelope struct {
	Success     bool   `json:"success"`
	RequestID   string `json:"request_id"`
	Data        any    `json:"data"`
	Charged     string `json:"charged"`
	BalanceLeft string `json:"balance_left"`
}

func envelope(ch metering.Charge, data any) gatewayEnvelope {
	return gatewayEnvelope{Success: true, RequestID: ch.RequestID, Data: data,
		Charged: inr.Format4(ch.Charged), BalanceLeft: inr.Format2(ch.BalanceLeft)}
}

type verifyData struct {
	Verified     bool    `json:"verified"`
	NameAtSource *string `json:"name_at_source"`
	ReferenceID  string  `json:"reference_id"`
	Type         string  `json:"type"`
	Identifier   string  `json:"identifier"` // masked
	Message      *string `json:"message"`
}

func (h *Handler) VerifyAccount(c echo.Context) error {
	b, err := readGatewayBody(h.kit, c, "type", "account_number", "ifsc", "vpa", "pan", "name", "dob", "aadhaar")
	if err != nil {
		return err
	}
	req := verification.Request{
		Type: verification.Type(b.str("type", false)), AccountNumber: b.str("account_number", true), IFSC: b.str("ifsc", false),
		VPA: b.str("vpa", false), PAN: b.str("pan", false), Name: b.str("name", false), DOB: b.str("dob", false),
		Aadhaar: b.str("aadhaar", true),
	}
	res, err := h.app.Gateway.VerifyAccount(c.Request().Context(), gateway.VerifyInput{
		RequestID: web.RequestID(c), Creds: gatewayCredentials(c), IP: c.RealIP(), Request: req, BodyErrors: b.errors,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope(res.Charge, verifyData{
		Verified: res.Verified, NameAtSource: web.StrPtr(res.NameAtSource), ReferenceID: res.ReferenceID,
		Type: string(res.Type), Identifier: res.Masked, Message: web.StrPtr(res.Message),
	}))
}

type rechargeResponse struct {
	ID          uint64     `json:"id"`
	UserID      uint64     `json:"user_id"`
	ReferenceID string     `json:"reference_id"`
	Mobile      string     `json:"mobile"`
	Operator    string     `json:"operator"`
	Circle      string     `json:"circle"`
	Amount      string     `json:"amount"`
	Status      string     `json:"status"`
	OperatorRef *string    `json:"operator_ref"`
	FailReason  *string    `json:"fail_reason"`
	CreatedAt   *time.Time `json:"created_at"`
	UpdatedAt   *time.Time `json:"updated_at"`
	SubmittedAt *time.Time `json:"submitted_at"`
	// NeedsReconciliation: pending past 48 h without an answer; a person checks with the operator.
	NeedsReconciliation bool `json:"needs_reconciliation"`
}

func toRechargeResponse(r *recharge.Recharge) rechargeResponse {
	return rechargeResponse{
		ID: r.ID, UserID: r.UserID, ReferenceID: r.ReferenceID, Mobile: r.Mobile, Operator: r.Operator, Circle: r.Circle,
		Amount: inr.Format2(r.Amount), Status: string(r.Status), OperatorRef: r.OperatorRef, FailReason: r.FailReason,
		CreatedAt: web.TimePtr(r.CreatedAt), UpdatedAt: web.TimePtr(r.UpdatedAt), SubmittedAt: r.SubmittedAt,
		NeedsReconciliation: r.NeedsReconciliation(),
	}
}

func (h *Handler) RechargeMobile(c echo.Context) error {
	b, err := readGatewayBody(h.kit, c, "mobile", "operator", "circle", "amount", "reference_id")
	if err != nil {
		return err
	}
	req := recharge.Request{
		Mobile: b.str("mobile", true), Operator: b.str("operator", false), Circle: b.str("circle", false),
		Amount: b.str("amount", true), ReferenceID: b.str("reference_id", true),
	}
	res, err := h.app.Gateway.RechargeMobile(c.Request().Context(), gateway.RechargeInput{
		RequestID: web.RequestID(c), Creds: gatewayCredentials(c), IP: c.RealIP(), Request: req, BodyErrors: b.errors,
	})
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return c.JSON(http.StatusOK, envelope(res.Charge, toRechargeResponse(&res.Recharge)))
}

type rechargeStatusResponse struct {
	Success bool             `json:"success"`
	Data    rechargeResponse `json:"data"`
}

func (h *Handler) RechargeStatus(c echo.Context) error {
	ref := c.QueryParam("reference_id")
	if ref == "" {
		return errs.Validation(map[string][]string{"reference_id": {"is required"}})
	}
	r, err := h.app.Gateway.RechargeStatus(c.Request().Context(), keyCaller(c), ref)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rechargeStatusResponse{Success: true, Data: toRechargeResponse(r)})
}

type codeList[T any] struct {
	Data []T `json:"data"`
}

func (h *Handler) RechargeOperators(c echo.Context) error {
	return c.JSON(http.StatusOK, codeList[recharge.Operator]{Data: recharge.Operators})
}

func (h *Handler) RechargeCircles(c echo.Context) error {
	return c.JSON(http.StatusOK, codeList[recharge.Circle]{Data: recharge.Circles})
}

type paymentCreatedResponse struct {
	Status     string `json:"status"`
	PaymentID  string `json:"payment_id"`
	PaymentURL string `json:"payment_url"`
	Livemode   bool   `json:"livemode"`
}

func (h *Handler) CreatePayment(c echo.Context) error {
	b, err := readGatewayBody(h.kit, c, "amount", "currency", "customer_id", "callback_url")
	if err != nil {
		return err
	}
	in := gateway.PaymentInput{
		RequestID: web.RequestID(c), Creds: gatewayCredentials(c), IP: c.RealIP(),
		IdempotencyKey: c.Request().Header.Get("Idempotency-Key"),
		Create: payment.Create{
			Amount: b.str("amount", true), Currency: b.str("currency", false),
			CustomerID: b.str("customer_id", true), CallbackURL: b.str("callback_url", false),
		},
		BodyErrors: b.errors,
	}
	res, err := h.app.Gateway.CreatePayment(c.Request().Context(), in)
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return c.JSON(http.StatusCreated, paymentCreatedResponse{Status: "success", PaymentID: res.Payment.PublicID, PaymentURL: res.URL,
		Livemode: res.Payment.Livemode})
}

type PaymentResponse struct {
	PaymentID   string  `json:"payment_id"`
	Status      string  `json:"status"`
	Amount      string  `json:"amount"`
	Currency    string  `json:"currency"`
	CustomerID  string  `json:"customer_id"`
	CallbackURL string  `json:"callback_url"`
	PaymentURL  string  `json:"payment_url"`
	Livemode    bool    `json:"livemode"`
	UTR         *string `json:"utr"` // the payer's reported UPI reference (upi_direct), awaiting confirmation
	Purpose     string  `json:"purpose"`
	Fee         string  `json:"fee"`
	UserID      uint64  `json:"user_id"`
	// Refunded: the total of the refunds not failed; Refundable: what is
	// left to refund (0.00 unless the payment succeeded).
	Refunded    string     `json:"refunded_amount"`
	Refundable  string     `json:"refundable_amount"`
	ExpiresAt   *time.Time `json:"expires_at"`
	CompletedAt *time.Time `json:"completed_at"`
	CreatedAt   *time.Time `json:"created_at"`
	UpdatedAt   *time.Time `json:"updated_at"`
	// The panel's list names the user (web/names.go); the gateway's answers do not.
	UserName  *string `json:"user_name,omitempty"`
	UserEmail *string `json:"user_email,omitempty"`
}

func (h *Handler) ToPaymentResponse(p *payment.Payment) PaymentResponse {
	return PaymentResponse{
		PaymentID: p.PublicID, Status: string(p.Status), Amount: inr.Format2(p.Amount), Currency: p.Currency,
		CustomerID: p.CustomerID, CallbackURL: p.CallbackURL, PaymentURL: h.app.Gateway.PaymentURL(p.PublicID), Livemode: p.Livemode, UTR: p.UTR, UserID: p.UserID,
		Purpose: string(p.Purpose), Fee: inr.Format2(p.Fee),
		ExpiresAt: web.TimePtr(p.ExpiresAt), CompletedAt: p.CompletedAt, CreatedAt: web.TimePtr(p.CreatedAt), UpdatedAt: web.TimePtr(p.UpdatedAt),
		Refunded: inr.Format2(p.Refunded), Refundable: inr.Format2(p.Refundable()),
	}
}

type paymentStatusResponse struct {
	Success bool              `json:"success"`
	Data    paymentStatusData `json:"data"`
}

// paymentStatusData is the payment with its refunds, oldest first.
type paymentStatusData struct {
	PaymentResponse
	Refunds []refundResponse `json:"refunds"`
}

func (h *Handler) PaymentStatus(c echo.Context) error {
	id := c.QueryParam("payment_id")
	if id == "" {
		return errs.Validation(map[string][]string{"payment_id": {"is required"}})
	}
	p, err := h.app.Gateway.PaymentStatus(c.Request().Context(), keyCaller(c), id)
	if err != nil {
		return err
	}
	refunds, err := h.app.Gateway.PaymentRefunds(c.Request().Context(), p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, paymentStatusResponse{Success: true,
		Data: paymentStatusData{PaymentResponse: h.ToPaymentResponse(p), Refunds: web.MapSlice(refunds, toRefundResponse(p))}})
}

// gatewayTransactions is GET /api/v1/transaction/list: the key owner's
// ledger, newest first, in the panel's list envelope.
// Like the panel's list it pages through the newest ledger.ListWindow rows
// (a capped total); older rows are reached by narrowing from and to.
func (h *Handler) GatewayTransactions(c echo.Context) error {
	fe := errs.FieldErrors{}
	hdr := meteringhttp.HistoryQuery(c, fe, h.app.History.Location(), ledger.ListWindow)
	if hdr.CSV {
		fe.Add("format", "must be json (the CSV export is in the panel)")
	}
	f := ledger.Filter{Type: ledger.Type(c.QueryParam("type")), From: hdr.From, To: hdr.To, Page: hdr.Page, PerPage: hdr.PerPage}
	if f.Type != "" && !f.Type.Valid() {
		fe.Add("type", "must be credit, debit or refund")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Gateway.ListKeyTransactions(c.Request().Context(), keyCaller(c), f)
	if err != nil {
		return err
	}
	return web.WriteWindowList(c, web.MapSlice(rows, meteringhttp.ToTransactionResponse), hdr.Page, hdr.PerPage, total, ledger.ListWindow)
}

// Panel lists of gateway records: the caller's own; an admin's all (or one
// user's with user_id).

func (h *Handler) ListPayments(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	loc := h.app.History.Location()
	f := payment.Filter{
		UserID: web.UintParam(c, fe, "user_id"), Status: payment.Status(c.QueryParam("status")),
		From: web.TimeParam(c, fe, "from", loc, false), To: web.TimeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	switch f.Status {
	case "", payment.StatusCreated, payment.StatusPending, payment.StatusSuccess, payment.StatusFailed, payment.StatusExpired:
	default:
		fe.Add("status", "must be created, pending, success, failed or expired")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	rows, total, err := h.app.Gateway.ListPayments(ctx, web.Caller(c), f)
	if err != nil {
		return err
	}
	items := web.MapSlice(rows, h.ToPaymentResponse)
	var ids directory.IDs
	for _, p := range items {
		ids.Users = append(ids.Users, p.UserID)
	}
	n, err := h.app.History.Names(ctx, web.Caller(c), ids)
	if err != nil {
		return err
	}
	for i := range items {
		items[i].UserName, items[i].UserEmail = web.UserName(n, items[i].UserID), web.UserEmail(n, items[i].UserID)
	}
	return web.WriteList(c, items, p, pp, total)
}

func (h *Handler) ListRecharges(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	loc := h.app.History.Location()
	f := recharge.Filter{
		UserID: web.UintParam(c, fe, "user_id"), Status: recharge.Status(c.QueryParam("status")),
		From: web.TimeParam(c, fe, "from", loc, false), To: web.TimeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	switch f.Status {
	case "", recharge.StatusPending, recharge.StatusSuccess, recharge.StatusFailed:
	default:
		fe.Add("status", "must be pending, success or failed")
	}
	switch c.QueryParam("needs_reconciliation") {
	case "", "false":
	case "true":
		f.NeedsReconciliation = true
	default:
		fe.Add("needs_reconciliation", "must be true or false")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Gateway.ListRecharges(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, toRechargeResponse), p, pp, total)
}
