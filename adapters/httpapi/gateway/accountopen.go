package gateway

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/gateway"
	"paygate/core/gateway/accountopen"
	"paygate/core/platform/errs"
)

// Digital account opening: POST /api/v1/account/open, its status by
// reference_id, and the panel's list. PAN and Aadhaar are masked by the
// core before anything is stored or answered.

// openingFields are the body fields of POST /api/v1/account/open.
var openingFields = []string{"name", "dob", "pan", "aadhaar", "mobile", "email", "address", "product", "reference_id"}

type openingApplicant struct {
	Name    string `json:"name"`
	DOB     string `json:"dob"`
	PAN     string `json:"pan"`     // masked
	Aadhaar string `json:"aadhaar"` // masked
	Mobile  string `json:"mobile"`
	Email   string `json:"email"`
}

type openingResponse struct {
	OpeningID     string           `json:"opening_id"`
	UserID        uint64           `json:"user_id"`
	ReferenceID   string           `json:"reference_id"`
	Product       string           `json:"product"`
	Status        string           `json:"status"`
	Applicant     openingApplicant `json:"applicant"`
	KYCURL        *string          `json:"kyc_url"`
	AccountNumber *string          `json:"account_number"` // masked
	IFSC          *string          `json:"ifsc"`
	RejectReason  *string          `json:"reject_reason"`
	Livemode      bool             `json:"livemode"`
	CreatedAt     *time.Time       `json:"created_at"`
	UpdatedAt     *time.Time       `json:"updated_at"`
}

func toOpeningResponse(o *accountopen.Opening) openingResponse {
	a := o.Applicant
	return openingResponse{
		OpeningID: o.PublicID, UserID: o.UserID, ReferenceID: o.ReferenceID, Product: o.Product, Status: string(o.Status),
		Applicant: openingApplicant{Name: a.Name, DOB: a.DOB, PAN: a.PAN, Aadhaar: a.Aadhaar, Mobile: a.Mobile, Email: a.Email},
		KYCURL:    o.KYCURL, AccountNumber: o.AccountNumber, IFSC: o.IFSC, RejectReason: o.RejectReason, Livemode: o.Livemode,
		CreatedAt: web.TimePtr(o.CreatedAt), UpdatedAt: web.TimePtr(o.UpdatedAt),
	}
}

func (h *Handler) OpenAccount(c echo.Context) error {
	b, err := readGatewayBody(h.kit, c, openingFields...)
	if err != nil {
		return err
	}
	req := accountopen.Request{
		Name: b.str("name", false), DOB: b.str("dob", false), PAN: b.str("pan", false), Aadhaar: b.str("aadhaar", true),
		Mobile: b.str("mobile", true), Email: b.str("email", false), Address: b.str("address", false),
		Product: b.str("product", false), ReferenceID: b.str("reference_id", true),
	}
	res, err := h.app.Gateway.OpenAccount(c.Request().Context(), gateway.AccountOpenInput{
		RequestID: web.RequestID(c), Creds: gatewayCredentials(c), IP: c.RealIP(), Request: req, BodyErrors: b.errors,
	})
	if err != nil {
		return err
	}
	if res.Replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return c.JSON(http.StatusOK, envelope(res.Charge, toOpeningResponse(&res.Opening)))
}

type openingStatusResponse struct {
	Success bool            `json:"success"`
	Data    openingResponse `json:"data"`
}

func (h *Handler) AccountOpenStatus(c echo.Context) error {
	ref := c.QueryParam("reference_id")
	if ref == "" {
		return errs.Validation(map[string][]string{"reference_id": {"is required"}})
	}
	o, err := h.app.Gateway.AccountOpeningStatus(c.Request().Context(), keyCaller(c), ref)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openingStatusResponse{Success: true, Data: toOpeningResponse(o)})
}

// listAccountOpenings is the panel's list: the caller's own; an admin's
// all (or one user's with user_id).
func (h *Handler) ListAccountOpenings(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	loc := h.app.History.Location()
	f := accountopen.Filter{
		UserID: web.UintParam(c, fe, "user_id"), Status: accountopen.Status(c.QueryParam("status")),
		From: web.TimeParam(c, fe, "from", loc, false), To: web.TimeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	if f.Status != "" && !f.Status.Valid() {
		fe.Add("status", "must be initiated, kyc_pending, opened or rejected")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Gateway.ListAccountOpenings(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, toOpeningResponse), p, pp, total)
}
