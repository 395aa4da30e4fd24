package billing

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/platform/errs"
)

// Whom the caller pays to add to its balance (Add balance): the platform's
// billing settings (legal name, bank account, UPI address), or for a
// reseller's customer its reseller's own record, name and support contacts
// (docs/decisions.md, "Where to pay in", "Resellers: customers pay their
// reseller"), and a QR code of that UPI address.

type payeeResponse struct {
	Payee         string `json:"payee"` // platform or reseller
	Name          string `json:"name"`
	LegalName     string `json:"legal_name"`
	BankName      string `json:"bank_name"`
	AccountName   string `json:"account_name"`
	AccountNumber string `json:"account_number"`
	IFSC          string `json:"ifsc"`
	UPI           string `json:"upi"`
	SupportEmail  string `json:"support_email"`
	SupportPhone  string `json:"support_phone"`
	Payable       bool   `json:"payable"`
	Checkout      bool   `json:"checkout"`
}

func (h *Handler) GetPayee(c echo.Context) error {
	p, err := h.app.TaxSettings.Payee(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	d := p.Details
	out := payeeResponse{Payee: "platform", Name: p.Name, LegalName: d.LegalName, BankName: d.BankName, AccountName: d.AccountName,
		AccountNumber: d.AccountNumber, IFSC: d.IFSC, UPI: d.UPI, SupportEmail: p.SupportEmail, SupportPhone: p.SupportPhone,
		Payable: p.Payable(), Checkout: p.Checkout}
	if p.Reseller {
		out.Payee = "reseller"
	}
	return c.JSON(http.StatusOK, out)
}

// payeeUPIIntent is the UPI deep link to the payee's address, without
// an amount (the payer types it), escaped as the checkout's intent is
// (spaces %20, the VPA's @ kept).
func payeeUPIIntent(upi, name string) string {
	esc := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(url.QueryEscape(s), "+", "%20"), "%40", "@")
	}
	return "upi://pay?pa=" + esc(upi) + "&pn=" + esc(name) + "&cu=INR"
}

func (h *Handler) GetPayeeUPIQR(c echo.Context) error {
	p, err := h.app.TaxSettings.Payee(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	if p.Details.UPI == "" {
		return errs.ErrNotFound
	}
	png, err := web.QRPNG(payeeUPIIntent(p.Details.UPI, p.Name), 256)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, no-cache")
	return c.Blob(http.StatusOK, "image/png", png)
}
