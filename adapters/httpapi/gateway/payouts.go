package gateway

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	meteringhttp "paygate/adapters/httpapi/metering"
	"paygate/adapters/httpapi/web"
	"paygate/core/gateway"
	"paygate/core/gateway/beneficiary"
	"paygate/core/gateway/payout"
	"paygate/core/platform/directory"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

type payoutBeneficiaryResponse struct {
	Type          string  `json:"type"`
	Name          string  `json:"name"`
	AccountNumber *string `json:"account_number"` // masked
	IFSC          *string `json:"ifsc"`
	VPA           *string `json:"vpa"`
}

type payoutResponse struct {
	PayoutID    string                    `json:"payout_id"`
	UserID      uint64                    `json:"user_id"`
	ReferenceID string                    `json:"reference_id"`
	Beneficiary payoutBeneficiaryResponse `json:"beneficiary"`
	Amount      string                    `json:"amount"`
	Fee         string                    `json:"fee"`
	Mode        string                    `json:"mode"`
	Narration   *string                   `json:"narration"`
	Status      string                    `json:"status"`
	UTR         *string                   `json:"utr"`
	FailReason  *string                   `json:"fail_reason"`
	Livemode    bool                      `json:"livemode"`
	CreatedAt   *time.Time                `json:"created_at"`
	UpdatedAt   *time.Time                `json:"updated_at"`
	ProcessedAt *time.Time                `json:"processed_at"`
	ReversedAt  *time.Time                `json:"reversed_at"`
	// The panel's list names the user (web/names.go); the gateway's answers do not.
	UserName  *string `json:"user_name,omitempty"`
	UserEmail *string `json:"user_email,omitempty"`
}

func toPayoutResponse(p *payout.Payout) payoutResponse {
	b := p.Beneficiary.Masked()
	return payoutResponse{
		PayoutID: p.PublicID, UserID: p.UserID, ReferenceID: p.ReferenceID,
		Beneficiary: payoutBeneficiaryResponse{Type: b.Type, Name: b.Name, AccountNumber: web.StrPtr(b.AccountNumber),
			IFSC: web.StrPtr(b.IFSC), VPA: web.StrPtr(b.VPA)},
		Amount: inr.Format2(p.Amount), Fee: p.Fee.StringFixed(4), Mode: string(p.Mode), Narration: p.Narration,
		Status: string(p.Status), UTR: p.UTR, FailReason: p.FailReason, Livemode: p.Livemode,
		CreatedAt: web.TimePtr(p.CreatedAt), UpdatedAt: web.TimePtr(p.UpdatedAt), ProcessedAt: p.ProcessedAt, ReversedAt: p.ReversedAt,
	}
}

// beneficiaryFields are the keys a payout's beneficiary object may carry.
var beneficiaryFields = []string{"type", "name", "account_number", "ifsc", "vpa"}

// beneficiary reads the body's beneficiary object; its problems are
// reported as "beneficiary.<field>".
func (g *gatewayBody) beneficiary() payout.Beneficiary {
	raw, present := g.fields["beneficiary"]
	obj, ok := raw.(map[string]any)
	if !ok {
		if present && raw != nil {
			g.errors["beneficiary"] = append(g.errors["beneficiary"], "must be an object")
		}
		return payout.Beneficiary{}
	}
	inner := newGatewayBody(obj, beneficiaryFields)
	b := payout.Beneficiary{Type: inner.str("type", false), Name: inner.str("name", false),
		AccountNumber: inner.str("account_number", true), IFSC: inner.str("ifsc", false), VPA: inner.str("vpa", false)}
	for k, v := range inner.errors {
		g.errors["beneficiary."+k] = append(g.errors["beneficiary."+k], v...)
	}
	return b
}

func (h *Payouts) PayoutTransfer(c echo.Context) error {
	b, err := readGatewayBody(h.kit, c, "beneficiary", "amount", "mode", "reference_id", "narration")
	if err != nil {
		return err
	}
	req := payout.Request{
		Beneficiary: b.beneficiary(), Amount: b.str("amount", true), Mode: b.str("mode", false),
		ReferenceID: b.str("reference_id", true), Narration: b.str("narration", false),
	}
	res, err := h.app.Gateway.Transfer(c.Request().Context(), gateway.PayoutInput{
		RequestID: web.RequestID(c), Creds: gatewayCredentials(c), IP: c.RealIP(), Request: req, BodyErrors: b.errors,
	})
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return c.JSON(http.StatusOK, envelope(res.Charge, toPayoutResponse(&res.Payout)))
}

type payoutAuthorizeRequest struct {
	Password string `json:"password" validate:"required,max=255"`
}

type payoutAuthorizeResponse struct {
	Credential string `json:"credential"`
	ExpiresIn  int    `json:"expires_in"` // seconds
}

