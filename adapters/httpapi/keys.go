package httpapi

import (
	"net/http"
	"paygate/core/accounts/keys"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/core/accounts/apikey"
)

type keyResponse struct {
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

func (s *server) toKeyResponse(k *apikey.Key) keyResponse {
	r := keyResponse{
		ID: k.ID, Name: k.Name, Key: k.Key, AllowedServices: k.AllowedServices, AllowedIPs: k.AllowedIPs,
		DailyLimit: k.DailyLimit, HitsToday: s.app.Keys.HitsToday(k), LastUsedAt: k.LastUsedAt, Status: string(k.Status),
		CreatedAt: timePtr(k.CreatedAt), UpdatedAt: timePtr(k.UpdatedAt),
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

func (s *server) listKeys(c echo.Context) error {
	keys, err := s.app.Keys.ListKeys(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	return writePaged(c, mapSlice(keys, s.toKeyResponse))
}

func (s *server) createKey(c echo.Context) error {
	var req keyRequest
	if err := s.bind(c, &req); err != nil {
		return err
	}
	k, secret, err := s.app.Keys.CreateKey(c.Request().Context(), caller(c), apikey.Restrictions{
		Name: deref(req.Name), AllowedServices: deref(req.AllowedServices), AllowedIPs: deref(req.AllowedIPs), DailyLimit: deref(req.DailyLimit),
	})
	if err != nil {
		return err
	}
	r := s.toKeyResponse(k)
	r.Secret = secret
	return c.JSON(http.StatusCreated, r)
}

func (s *server) patchKey(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	var req keyRequest
	if err := s.bind(c, &req); err != nil {
		return err
	}
	k, err := s.app.Keys.PatchKey(c.Request().Context(), caller(c), id, keys.KeyPatch{
		Name: req.Name, AllowedServices: req.AllowedServices, AllowedIPs: req.AllowedIPs, DailyLimit: req.DailyLimit,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.toKeyResponse(k))
}

func (s *server) rotateKey(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	k, secret, err := s.app.Keys.RotateSecret(c.Request().Context(), caller(c), id)
	if err != nil {
		return err
	}
	r := s.toKeyResponse(k)
	r.Secret = secret
	return c.JSON(http.StatusOK, r)
}

func (s *server) revokeKey(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	k, err := s.app.Keys.RevokeKey(c.Request().Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, s.toKeyResponse(k))
}
