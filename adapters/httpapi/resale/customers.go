package resale

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	accountshttp "paygate/adapters/httpapi/accounts"
	meteringhttp "paygate/adapters/httpapi/metering"
	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/money/transfer"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/resale/customers"
)

// A reseller's customers (decisions "Resellers: customers and their scoping"): every route here is the
// reseller's own, and an id that is not its customer is 404.

type createCustomerRequest struct {
	Name     string `json:"name" validate:"required,max=255"`
	Email    string `json:"email" validate:"required,max=255"`
	Phone    string `json:"phone" validate:"required,max=20"`
	Password string `json:"password" validate:"omitempty,max=255"`
}

func (h *Handler) CreateCustomer(c echo.Context) error {
	var req createCustomerRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	u, err := h.app.Customers.Create(c.Request().Context(), web.Caller(c), customers.NewCustomer{
		Profile: user.Profile{Name: req.Name, Email: req.Email, Phone: req.Phone, Password: req.Password}})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, h.customerResponse(web.Caller(c), u))
}

// customerResponse is a user JSON naming its reseller (the caller).
func (h *Handler) customerResponse(reseller, u *user.User) accountshttp.UserResponse {
	r := accountshttp.ToUserResponse(u)
	r.ResellerName = &reseller.Name
	return r
}

func (h *Handler) ListCustomers(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	f := user.Filter{Status: user.Status(c.QueryParam("status")), Q: strings.TrimSpace(c.QueryParam("search")), Page: p, PerPage: pp}
	user.CheckAccount(fe, nil, web.Given(f.Status), nil)
	if len(f.Q) > 255 {
		fe.Add("search", "must be at most 255 characters")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Customers.List(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, func(u *user.User) accountshttp.UserResponse { return h.customerResponse(web.Caller(c), u) }), p, pp, total)
}

func (h *Handler) GetCustomer(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	u, err := h.app.Customers.Get(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.customerResponse(web.Caller(c), u))
}

func (h *Handler) SetCustomerStatus(st user.Status) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := web.IDParam(c, "id")
		if err != nil {
			return err
		}
		u, err := h.app.Customers.SetStatus(c.Request().Context(), web.Caller(c), id, st)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, h.customerResponse(web.Caller(c), u))
	}
}

// customerLimitsRequest is PATCH /customers/{id}/limits: each field
// optional, decimal strings as the admin's PATCH /users/{id} takes them.
type customerLimitsRequest struct {
	DailyPayoutLimit     *string `json:"daily_payout_limit" validate:"omitempty,max=12"`
	CollectionFeePercent *string `json:"collection_fee_percent" validate:"omitempty,max=10"`
}

func (h *Handler) SetCustomerLimits(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req customerLimitsRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	u, err := h.app.Customers.SetLimits(c.Request().Context(), web.Caller(c), id, customers.LimitsPatch{
		DailyPayoutLimit: req.DailyPayoutLimit, CollectionFeePercent: req.CollectionFeePercent})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.customerResponse(web.Caller(c), u))
}

