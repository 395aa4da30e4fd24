package billing

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/billing/gst"
	"paygate/core/billing/taxprofile"
	"paygate/core/platform/inr"
)

// The supplier's billing settings, the accounts' billing profiles and the
// GST state list (docs/decisions.md, "Supplier settings and billing
// profiles"). Text fields are strings, "" when not set.

type supplierResponse struct {
	LegalName     string     `json:"legal_name"`
	Address       string     `json:"address"`
	State         string     `json:"state"`
	StateName     *string    `json:"state_name"`
	GSTIN         string     `json:"gstin"`
	PAN           string     `json:"pan"`
	InvoicePrefix string     `json:"invoice_prefix"`
	SAC           string     `json:"sac_code"`
	BankName      string     `json:"bank_name"`
	AccountName   string     `json:"account_name"`
	AccountNumber string     `json:"account_number"`
	IFSC          string     `json:"ifsc"`
	UPI           string     `json:"upi"`
	UpdatedAt     *time.Time `json:"updated_at"`
	// GSTRate is GST_RATE; Missing the fields an invoice at that rate
	// still needs (empty: invoices can be issued).
	GSTRate string   `json:"gst_rate"`
	Missing []string `json:"missing"`
}

// stateName is the name of a state code, or nil for none.
func stateName(code string) *string {
	if name, ok := gst.StateName(code); ok {
		return &name
	}
	return nil
}

func toSupplierResponse(s *taxprofile.Supplier, rate decimal.Decimal) supplierResponse {
	r := supplierResponse{LegalName: s.LegalName, Address: s.Address, State: s.State, StateName: stateName(s.State),
		GSTIN: s.GSTIN, PAN: s.PAN, InvoicePrefix: s.InvoicePrefix, SAC: s.SAC, BankName: s.BankName,
		AccountName: s.AccountName, AccountNumber: s.AccountNumber, IFSC: s.IFSC, UPI: s.UPI, UpdatedAt: web.TimePtr(s.UpdatedAt),
		GSTRate: inr.Format2(rate), Missing: s.Missing(rate)}
	if r.Missing == nil {
		r.Missing = []string{}
	}
	return r
}

// supplierRequest is the whole record: a field left out is cleared (the
// prefix and the SAC go back to their defaults).
type supplierRequest struct {
	LegalName     string `json:"legal_name"`
	Address       string `json:"address"`
	State         string `json:"state"`
	GSTIN         string `json:"gstin"`
	PAN           string `json:"pan"`
	InvoicePrefix string `json:"invoice_prefix"`
	SAC           string `json:"sac_code"`
	BankName      string `json:"bank_name"`
	AccountName   string `json:"account_name"`
	AccountNumber string `json:"account_number"`
	IFSC          string `json:"ifsc"`
	UPI           string `json:"upi"`
}

func (h *Handler) GetBillingSettings(c echo.Context) error {
	sup, err := h.app.TaxSettings.Supplier(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSupplierResponse(sup, h.billingRate(web.Caller(c))))
}

// billingRate is the GST rate the caller's billing settings are checked
// against (missing): GST_RATE for the platform's; 0 for a reseller's, whose
// GSTIN is optional (without one it issues bills of supply).
func (h *Handler) billingRate(u *user.User) decimal.Decimal {
	if u != nil && u.Role == user.RoleReseller {
		return decimal.Zero
	}
	return h.app.Invoicing.Rate()
}

func (h *Handler) PutBillingSettings(c echo.Context) error {
	var req supplierRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	sup, err := h.app.TaxSettings.PutSupplier(c.Request().Context(), web.Caller(c), taxprofile.Supplier{
		LegalName: req.LegalName, Address: req.Address, State: req.State, GSTIN: req.GSTIN, PAN: req.PAN,
		InvoicePrefix: req.InvoicePrefix, SAC: req.SAC, BankName: req.BankName, AccountName: req.AccountName,
		AccountNumber: req.AccountNumber, IFSC: req.IFSC, UPI: req.UPI,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toSupplierResponse(sup, h.billingRate(web.Caller(c))))
}

type gstStateResponse struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// listGSTStates lists the GST state codes in force, for pickers.
func (h *Handler) ListGSTStates(c echo.Context) error {
	states := gst.States()
	out := struct {
		Data []gstStateResponse `json:"data"`
	}{Data: make([]gstStateResponse, 0, len(states))}
	for _, st := range states {
		out.Data = append(out.Data, gstStateResponse{Code: st.Code, Name: st.Name})
	}
	return c.JSON(http.StatusOK, out)
}
