package catalog

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/catalogadmin"
	"paygate/core/gateway"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

type serviceResponse struct {
	ID             uint64             `json:"id"`
	Name           string             `json:"name"`
	Slug           string             `json:"slug"`
	Endpoint       string             `json:"endpoint"`
	Description    *string            `json:"description"`
	Category       string             `json:"category"`
	Method         string             `json:"method"`
	Parameters     map[string]string  `json:"parameters"`
	Status         string             `json:"status"`
	Builtin        bool               `json:"builtin"`
	ProviderURL    *string            `json:"provider_url,omitempty"`     // admins only
	Headers        map[string]string  `json:"headers,omitempty"`          // admins only
	HasProviderKey *bool              `json:"has_provider_key,omitempty"` // admins only; the key itself never leaves
	SAC            *web.Shown[string] `json:"sac_code,omitempty"`         // admins only; null: the supplier's default
	// Price is what one call costs the viewer (their role, their own
	// pricing row else the default), 2 places; null with
	// MinimumHitCharge when the service is not sold to them.
	Price            *string    `json:"price"`
	MinimumHitCharge *string    `json:"minimum_hit_charge"`
	CreatedAt        *time.Time `json:"created_at"`
	UpdatedAt        *time.Time `json:"updated_at"`
}

// toServiceResponse never carries provider_key; the upstream address and
// headers are shown to admins only. prices are the viewer's (PricesFor).
func toServiceResponse(viewer *user.User, prices map[uint64]catalogadmin.ServicePrice) func(*catalog.Service) serviceResponse {
	return func(s *catalog.Service) serviceResponse {
		r := serviceResponse{
			ID: s.ID, Name: s.Name, Slug: s.Slug, Endpoint: gateway.ServiceEndpoint(s), Description: s.Description,
			Category: s.Category, Method: s.Method, Parameters: s.Parameters, Status: string(s.Status),
			Builtin: s.Builtin, CreatedAt: web.TimePtr(s.CreatedAt), UpdatedAt: web.TimePtr(s.UpdatedAt),
		}
		if r.Parameters == nil {
			r.Parameters = map[string]string{}
		}
		if p, ok := prices[s.ID]; ok {
			charge, minimum := inr.Format2(p.Charge), inr.Format2(p.MinimumHitCharge)
			r.Price, r.MinimumHitCharge = &charge, &minimum
		}
		if viewer.Role == user.RoleAdmin {
			url, has := s.ProviderURL, s.ProviderKey != nil
			r.ProviderURL, r.HasProviderKey = &url, &has
			r.SAC = &web.Shown[string]{V: s.SAC}
			r.Headers = s.Headers
			if r.Headers == nil {
				r.Headers = map[string]string{}
			}
		}
		return r
	}
}

// servicesOut is rows as the caller sees them, with their prices.
func (h *Handler) servicesOut(ctx context.Context, viewer *user.User, rows ...catalog.Service) ([]serviceResponse, error) {
	prices, err := h.app.Catalog.PricesFor(ctx, viewer, rows)
	if err != nil {
		return nil, err
	}
	return web.MapSlice(rows, toServiceResponse(viewer, prices)), nil
}

// serviceOut is one service as the caller sees it, with its price.
func (h *Handler) serviceOut(c echo.Context, status int, svc *catalog.Service) error {
	out, err := h.servicesOut(c.Request().Context(), web.Caller(c), *svc)
	if err != nil {
		return err
	}
	return c.JSON(status, out[0])
}

type serviceRequest struct {
	Name        *string            `json:"name" validate:"omitempty,max=255"`
	Slug        *string            `json:"slug" validate:"omitempty,max=255"`
	Description *string            `json:"description" validate:"omitempty,max=65535"`
	Category    *string            `json:"category" validate:"omitempty,max=100"`
	ProviderURL *string            `json:"provider_url" validate:"omitempty,max=500"`
	ProviderKey *string            `json:"provider_key" validate:"omitempty,max=500"`
	Method      *string            `json:"method" validate:"omitempty,oneof=GET POST PUT DELETE"`
	Headers     *map[string]string `json:"headers"`
	Parameters  *map[string]string `json:"parameters"`
	Status      *string            `json:"status" validate:"omitempty,oneof=active inactive"`
	SAC         web.NullableString `json:"sac_code"` // null: the supplier's default
}

func (h *Handler) CreateService(c echo.Context) error {
	var req serviceRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	svc := catalog.Service{
		Name: web.Deref(req.Name), Slug: web.Deref(req.Slug), Description: req.Description, Category: web.Deref(req.Category),
		ProviderURL: web.Deref(req.ProviderURL), ProviderKey: req.ProviderKey, Method: web.Deref(req.Method),
		Headers: web.Deref(req.Headers), Parameters: web.Deref(req.Parameters), Status: catalog.Status(web.Deref(req.Status)),
		SAC: req.SAC.Value,
	}
	out, err := h.app.Catalog.CreateService(c.Request().Context(), web.Caller(c), svc)
	if err != nil {
		return err
	}
	return h.serviceOut(c, http.StatusCreated, out)
}

