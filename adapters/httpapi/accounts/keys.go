package accounts

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/keys"
)

type KeyResponse struct {
	ID              uint64     `json:"id"`
	Name            string     `json:"name"`
	Key             string     `json:"key"`
	Secret          string     `json:"secret,omitempty"` // only when created or rotated
	AllowedServices []uint64   `json:"allowed_services"`
	AllowedIPs      string     `json:"allowed_ips"`
	DailyLimit      int        `json:"daily_limit"`
	HitsToday       int        `json:"hits_today"`
	LastUsedAt      *time.Time `json:"last_used_at"`
	Status          string     `json:"status"`
	CreatedAt       *time.Time `json:"created_at"`
	UpdatedAt       *time.Time `json:"updated_at"`
}

func (h *Handler) ToKeyResponse(k *apikey.Key) KeyResponse {
	r := KeyResponse{
		ID: k.ID, Name: k.Name, Key: k.Key, AllowedServices: k.AllowedServices, AllowedIPs: k.AllowedIPs,
		DailyLimit: k.DailyLimit, HitsToday: h.app.Keys.HitsToday(k), LastUsedAt: k.LastUsedAt, Status: string(k.Status),
		CreatedAt: web.TimePtr(k.CreatedAt), UpdatedAt: web.TimePtr(k.UpdatedAt),
	}
	if r.AllowedServices == nil {
		r.AllowedServices = []uint64{}
	}
	return r
}

type keyRequest struct {
	Name            *string   `json:"name" validate:"omitempty,max=255"`
	AllowedServices *[]uint64 `json:"allowed_services"`
	AllowedIPs      *string   `json:"allowed_ips" validate:"omitempty,max=500"`
	DailyLimit      *int      `json:"daily_limit"`
}

func (h *Handler) ListKeys(c echo.Context) error {
	keys, err := h.app.Keys.ListKeys(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return web.WritePaged(c, web.MapSlice(keys, h.ToKeyResponse))
}

func (h *Handler) CreateKey(c echo.Context) error {
	var req keyRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	k, secret, err := h.app.Keys.CreateKey(c.Request().Context(), web.Caller(c), apikey.Restrictions{
		Name: web.Deref(req.Name), AllowedServices: web.Deref(req.AllowedServices), AllowedIPs: web.Deref(req.AllowedIPs), DailyLimit: web.Deref(req.DailyLimit),
	})
	if err != nil {
		return err
	}
	r := h.ToKeyResponse(k)
	r.Secret = secret
	return c.JSON(http.StatusCreated, r)
}

func (h *Handler) PatchKey(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req keyRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	k, err := h.app.Keys.PatchKey(c.Request().Context(), web.Caller(c), id, keys.KeyPatch{
		Name: req.Name, AllowedServices: req.AllowedServices, AllowedIPs: req.AllowedIPs, DailyLimit: req.DailyLimit,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.ToKeyResponse(k))
}

func (h *Handler) RotateKey(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	k, secret, err := h.app.Keys.RotateSecret(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	r := h.ToKeyResponse(k)
	r.Secret = secret
	return c.JSON(http.StatusOK, r)
}

func (h *Handler) RevokeKey(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	k, err := h.app.Keys.RevokeKey(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h.ToKeyResponse(k))
}
