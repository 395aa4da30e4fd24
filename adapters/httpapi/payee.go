package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"paygate/core/errs"
)

// The platform's details for paying in (Add balance): the billing settings'
// legal name, bank account and UPI address, to any signed-in account, and
// a QR code of the UPI address (docs/decisions.md, "Where to pay in").

type payeeResponse struct {
	LegalName     string `json:"legal_name"`
	BankName      string `json:"bank_name"`
	AccountName   string `json:"account_name"`
	AccountNumber string `json:"account_number"`
	IFSC          string `json:"ifsc"`
	UPI           string `json:"upi"`
}

func (s *server) getPayee(c echo.Context) error {
	sup, err := s.app.TaxSettings.Payee(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, payeeResponse{LegalName: sup.LegalName, BankName: sup.BankName, AccountName: sup.AccountName,
		AccountNumber: sup.AccountNumber, IFSC: sup.IFSC, UPI: sup.UPI})
}

// payeeUPIIntent is the UPI deep link to the platform's address, without
// an amount (the payer types it), escaped as the checkout's intent is
// (spaces %20, the VPA's @ kept).
func payeeUPIIntent(upi, name string) string {
	esc := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(url.QueryEscape(s), "+", "%20"), "%40", "@")
	}
	return "upi://pay?pa=" + esc(upi) + "&pn=" + esc(name) + "&cu=INR"
}

func (s *server) getPayeeUPIQR(c echo.Context) error {
	sup, err := s.app.TaxSettings.Payee(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	if sup.UPI == "" {
		return errs.ErrNotFound
	}
	png, err := qrPNG(payeeUPIIntent(sup.UPI, sup.LegalName), 256)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, no-cache")
	return c.Blob(http.StatusOK, "image/png", png)
}
