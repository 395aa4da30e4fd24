package metering

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/directory"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

type TransactionResponse struct {
	ID            uint64     `json:"id"`
	UserID        uint64     `json:"user_id"`
	TxnID         string     `json:"txn_id"`
	Type          string     `json:"type"`
	Amount        string     `json:"amount"`
	BalanceBefore string     `json:"balance_before"`
	BalanceAfter  string     `json:"balance_after"`
	ReferenceType string     `json:"reference_type"`
	ReferenceID   *uint64    `json:"reference_id"`
	Description   string     `json:"description"`
	Status        string     `json:"status"`
	CreatedAt     *time.Time `json:"created_at"`
	// The panel's list names the user (web/names.go).
	UserName  *string `json:"user_name,omitempty"`
	UserEmail *string `json:"user_email,omitempty"`
}

func ToTransactionResponse(e *ledger.Entry) TransactionResponse {
	return TransactionResponse{
		ID: e.ID, UserID: e.UserID, TxnID: e.TxnID, Type: string(e.Type), Amount: inr.Format2(e.Amount),
		BalanceBefore: inr.Format2(e.BalanceBefore), BalanceAfter: inr.Format2(e.BalanceAfter),
		ReferenceType: e.ReferenceType, ReferenceID: e.ReferenceID, Description: e.Description,
		Status: e.Status, CreatedAt: web.TimePtr(e.CreatedAt),
	}
}

