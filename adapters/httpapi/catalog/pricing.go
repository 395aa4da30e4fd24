package catalog

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/web"
	"paygate/core/catalog/catalogadmin"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

type priceResponse struct {
	ID               uint64     `json:"id"`
	APIServiceID     uint64     `json:"api_service_id"`
	UserID           *uint64    `json:"user_id"`
	AdminCost        string     `json:"admin_cost"`
	UserPrice        string     `json:"user_price"`
	ResellerPrice    string     `json:"reseller_price"`
	MinimumHitCharge string     `json:"minimum_hit_charge"`
	Status           string     `json:"status"`
	CreatedAt        *time.Time `json:"created_at"`
	UpdatedAt        *time.Time `json:"updated_at"`
}

func toPriceResponse(p *pricing.Price) priceResponse {
	return priceResponse{
		ID: p.ID, APIServiceID: p.ServiceID, UserID: p.UserID, AdminCost: inr.Format4(p.AdminCost),
		UserPrice: inr.Format4(p.UserPrice), ResellerPrice: inr.Format4(p.ResellerPrice),
		MinimumHitCharge: inr.Format2(p.MinimumHitCharge), Status: string(p.Status),
		CreatedAt: web.TimePtr(p.CreatedAt), UpdatedAt: web.TimePtr(p.UpdatedAt),
	}
}

type priceRequest struct {
	UserID           *uint64 `json:"user_id"`
	AdminCost        *string `json:"admin_cost"`
	UserPrice        *string `json:"user_price"`
	ResellerPrice    *string `json:"reseller_price"`
	MinimumHitCharge *string `json:"minimum_hit_charge"`
	Status           *string `json:"status" validate:"omitempty,oneof=active inactive"`
}

// amounts parses the money fields; a missing one stays nil.
func (r *priceRequest) amounts() (catalogadmin.PricePatch, error) {
	fe := errs.FieldErrors{}
	p := catalogadmin.PricePatch{
		AdminCost:        web.MoneyField(fe, "admin_cost", r.AdminCost, 4),
		UserPrice:        web.MoneyField(fe, "user_price", r.UserPrice, 4),
		ResellerPrice:    web.MoneyField(fe, "reseller_price", r.ResellerPrice, 4),
		MinimumHitCharge: web.MoneyField(fe, "minimum_hit_charge", r.MinimumHitCharge, 2),
	}
	if r.Status != nil {
		st := pricing.Status(*r.Status)
		p.Status = &st
	}
	return p, fe.Err()
}

func (h *Handler) ListPricing(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	rows, err := h.app.Catalog.ListPricing(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return web.WritePaged(c, web.MapSlice(rows, toPriceResponse))
}

func (h *Handler) CreatePricing(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req priceRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	a, err := req.amounts()
	if err != nil {
		return err
	}
	zero := func(d *decimal.Decimal) decimal.Decimal {
		if d == nil {
			return decimal.Zero
		}
		return *d
	}
	p := pricing.Price{
		UserID: req.UserID, AdminCost: zero(a.AdminCost), UserPrice: zero(a.UserPrice),
		ResellerPrice: zero(a.ResellerPrice), MinimumHitCharge: zero(a.MinimumHitCharge),
	}
	if a.Status != nil {
		p.Status = *a.Status
	}
	out, err := h.app.Catalog.CreatePricing(c.Request().Context(), web.Caller(c), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toPriceResponse(out))
}

func (h *Handler) PatchPricing(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req priceRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	if req.UserID != nil {
		return errs.Validation(map[string][]string{"user_id": {"cannot be changed; create a row for the other user"}})
	}
	p, err := req.amounts()
	if err != nil {
		return err
	}
	out, err := h.app.Catalog.PatchPricing(c.Request().Context(), web.Caller(c), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toPriceResponse(out))
}

func (h *Handler) DeletePricing(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	if err := h.app.Catalog.DeletePricing(c.Request().Context(), web.Caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