// authorizePayouts mints the caller's payout credential once the password
// is typed again (rate-limited like a sign-in).
func (h *Payouts) AuthorizePayouts(c echo.Context) error {
	var req payoutAuthorizeRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	tok, ttl, err := h.app.Accounts.AuthorizePayout(c.Request().Context(), web.Caller(c), web.CallerSession(c), req.Password, c.RealIP())
	if err != nil {
		return web.WithRetryAfter(c, err)
	}
	return c.JSON(http.StatusOK, payoutAuthorizeResponse{Credential: tok, ExpiresIn: int(ttl / time.Second)})
}

// panelPayout is the signed-in caller's payout, sent with the payout
// credential (X-Payout-Authorization) instead of a key's secret: the
// transfer of POST /api/v1/payout/transfer, billed on the key the body
// names (api_key_id). Refused before anything is logged or charged when
// the credential is missing or not live.
func (h *Payouts) PanelPayout(c echo.Context) error {
	u := web.Caller(c)
	if err := h.app.Accounts.CheckPayoutAuthorization(u, web.CallerSession(c), c.Request().Header.Get("X-Payout-Authorization")); err != nil {
		return err
	}
	b, err := readGatewayBody(h.kit, c, "api_key_id", "beneficiary_id", "beneficiary", "amount", "mode", "reference_id", "narration")
	if err != nil {
		return err
	}
	keyID := b.bodyID("api_key_id")
	if keyID == 0 {
		return errs.Validation(errs.FieldErrors{"api_key_id": {"is required: one of your active keys' id"}})
	}
	req := payout.Request{
		Amount: b.str("amount", true), Mode: b.str("mode", false),
		ReferenceID: b.str("reference_id", true), Narration: b.str("narration", false),
	}
	// A saved beneficiary of the caller's (another account's is 404), or
	// the beneficiary object; not both.
	if _, named := b.fields["beneficiary_id"]; named {
		if _, both := b.fields["beneficiary"]; both {
			return errs.Validation(errs.FieldErrors{"beneficiary": {"give beneficiary_id or beneficiary, not both"}})
		}
		id := b.bodyID("beneficiary_id")
		if id == 0 {
			return beneficiary.ErrNotFound
		}
		saved, err := h.app.Gateway.Beneficiary(c.Request().Context(), u, id)
		if err != nil {
			return err
		}
		req.Beneficiary = saved.Payee
	} else {
		req.Beneficiary = b.beneficiary()
	}
	res, err := h.app.Gateway.PanelTransfer(c.Request().Context(), u, keyID, gateway.PayoutInput{
		RequestID: web.RequestID(c), IP: c.RealIP(), Request: req, BodyErrors: b.errors,
	})
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return c.JSON(http.StatusOK, envelope(res.Charge, toPayoutResponse(&res.Payout)))
}

type payoutStatusResponse struct {
	Success bool           `json:"success"`
	Data    payoutResponse `json:"data"`
}

func (h *Payouts) PayoutStatus(c echo.Context) error {
	id, ref := c.QueryParam("payout_id"), c.QueryParam("reference_id")
	fe := errs.FieldErrors{}
	switch {
	case id == "" && ref == "":
		fe.Add("payout_id", "give payout_id or reference_id")
	case id != "" && ref != "":
		fe.Add("reference_id", "give payout_id or reference_id, not both")
	case id != "" && !payout.ValidPublicID(id):
		fe.Add("payout_id", "must be a payout id (pout_…)")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	p, err := h.app.Gateway.PayoutStatus(c.Request().Context(), keyCaller(c), id, ref)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, payoutStatusResponse{Success: true, Data: toPayoutResponse(p)})
}

// getPayout is one payout for the panel: the caller's own, any for an admin.
func (h *Payouts) GetPayout(c echo.Context) error {
	id := c.Param("id")
	if !payout.ValidPublicID(id) {
		return payout.ErrNotFound
	}
	p, err := h.app.Gateway.Payout(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, payoutStatusResponse{Success: true, Data: toPayoutResponse(p)})
}

