package gateway

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/gateway"
	"paygate/core/gateway/beneficiary"
	"paygate/core/gateway/payout"
	"paygate/core/platform/errs"
)

type beneficiaryResponse struct {
	ID            uint64    `json:"id"`
	Type          string    `json:"type"`
	Name          string    `json:"name"`
	AccountNumber *string   `json:"account_number"` // masked
	IFSC          *string   `json:"ifsc"`
	VPA           *string   `json:"vpa"`
	NameAtSource  *string   `json:"name_at_source"`
	VerifiedAt    time.Time `json:"verified_at"`
	CreatedAt     time.Time `json:"created_at"`
}

func toBeneficiaryResponse(b *beneficiary.Beneficiary) beneficiaryResponse {
	m := b.Payee.Masked()
	return beneficiaryResponse{ID: b.ID, Type: m.Type, Name: m.Name, AccountNumber: web.StrPtr(m.AccountNumber), IFSC: web.StrPtr(m.IFSC),
		VPA: web.StrPtr(m.VPA), NameAtSource: web.StrPtr(b.NameAtSource), VerifiedAt: b.VerifiedAt, CreatedAt: b.CreatedAt}
}

type beneficiaryListResponse struct {
	Data []beneficiaryResponse `json:"data"`
}

func (h *Payouts) ListBeneficiaries(c echo.Context) error {
	list, err := h.app.Gateway.Beneficiaries(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, beneficiaryListResponse{Data: web.MapSlice(list, toBeneficiaryResponse)})
}

// bodyID is a positive integer field of a gateway body (0: absent or not one).
func (g *gatewayBody) bodyID(name string) uint64 {
	n, ok := g.fields[name].(json.Number)
	if !ok {
		return 0
	}
	id, _ := strconv.ParseUint(n.String(), 10, 64)
	return id
}

// createBeneficiary verifies a payee once (an account verification billed
// on api_key_id) and saves it when found; it needs the payout credential.
func (h *Payouts) CreateBeneficiary(c echo.Context) error {
	u := web.Caller(c)
	if err := h.app.Accounts.CheckPayoutAuthorization(u, web.CallerSession(c), c.Request().Header.Get("X-Payout-Authorization")); err != nil {
		return err
	}
	b, err := readGatewayBody(h.kit, c, "api_key_id", "type", "name", "account_number", "ifsc", "vpa")
	if err != nil {
		return err
	}
	keyID := b.bodyID("api_key_id")
	payee := payout.Beneficiary{Type: b.str("type", false), Name: b.str("name", false),
		AccountNumber: b.str("account_number", true), IFSC: b.str("ifsc", false), VPA: b.str("vpa", false)}
	fe := errs.FieldErrors{}
	for k, v := range b.errors {
		fe[k] = v
	}
	if keyID == 0 {
		fe.Add("api_key_id", "is required: one of your active keys' id")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	saved, err := h.app.Gateway.SaveBeneficiary(c.Request().Context(), u, gateway.SaveBeneficiaryInput{
		RequestID: web.RequestID(c), IP: c.RealIP(), KeyID: keyID, Payee: payee,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toBeneficiaryResponse(saved))
}

func (h *Payouts) DeleteBeneficiary(c echo.Context) error {
	id, err := strconv.ParseUint(c.Param("id"), 10, 64)
	if err != nil || id == 0 {
		return beneficiary.ErrNotFound
	}
	if err := h.app.Gateway.DeleteBeneficiary(c.Request().Context(), web.Caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
