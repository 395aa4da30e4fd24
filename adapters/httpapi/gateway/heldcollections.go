package gateway

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Held collections (admin): confirmed payments whose beneficiary's balance
// could not hold the credit, waiting pending for a retry; and an admin's
// correction of a payment's UTR.

type heldCollectionResponse struct {
	PaymentID    string     `json:"payment_id"`
	UserID       uint64     `json:"user_id"`
	Amount       string     `json:"amount"`
	Purpose      string     `json:"purpose"`
	Status       string     `json:"status"`
	UTR          *string    `json:"utr"`
	Livemode     bool       `json:"livemode"`
	CreditHeldAt *time.Time `json:"credit_held_at"`
	CreatedAt    *time.Time `json:"created_at"`
}

func toHeldCollectionResponse(p *payment.Payment) heldCollectionResponse {
	return heldCollectionResponse{PaymentID: p.PublicID, UserID: p.UserID, Amount: inr.Format2(p.Amount),
		Purpose: string(p.Purpose), Status: string(p.Status), UTR: p.UTR, Livemode: p.Livemode,
		CreditHeldAt: p.CreditHeldAt, CreatedAt: web.TimePtr(p.CreatedAt)}
}

func (h *Handler) ListHeldCollections(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Gateway.HeldCollections(c.Request().Context(), web.Caller(c), p, pp)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, toHeldCollectionResponse), p, pp, total)
}

// retryHeldCollection completes a held payment once its beneficiary's
// balance can hold it: 200 with the payment; still too large 409
// collection_held.
func (h *Handler) RetryHeldCollection(c echo.Context) error {
	p, err := h.app.Gateway.RetryHeldCollection(c.Request().Context(), web.Caller(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.ToPaymentResponse(p))
}

type correctUTRRequest struct {
	UTR    string `json:"utr"`
	Reason string `json:"reason"`
}

// correctPaymentUTR is an admin replacing an open payment's UTR (the payer
// mistyped it; the checkout page takes one UTR only), audited.
func (h *Handler) CorrectPaymentUTR(c echo.Context) error {
	var req correctUTRRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	p, err := h.app.Gateway.CorrectUTR(c.Request().Context(), web.Caller(c), c.Param("id"), req.UTR, req.Reason)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.ToPaymentResponse(p))
}
