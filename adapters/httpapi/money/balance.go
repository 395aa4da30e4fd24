package money

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
)

// balanceCheckoutRequest is POST /api/v1/panel/balance/checkout: the amount
// as a decimal string, like a balance adjustment's.
type balanceCheckoutRequest struct {
	Amount string `json:"amount" validate:"required,max=20"`
}

// createBalanceCheckout makes a payment to the platform that adds to the
// caller's own balance when it succeeds; the caller opens payment_url.
func (h *Handler) CreateBalanceCheckout(c echo.Context) error {
	var req balanceCheckoutRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	co, err := h.app.Gateway.CreateBalanceCheckout(c.Request().Context(), web.Caller(c), req.Amount)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, h.gateway.ToPaymentResponse(&co.Payment))
}