func (h *Payouts) ListPayouts(c echo.Context) error {
	fe := errs.FieldErrors{}
	loc := h.app.History.Location()
	hdr := meteringhttp.HistoryQuery(c, fe, loc, maxListWindow)
	f := payout.Filter{
		UserID: web.UintParam(c, fe, "user_id"), Status: payout.Status(c.QueryParam("status")), Mode: payout.Mode(c.QueryParam("mode")),
		Search: c.QueryParam("q"), From: hdr.From, To: hdr.To, Page: hdr.Page, PerPage: hdr.PerPage,
	}
	if f.Status != "" && !f.Status.Valid() {
		fe.Add("status", "must be pending, processing, success, failed or reversed")
	}
	if f.Mode != "" && !f.Mode.Valid() {
		fe.Add("mode", "must be IMPS, NEFT or UPI")
	}
	if len(f.Search) > 64 {
		fe.Add("q", "must be at most 64 characters")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request().Context(), web.Caller(c)
	if hdr.CSV {
		out := web.NewCSVStream(c, h.kit, "payouts", h.app.History.Now().In(loc), []string{
			"payout_id", "reference_id", "created_at", "user_id", "user_email", "user_name", "beneficiary_type", "beneficiary_name", "account_number",
			"ifsc", "vpa", "mode", "amount", "fee", "status", "utr", "fail_reason", "processed_at", "reversed_at", "livemode",
		})
		names := web.NewExportNames(ctx, h.app.History, actor)
		return out.Finish(h.app.History.Exporting(ctx, actor, func(ctx context.Context) error {
			return h.app.Gateway.ExportPayouts(ctx, actor, f, func(p payout.Payout) error {
				u, err := names.User(p.UserID)
				if err != nil {
					return err
				}
				b := p.Beneficiary.Masked()
				return out.Row(p.PublicID, p.ReferenceID, web.CSVTime(p.CreatedAt, loc), strconv.FormatUint(p.UserID, 10), u.Email, u.Name, b.Type,
					b.Name, b.AccountNumber, b.IFSC, b.VPA, string(p.Mode), inr.Format2(p.Amount), p.Fee.StringFixed(4),
					string(p.Status), web.Deref(p.UTR), web.Deref(p.FailReason), csvTimePtr(p.ProcessedAt, loc), csvTimePtr(p.ReversedAt, loc),
					strconv.FormatBool(p.Livemode))
			})
		}))
	}
	rows, total, err := h.app.Gateway.ListPayouts(ctx, actor, f)
	if err != nil {
		return err
	}
	items := web.MapSlice(rows, toPayoutResponse)
	var ids directory.IDs
	for _, p := range items {
		ids.Users = append(ids.Users, p.UserID)
	}
	n, err := h.app.History.Names(ctx, actor, ids)
	if err != nil {
		return err
	}
	for i := range items {
		items[i].UserName, items[i].UserEmail = web.UserName(n, items[i].UserID), web.UserEmail(n, items[i].UserID)
	}
	return web.WriteList(c, items, hdr.Page, hdr.PerPage, total)
}

// maxListWindow is a page bound for lists without a window of their own.
const maxListWindow = 1 << 30

func csvTimePtr(t *time.Time, loc *time.Location) string {
	if t == nil {
		return ""
	}
	return web.CSVTime(*t, loc)
}

type payoutQuoteResponse struct {
	Amount         string  `json:"amount"`
	Fee            *string `json:"fee"`
	Total          string  `json:"total"`
	Balance        string  `json:"balance"`
	DailyLimit     string  `json:"daily_limit"`
	UsedToday      string  `json:"used_today"`
	RemainingToday string  `json:"remaining_today"`
}

func (h *Payouts) PayoutQuote(c echo.Context) error {
	amount, ok := inr.Parse(c.QueryParam("amount"), 2)
	switch {
	case c.QueryParam("amount") == "":
		amount = decimal.Zero
	case !ok || amount.IsNegative() || amount.GreaterThan(payout.MaxAmount):
		return errs.Validation(map[string][]string{"amount": {"must be an amount up to " + inr.Format2(payout.MaxAmount) + " with at most 2 decimals"}})
	}
	q, err := h.app.Gateway.QuotePayout(c.Request().Context(), web.Caller(c), amount)
	if err != nil {
		return err
	}
	var fee *string
	if q.Fee != nil {
		f := q.Fee.StringFixed(4)
		fee = &f
	}
	return c.JSON(http.StatusOK, payoutQuoteResponse{Amount: inr.Format2(q.Amount), Fee: fee, Total: q.Total.StringFixed(4),
		Balance: inr.Format2(q.Balance), DailyLimit: inr.Format2(q.DailyLimit), UsedToday: inr.Format2(q.UsedToday),
		RemainingToday: inr.Format2(q.Left)})
}

type payoutLimitResponse struct {
	UserID           uint64 `json:"user_id"`
	Name             string `json:"name"`
	Email            string `json:"email"`
	DailyPayoutLimit string `json:"daily_payout_limit"`
	UsedToday        string `json:"used_today"`
}

func (h *Payouts) ListPayoutLimits(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Gateway.ListPayoutLimits(c.Request().Context(), web.Caller(c), p, pp)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, func(l *gateway.PayoutLimit) payoutLimitResponse {
		return payoutLimitResponse{UserID: l.User.ID, Name: l.User.Name, Email: l.User.Email,
			DailyPayoutLimit: inr.Format2(l.User.DailyPayoutLimit), UsedToday: inr.Format2(l.UsedToday)}
	}), p, pp, total)
}
