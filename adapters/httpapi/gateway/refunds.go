package gateway

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	"paygate/core/platform/inr"
)

// Refunds of payments: POST /api/v1/payment/refund (the key's secret) and
// the panel's /payments/{id}/refunds (a signed-in merchant), one use case.

type refundResponse struct {
	RefundID    string     `json:"refund_id"`
	PaymentID   string     `json:"payment_id"`
	Amount      string     `json:"amount"`
	Currency    string     `json:"currency"`
	Status      string     `json:"status"`
	Reason      string     `json:"reason"`
	FailReason  *string    `json:"fail_reason"`
	ProviderRef *string    `json:"provider_ref"`
	Livemode    bool       `json:"livemode"`
	CreatedAt   *time.Time `json:"created_at"`
	CompletedAt *time.Time `json:"completed_at"`
}

func toRefundResponse(p *payment.Payment) func(r *payment.Refund) refundResponse {
	return func(r *payment.Refund) refundResponse {
		return refundResponse{
			RefundID: r.PublicID, PaymentID: p.PublicID, Amount: inr.Format2(r.Amount), Currency: p.Currency,
			Status: string(r.Status), Reason: r.Reason, FailReason: r.FailReason, ProviderRef: r.ProviderRef,
			Livemode: r.Livemode, CreatedAt: web.TimePtr(r.CreatedAt), CompletedAt: r.CompletedAt,
		}
	}
}

// refundCreatedResponse is a refund made (or found again by its
// Idempotency-Key) with its payment's totals afterwards.
type refundCreatedResponse struct {
	Success bool           `json:"success"`
	Data    refundResponse `json:"data"`
	// The payment's refunded total and what is left to refund.
	PaymentRefunded   string `json:"payment_refunded_amount"`
	PaymentRefundable string `json:"payment_refundable_amount"`
}

func (h *Handler) answerRefund(c echo.Context, res *gateway.RefundResult) error {
	if res.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return c.JSON(http.StatusCreated, refundCreatedResponse{Success: true, Data: toRefundResponse(&res.Payment)(&res.Refund),
		PaymentRefunded: inr.Format2(res.Payment.Refunded), PaymentRefundable: inr.Format2(res.Payment.Refundable())})
}

func (h *Handler) RefundPayment(c echo.Context) error {
	b, err := readGatewayBody(h.kit, c, "payment_id", "amount", "reason")
	if err != nil {
		return err
	}
	res, err := h.app.Gateway.RefundPayment(c.Request().Context(), gateway.RefundInput{
		Creds: keyCaller(c), IdempotencyKey: c.Request().Header.Get("Idempotency-Key"),
		Request:    payment.RefundRequest{PaymentID: b.str("payment_id", false), Amount: b.str("amount", true), Reason: b.str("reason", false)},
		BodyErrors: b.errors,
	})
	if err != nil {
		return err
	}
	return h.answerRefund(c, res)
}

// panelRefundPayment is the signed-in merchant's refund of their payment
// {id} (its payment_id).
func (h *Handler) PanelRefundPayment(c echo.Context) error {
	b, err := readGatewayBody(h.kit, c, "amount", "reason")
	if err != nil {
		return err
	}
	res, err := h.app.Gateway.RefundPayment(c.Request().Context(), gateway.RefundInput{
		Actor: web.Caller(c), IdempotencyKey: c.Request().Header.Get("Idempotency-Key"),
		Request:    payment.RefundRequest{PaymentID: c.Param("id"), Amount: b.str("amount", true), Reason: b.str("reason", false)},
		BodyErrors: b.errors,
	})
	if err != nil {
		return err
	}
	return h.answerRefund(c, res)
}

type paymentRefundsResponse struct {
	Data             []refundResponse `json:"data"`
	RefundedAmount   string           `json:"refunded_amount"`
	RefundableAmount string           `json:"refundable_amount"`
}

// listPaymentRefunds is a payment's refunds, oldest first: the merchant's
// own payment, any for an admin.
func (h *Handler) ListPaymentRefunds(c echo.Context) error {
	p, list, err := h.app.Gateway.MerchantPaymentRefunds(c.Request().Context(), web.Caller(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, paymentRefundsResponse{Data: web.MapSlice(list, toRefundResponse(p)),
		RefundedAmount: inr.Format2(p.Refunded), RefundableAmount: inr.Format2(p.Refundable())})
}