// ReferenceTypePattern is what a reference_type filter may look like
// (api_hit, balance_request, adjustment, recharge and any later one).
var ReferenceTypePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,49}$`)

func (h *Handler) ListTransactions(c echo.Context) error {
	fe := errs.FieldErrors{}
	hdr := HistoryQuery(c, fe, h.app.History.Location(), ledger.ListWindow)
	f := ledger.Filter{
		UserID: web.UintParam(c, fe, "user_id"), Type: ledger.Type(c.QueryParam("type")),
		ReferenceType: c.QueryParam("reference_type"), From: hdr.From, To: hdr.To, Page: hdr.Page, PerPage: hdr.PerPage,
	}
	if f.Type != "" && !f.Type.Valid() {
		fe.Add("type", "must be credit, debit or refund")
	}
	if f.ReferenceType != "" && !ReferenceTypePattern.MatchString(f.ReferenceType) {
		fe.Add("reference_type", "must be a reference type such as api_hit or balance_request")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if hdr.CSV {
		loc := h.app.History.Location()
		out := web.NewCSVStream(c, h.kit, "transactions", h.app.History.Now().In(loc), []string{
			"id", "txn_id", "created_at", "user_id", "user_email", "user_name", "type", "amount", "balance_before", "balance_after",
			"reference_type", "reference_id", "description", "status",
		})
		names := web.NewExportNames(ctx, h.app.History, web.Caller(c))
		return out.Finish(h.app.History.ExportTransactions(ctx, web.Caller(c), f, func(e ledger.Entry) error {
			ref := ""
			if e.ReferenceID != nil {
				ref = strconv.FormatUint(*e.ReferenceID, 10)
			}
			u, err := names.User(e.UserID)
			if err != nil {
				return err
			}
			return out.Row(strconv.FormatUint(e.ID, 10), e.TxnID, web.CSVTime(e.CreatedAt, loc), strconv.FormatUint(e.UserID, 10),
				u.Email, u.Name, string(e.Type), inr.Format2(e.Amount), inr.Format2(e.BalanceBefore), inr.Format2(e.BalanceAfter),
				e.ReferenceType, ref, e.Description, e.Status)
		}))
	}
	rows, total, err := h.app.History.ListTransactions(ctx, web.Caller(c), f)
	if err != nil {
		return err
	}
	items := web.MapSlice(rows, ToTransactionResponse)
	var ids directory.IDs
	for _, t := range items {
		ids.Users = append(ids.Users, t.UserID)
	}
	n, err := h.app.History.Names(ctx, web.Caller(c), ids)
	if err != nil {
		return err
	}
	for i := range items {
		items[i].UserName, items[i].UserEmail = web.UserName(n, items[i].UserID), web.UserEmail(n, items[i].UserID)
	}
	return web.WriteWindowList(c, items, hdr.Page, hdr.PerPage, total, ledger.ListWindow)
}

// ListQuery is what the two history lists read alike: the page, the date
// range and the format.
type ListQuery struct {
	Page, PerPage int
	From, To      *time.Time
	CSV           bool
}

// HistoryQuery reads page, per_page, from, to and format. A page past the
// list's window is refused (the newest window rows are listed; older ones
// are reached with from/to or the CSV export); the CSV export ignores the
// page.
func HistoryQuery(c echo.Context, fe errs.FieldErrors, loc *time.Location, window int) ListQuery {
	var h ListQuery
	h.Page, h.PerPage = web.Page(c, fe)
	h.From = web.TimeParam(c, fe, "from", loc, false)
	h.To = web.TimeParam(c, fe, "to", loc, true)
	if h.From != nil && h.To != nil && h.To.Before(*h.From) {
		fe.Add("to", "must not be before from")
	}
	switch c.QueryParam("format") {
	case "", "json":
	case "csv":
		h.CSV = true
	default:
		fe.Add("format", "must be json or csv")
	}
	if !h.CSV && h.Page*h.PerPage > window && len(fe["page"]) == 0 && len(fe["per_page"]) == 0 {
		fe.Add("page", fmt.Sprintf("must stay within the newest %d rows: narrow the list with from and to, or export it with format=csv", window))
	}
	return h
}

type HitResponse struct {
	ID              uint64          `json:"id"`
	UserID          uint64          `json:"user_id"`
	APIServiceID    uint64          `json:"api_service_id"`
	APIKeyID        uint64          `json:"api_key_id"`
	RequestID       string          `json:"request_id"`
	RequestPayload  json.RawMessage `json:"request_payload"`
	ResponsePayload json.RawMessage `json:"response_payload"`
	ChargeAmount    string          `json:"charge_amount"`
	IPAddress       string          `json:"ip_address"`
	Status          string          `json:"status"`
	ResponseTimeMs  int             `json:"response_time_ms"`
	CreatedAt       *time.Time      `json:"created_at"`
	// Names of the ids above (web/names.go); absent when unknown.
	UserName       *string `json:"user_name,omitempty"`
	UserEmail      *string `json:"user_email,omitempty"`
	APIKeyName     *string `json:"api_key_name,omitempty"`
	APIServiceName *string `json:"api_service_name,omitempty"`
	// Commission is the reseller's on its customer's call: in a
	// reseller's list of its customer's hits only.
	Commission *string `json:"commission,omitempty"`
}

// rawJSON passes stored JSON through, or quotes text that is not JSON.
func rawJSON(s *string) json.RawMessage {
	if s == nil {
		return json.RawMessage("null")
	}
	if json.Valid([]byte(*s)) {
		return json.RawMessage(*s)
	}
	b, _ := json.Marshal(*s)
	return b
}

func ToHitResponse(h *hitlog.Hit) HitResponse {
	return HitResponse{
		ID: h.ID, UserID: h.UserID, APIServiceID: h.ServiceID, APIKeyID: h.APIKeyID, RequestID: h.RequestID,
		RequestPayload: rawJSON(&h.RequestPayload), ResponsePayload: rawJSON(h.ResponsePayload),
		ChargeAmount: inr.Format4(h.ChargeAmount), IPAddress: h.IPAddress, Status: string(h.Status),
		ResponseTimeMs: h.ResponseTimeMs, CreatedAt: web.TimePtr(h.CreatedAt),
	}
}

func (h *Handler) ListHits(c echo.Context) error {
	fe := errs.FieldErrors{}
	hdr := HistoryQuery(c, fe, h.app.History.Location(), hitlog.ListWindow)
	f := hitlog.Filter{
		UserID: web.UintParam(c, fe, "user_id"), ServiceID: web.UintParam(c, fe, "service_id"), APIKeyID: web.UintParam(c, fe, "api_key_id"),
		Status: hitlog.Status(c.QueryParam("status")), From: hdr.From, To: hdr.To, Page: hdr.Page, PerPage: hdr.PerPage,
	}
	switch f.Status {
	case "", hitlog.StatusSuccess, hitlog.StatusFailed, hitlog.StatusInsufficientBalance, hitlog.StatusPending:
	default:
		fe.Add("status", "must be success, failed, insufficient_balance or pending")
	}
	ctx := c.Request().Context()
	if ref := c.QueryParam("service"); ref != "" && f.ServiceID != nil {
		fe.Add("service", "give service or service_id, not both")
	} else if ref != "" {
		id, err := h.app.History.ServiceRef(ctx, "service", ref)
		if err := fe.Merge(err); err != nil {
			return err
		}
		if err == nil {
			f.ServiceID = &id
		}
	}
	if err := fe.Err(); err != nil {
		return err
	}
	if hdr.CSV {
		loc := h.app.History.Location()
		out := web.NewCSVStream(c, h.kit, "hit-logs", h.app.History.Now().In(loc), []string{
			"id", "request_id", "created_at", "user_id", "user_email", "user_name", "api_service_id", "api_service_name",
			"api_key_id", "api_key_name", "status", "charge_amount", "response_time_ms", "ip_address", "request_payload", "response_payload",
		})
		names := web.NewExportNames(ctx, h.app.History, web.Caller(c))
		return out.Finish(h.app.History.ExportHits(ctx, web.Caller(c), f, func(hdr hitlog.Hit) error {
			resp := ""
			if hdr.ResponsePayload != nil {
				resp = *hdr.ResponsePayload
			}
			u, err := names.User(hdr.UserID)
			if err != nil {
				return err
			}
			k, err := names.Key(hdr.APIKeyID)
			if err != nil {
				return err
			}
			svc, err := names.Service(hdr.ServiceID)
			if err != nil {
				return err
			}
			return out.Row(strconv.FormatUint(hdr.ID, 10), hdr.RequestID, web.CSVTime(hdr.CreatedAt, loc), strconv.FormatUint(hdr.UserID, 10),
				u.Email, u.Name, strconv.FormatUint(hdr.ServiceID, 10), svc.Name,
				strconv.FormatUint(hdr.APIKeyID, 10), k.Name, string(hdr.Status), inr.Format4(hdr.ChargeAmount),
				strconv.Itoa(hdr.ResponseTimeMs), hdr.IPAddress, hdr.RequestPayload, resp)
		}))
	}
	rows, total, err := h.app.History.ListHits(ctx, web.Caller(c), f)
	if err != nil {
		return err
	}
	items := web.MapSlice(rows, ToHitResponse)
	if items == nil {
		items = []HitResponse{}
	}
	var ids directory.IDs
	for _, hdr := range items {
		ids = ids.Add([]uint64{hdr.UserID}, []uint64{hdr.APIKeyID}, []uint64{hdr.APIServiceID})
	}
	n, err := h.app.History.Names(ctx, web.Caller(c), ids)
	if err != nil {
		return err
	}
	for i := range items {
		hdr := &items[i]
		hdr.UserName, hdr.UserEmail = web.UserName(n, hdr.UserID), web.UserEmail(n, hdr.UserID)
		hdr.APIKeyName, hdr.APIServiceName = web.StrPtr(n.Keys[hdr.APIKeyID].Name), web.StrPtr(n.Services[hdr.APIServiceID].Name)
	}
	m := web.WindowMeta{ListMeta: web.ListMeta{Page: hdr.Page, PerPage: hdr.PerPage, Total: total}}
	if total > int64(hitlog.ListWindow) {
		m.Total, m.TotalCapped = int64(hitlog.ListWindow), true
	}
	return c.JSON(http.StatusOK, HitListResponse{Data: items, Meta: m, PayloadRetentionSeconds: int64(h.app.Retention.Keep() / time.Second)})
}

// HitListResponse is a page of hits and how long their payloads are kept
// (HIT_PAYLOAD_RETENTION), which the hit log screen states.
type HitListResponse struct {
	Data                    []HitResponse  `json:"data"`
	Meta                    web.WindowMeta `json:"meta"`
	PayloadRetentionSeconds int64          `json:"payload_retention_seconds"`
}
