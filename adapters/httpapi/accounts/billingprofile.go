package accounts

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/billing/gst"
	"paygate/core/billing/taxprofile"
	"paygate/core/platform/errs"
)

type billingProfileResponse struct {
	LegalName string    `json:"legal_name"`
	Address   string    `json:"address"`
	State     string    `json:"state"`
	StateName string    `json:"state_name"`
	GSTIN     string    `json:"gstin"`
	UpdatedAt time.Time `json:"updated_at"`
}

func toBillingProfileResponse(p *taxprofile.Profile) *billingProfileResponse {
	name, _ := gst.StateName(p.State)
	return &billingProfileResponse{LegalName: p.LegalName, Address: p.Address, State: p.State, StateName: name, GSTIN: p.GSTIN,
		UpdatedAt: p.UpdatedAt.UTC()}
}

type billingRequest struct {
	LegalName string `json:"legal_name"`
	Address   string `json:"address"`
	State     string `json:"state"`
	GSTIN     string `json:"gstin"`
}

// meOut answers the caller's own account with its billing profile.
func (h *Handler) meOut(c echo.Context, u *user.User) error {
	out := ToUserResponse(u)
	p, err := h.app.TaxSettings.Profile(c.Request().Context(), u.ID)
	switch {
	case errors.Is(err, taxprofile.ErrNoProfile):
		out.Billing = &web.Shown[billingProfileResponse]{}
	case err != nil:
		return err
	default:
		out.Billing = &web.Shown[billingProfileResponse]{V: toBillingProfileResponse(p)}
	}
	return c.JSON(http.StatusOK, out)
}

// billingPatch is PATCH /auth/me's billing field, read before anything is
// changed: absent, null (clear the profile) or a profile, checked (422
// with fields named billing.<field>).
type billingPatch struct {
	set     bool
	profile *taxprofile.Profile
}

func (h *Handler) readBillingPatch(raw json.RawMessage) (billingPatch, error) {
	if raw == nil {
		return billingPatch{}, nil
	}
	if string(bytes.TrimSpace(raw)) == "null" {
		return billingPatch{set: true}, nil
	}
	var req billingRequest
	if err := decodeNested("billing", raw, &req); err != nil {
		return billingPatch{}, err
	}
	p, err := h.app.TaxSettings.CheckProfile(taxprofile.Profile{LegalName: req.LegalName, Address: req.Address,
		State: req.State, GSTIN: req.GSTIN})
	if err != nil {
		return billingPatch{}, nested("billing", err)
	}
	return billingPatch{set: true, profile: p}, nil
}

// apply saves or clears the caller's profile.
func (h *Handler) applyBillingPatch(ctx context.Context, userID uint64, b billingPatch) error {
	switch {
	case !b.set:
		return nil
	case b.profile == nil:
		return h.app.TaxSettings.ClearProfile(ctx, userID)
	}
	_, err := h.app.TaxSettings.SaveProfile(ctx, userID, *b.profile)
	return nested("billing", err)
}

// decodeNested decodes raw, field's JSON object, strictly as bind decodes
// a body, its field errors named field.<name>.
func decodeNested(field string, raw []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return errs.Validation(map[string][]string{field + "." + te.Field: {"must be a " + web.JSONType(te.Type.Kind())}})
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return errs.Validation(map[string][]string{field + "." + strings.Trim(name, `"`): {"is not a known field"}})
	}
	return errs.Validation(map[string][]string{field: {"must be a JSON object or null"}})
}

// nested names the field errors of err as fields of the object field.
func nested(field string, err error) error {
	e, ok := errs.As(err)
	if !ok || e.Fields == nil {
		return err
	}
	fields := make(map[string][]string, len(e.Fields))
	for k, v := range e.Fields {
		fields[field+"."+k] = v
	}
	out := *e
	out.Fields = fields
	return &out
}