func (h *Handler) ListCustomerKeys(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	keys, err := h.app.Customers.Keys(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return web.WritePaged(c, web.MapSlice(keys, h.accounts.ToKeyResponse))
}

// errNoCSV: the customers' lists are JSON only.
var errNoCSV = errs.Validation(map[string][]string{"format": {"must be json here"}})

func (h *Handler) ListCustomerHits(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	q := meteringhttp.HistoryQuery(c, fe, h.app.History.Location(), hitlog.ListWindow)
	if q.CSV {
		return errNoCSV
	}
	f := hitlog.Filter{ServiceID: web.UintParam(c, fe, "service_id"), APIKeyID: web.UintParam(c, fe, "api_key_id"),
		Status: hitlog.Status(c.QueryParam("status")), From: q.From, To: q.To, Page: q.Page, PerPage: q.PerPage}
	switch f.Status {
	case "", hitlog.StatusSuccess, hitlog.StatusFailed, hitlog.StatusInsufficientBalance, hitlog.StatusPending:
	default:
		fe.Add("status", "must be success, failed, insufficient_balance or pending")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Customers.Hits(c.Request().Context(), web.Caller(c), id, f)
	if err != nil {
		return err
	}
	// The customer's own list's shape, with the commission and the names of
	// its key and service; the payloads are the customer's and stay out (null).
	items := make([]meteringhttp.HitResponse, len(rows))
	for i := range rows {
		items[i] = meteringhttp.ToHitResponse(&rows[i].Hit)
		items[i].RequestPayload = json.RawMessage("null")
		items[i].APIKeyName, items[i].APIServiceName = web.StrPtr(rows[i].KeyName), web.StrPtr(rows[i].ServiceName)
		com := inr.Format4(rows[i].Commission)
		items[i].Commission = &com
	}
	m := web.WindowMeta{ListMeta: web.ListMeta{Page: q.Page, PerPage: q.PerPage, Total: total}}
	if total > int64(hitlog.ListWindow) {
		m.Total, m.TotalCapped = int64(hitlog.ListWindow), true
	}
	return c.JSON(http.StatusOK, meteringhttp.HitListResponse{Data: items, Meta: m, PayloadRetentionSeconds: int64(h.app.Retention.Keep() / time.Second)})
}

func (h *Handler) ListCustomerTransactions(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	q := meteringhttp.HistoryQuery(c, fe, h.app.History.Location(), ledger.ListWindow)
	if q.CSV {
		return errNoCSV
	}
	f := ledger.Filter{Type: ledger.Type(c.QueryParam("type")), ReferenceType: c.QueryParam("reference_type"),
		From: q.From, To: q.To, Page: q.Page, PerPage: q.PerPage}
	if f.Type != "" && !f.Type.Valid() {
		fe.Add("type", "must be credit, debit or refund")
	}
	if f.ReferenceType != "" && !meteringhttp.ReferenceTypePattern.MatchString(f.ReferenceType) {
		fe.Add("reference_type", "must be a reference type such as api_hit or balance_request")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Customers.Transactions(c.Request().Context(), web.Caller(c), id, f)
	if err != nil {
		return err
	}
	return web.WriteWindowList(c, web.MapSlice(rows, meteringhttp.ToTransactionResponse), q.Page, q.PerPage, total, ledger.ListWindow)
}

type transferRequest struct {
	Amount    string `json:"amount" validate:"required,max=20"`
	Direction string `json:"direction" validate:"required,max=20"`
}

type transferResponse struct {
	ID               uint64     `json:"id"`
	CustomerID       uint64     `json:"customer_id"`
	Direction        string     `json:"direction"`
	Amount           string     `json:"amount"`
	BalanceRequestID *uint64    `json:"balance_request_id"`
	CreatedAt        *time.Time `json:"created_at"`
	// The balances after the transfer (201 only).
	ResellerBalance *string `json:"reseller_balance,omitempty"`
	CustomerBalance *string `json:"customer_balance,omitempty"`
}

func toTransferResponse(t *transfer.Transfer) transferResponse {
	return transferResponse{ID: t.ID, CustomerID: t.CustomerID, Direction: string(t.Direction), Amount: inr.Format2(t.Amount),
		BalanceRequestID: t.BalanceRequestID, CreatedAt: web.TimePtr(t.CreatedAt)}
}

func (h *Handler) CreateTransfer(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req transferRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	res, err := h.app.Customers.Transfer(c.Request().Context(), web.Caller(c), id,
		transfer.Input{Amount: req.Amount, Direction: req.Direction}, c.Request().Header.Get("Idempotency-Key"))
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	out := toTransferResponse(&res.Transfer)
	rb, cb := inr.Format2(res.Reseller.Balance), inr.Format2(res.Customer.Balance)
	out.ResellerBalance, out.CustomerBalance = &rb, &cb
	return c.JSON(http.StatusCreated, out)
}

func (h *Handler) ListCustomerTransfers(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Customers.Transfers(c.Request().Context(), web.Caller(c), id, p, pp)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, toTransferResponse), p, pp, total)
}

type resellerDashboardResponse struct {
	From      time.Time               `json:"from"`
	To        time.Time               `json:"to"`
	Totals    resellerDashboardTotals `json:"totals"`
	Customers []resellerDashboardLine `json:"customers"`
}

type resellerDashboardTotals struct {
	Customers         int64  `json:"customers"`
	Calls             int64  `json:"calls"`
	Spend             string `json:"spend"`
	Cost              string `json:"cost"`
	CommissionAccrued string `json:"commission_accrued"`
	CommissionSettled string `json:"commission_settled"`
}

type resellerDashboardLine struct {
	CustomerID uint64 `json:"customer_id"`
	Name       string `json:"name"`
	Calls      int64  `json:"calls"`
	Spend      string `json:"spend"`
	Cost       string `json:"cost"`
	Commission string `json:"commission"`
}

// rangeEnd reads an exclusive end: an RFC 3339 time as given, a date as
// the start of the next local day.
func rangeEnd(c echo.Context, fe errs.FieldErrors, name string, loc *time.Location) *time.Time {
	t := web.TimeParam(c, fe, name, loc, true)
	if t != nil {
		if _, err := time.Parse(time.RFC3339, c.QueryParam(name)); err != nil {
			next := t.Add(time.Nanosecond)
			t = &next
		}
	}
	return t
}

// resellerDashboard is GET /reseller/dashboard?from=&to=: from's start
// (default: 30 local days before today) up to to (default: now).
func (h *Handler) ResellerDashboard(c echo.Context) error {
	fe := errs.FieldErrors{}
	loc := h.app.History.Location()
	from := web.TimeParam(c, fe, "from", loc, false)
	to := rangeEnd(c, fe, "to", loc)
	if err := fe.Err(); err != nil {
		return err
	}
	now := h.app.History.Now().In(loc)
	if to == nil {
		to = &now
	}
	if from == nil {
		y, m, d := now.Date()
		start := time.Date(y, m, d, 0, 0, 0, 0, loc).AddDate(0, 0, -29)
		from = &start
	}
	d, err := h.app.Customers.Dashboard(c.Request().Context(), web.Caller(c), *from, *to)
	if err != nil {
		return err
	}
	out := resellerDashboardResponse{From: d.From, To: d.To, Customers: []resellerDashboardLine{},
		Totals: resellerDashboardTotals{Customers: d.Customers, Calls: d.Calls, Spend: inr.Format4(d.Spend), Cost: inr.Format4(d.Cost),
			CommissionAccrued: inr.Format4(d.CommissionAccrued), CommissionSettled: inr.Format2(d.CommissionSettled)}}
	for _, l := range d.Lines {
		out.Customers = append(out.Customers, resellerDashboardLine{CustomerID: l.CustomerID, Name: l.Name, Calls: l.Calls,
			Spend: inr.Format4(l.Spend), Cost: inr.Format4(l.Cost), Commission: inr.Format4(l.Commission)})
	}
	return c.JSON(http.StatusOK, out)
}