func (h *Handler) ListServices(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	f := catalog.Filter{Status: catalog.Status(c.QueryParam("status")), Category: c.QueryParam("category"), Q: c.QueryParam("q"), Page: p, PerPage: pp}
	if f.Status != "" && f.Status != catalog.StatusActive && f.Status != catalog.StatusInactive {
		fe.Add("status", "must be active or inactive")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Catalog.ListServices(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	out, err := h.servicesOut(c.Request().Context(), web.Caller(c), rows...)
	if err != nil {
		return err
	}
	return web.WriteList(c, out, p, pp, total)
}

func (h *Handler) GetService(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	svc, err := h.app.Catalog.GetService(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return h.serviceOut(c, http.StatusOK, svc)
}

func (h *Handler) PatchService(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req serviceRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	p := catalogadmin.ServicePatch{
		Name: req.Name, Slug: req.Slug, Description: req.Description, Category: req.Category,
		ProviderURL: req.ProviderURL, ProviderKey: req.ProviderKey, Method: req.Method,
		Headers: req.Headers, Parameters: req.Parameters, SAC: req.SAC.Patch(),
	}
	if req.Status != nil {
		st := catalog.Status(*req.Status)
		p.Status = &st
	}
	svc, err := h.app.Catalog.PatchService(c.Request().Context(), web.Caller(c), id, p)
	if err != nil {
		return err
	}
	return h.serviceOut(c, http.StatusOK, svc)
}

func (h *Handler) DeleteService(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	if err := h.app.Catalog.DeleteService(c.Request().Context(), web.Caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type docBody struct {
	Endpoint        string                       `json:"endpoint" validate:"required,max=255"`
	Method          string                       `json:"method" validate:"required,oneof=GET POST PUT DELETE"`
	Description     string                       `json:"description" validate:"required"`
	RequestParams   map[string]catalog.ParamSpec `json:"request_params" validate:"required"`
	ResponseExample map[string]any               `json:"response_example" validate:"required"`
	ErrorCodes      map[string]string            `json:"error_codes" validate:"required"`
	SortOrder       int                          `json:"sort_order"`
}

type docResponse struct {
	ID           uint64 `json:"id"`
	APIServiceID uint64 `json:"api_service_id"`
	docBody
	CreatedAt *time.Time `json:"created_at"`
	UpdatedAt *time.Time `json:"updated_at"`
}

func toDocResponse(d *catalog.Doc) docResponse {
	return docResponse{
		ID: d.ID, APIServiceID: d.ServiceID,
		docBody: docBody{
			Endpoint: d.Endpoint, Method: d.Method, Description: d.Description, RequestParams: d.RequestParams,
			ResponseExample: d.ResponseExample, ErrorCodes: d.ErrorCodes, SortOrder: d.SortOrder,
		},
		CreatedAt: web.TimePtr(d.CreatedAt), UpdatedAt: web.TimePtr(d.UpdatedAt),
	}
}

func (h *Handler) GetDoc(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	d, err := h.app.Catalog.GetDoc(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toDocResponse(d))
}

func (h *Handler) PutDoc(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	var req docBody
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	d, err := h.app.Catalog.PutDoc(c.Request().Context(), web.Caller(c), id, catalog.Doc{
		Endpoint: req.Endpoint, Method: req.Method, Description: req.Description, RequestParams: req.RequestParams,
		ResponseExample: req.ResponseExample, ErrorCodes: req.ErrorCodes, SortOrder: req.SortOrder,
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toDocResponse(d))
}

// getSamples is GET /services/{id}/samples: the call to the service in
// curl, Python, Node.js, PHP and Go (catalog.Samples), at its endpoint on
// PUBLIC_BASE_URL, with its documented parameters (its parameter list when
// it has no docs) and placeholders for the key and secret. Whoever may see
// the service may see its samples.
func (h *Handler) GetSamples(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	svc, err := h.app.Catalog.GetService(ctx, web.Caller(c), id)
	if err != nil {
		return err
	}
	doc, err := h.app.Catalog.GetDoc(ctx, web.Caller(c), id)
	if err != nil && !errors.Is(err, catalog.ErrDocNotFound) {
		return err
	}
	return c.JSON(http.StatusOK, catalog.Samples(catalog.SampleCall{
		URL: h.app.Gateway.PublicBaseURL() + gateway.ServiceEndpoint(svc), Method: svc.Method,
		Params: catalog.Specs(svc, doc), Gateway: svc.Builtin,
	}))
}
