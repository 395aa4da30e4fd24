package httpapi

import (
	"encoding/json"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/money"
)

type transactionResponse struct {
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
}

func toTransactionResponse(e *ledger.Entry) transactionResponse {
	return transactionResponse{
		ID: e.ID, UserID: e.UserID, TxnID: e.TxnID, Type: string(e.Type), Amount: money.Format2(e.Amount),
		BalanceBefore: money.Format2(e.BalanceBefore), BalanceAfter: money.Format2(e.BalanceAfter),
		ReferenceType: e.ReferenceType, ReferenceID: e.ReferenceID, Description: e.Description,
		Status: e.Status, CreatedAt: timePtr(e.CreatedAt),
	}
}

func (s *server) listTransactions(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := page(c, fe)
	loc := s.app.Location()
	f := ledger.Filter{
		UserID: uintParam(c, fe, "user_id"), Type: ledger.Type(c.QueryParam("type")),
		From: timeParam(c, fe, "from", loc, false), To: timeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	if f.Type != "" && !f.Type.Valid() {
		fe.Add("type", "must be credit, debit or refund")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := s.app.ListTransactions(c.Request().Context(), caller(c), f)
	if err != nil {
		return err
	}
	return writeList(c, mapSlice(rows, toTransactionResponse), p, pp, total)
}

type hitResponse struct {
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

func toHitResponse(h *hitlog.Hit) hitResponse {
	return hitResponse{
		ID: h.ID, UserID: h.UserID, APIServiceID: h.ServiceID, APIKeyID: h.APIKeyID, RequestID: h.RequestID,
		RequestPayload: rawJSON(&h.RequestPayload), ResponsePayload: rawJSON(h.ResponsePayload),
		ChargeAmount: money.Format4(h.ChargeAmount), IPAddress: h.IPAddress, Status: string(h.Status),
		ResponseTimeMs: h.ResponseTimeMs, CreatedAt: timePtr(h.CreatedAt),
	}
}

func (s *server) listHits(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := page(c, fe)
	loc := s.app.Location()
	f := hitlog.Filter{
		UserID: uintParam(c, fe, "user_id"), ServiceID: uintParam(c, fe, "service_id"), APIKeyID: uintParam(c, fe, "api_key_id"),
		Status: hitlog.Status(c.QueryParam("status")),
		From:   timeParam(c, fe, "from", loc, false), To: timeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	switch f.Status {
	case "", hitlog.StatusSuccess, hitlog.StatusFailed, hitlog.StatusInsufficientBalance, hitlog.StatusPending:
	default:
		fe.Add("status", "must be success, failed, insufficient_balance or pending")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := s.app.ListHits(c.Request().Context(), caller(c), f)
	if err != nil {
		return err
	}
	return writeList(c, mapSlice(rows, toHitResponse), p, pp, total)
}
