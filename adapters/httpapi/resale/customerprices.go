package resale

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/web"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/resale"
	"paygate/core/resale/settlement"
)

// A reseller's selling prices, default markup and commission settlements
// (decisions "Resellers: one price, shown and charged"); the use cases answer 403 to anyone else.

type customerPriceResponse struct {
	ServiceID      uint64  `json:"service_id"`
	ServiceName    string  `json:"service_name"`
	Slug           string  `json:"slug"`
	Cost           string  `json:"cost"`
	Price          *string `json:"price"`
	EffectivePrice string  `json:"effective_price"`
	Margin         string  `json:"margin"`
	Source         string  `json:"source"`
	ListPrice      string  `json:"list_price"`
	BelowList      bool    `json:"below_list"`
}

func toCustomerPriceResponse(r *resale.Row) customerPriceResponse {
	var price *string
	if r.Price != nil {
		p := inr.Format4(*r.Price)
		price = &p
	}
	return customerPriceResponse{ServiceID: r.ServiceID, ServiceName: r.ServiceName, Slug: r.Slug, Cost: inr.Format2(r.Cost),
		Price: price, EffectivePrice: inr.Format2(r.Effective), Margin: inr.Format2(r.Margin), Source: string(r.Source),
		ListPrice: inr.Format2(r.List), BelowList: r.BelowList}
}

type customerPricesMeta struct {
	DefaultMarkup *string `json:"default_markup"`
}

type customerPricesResponse struct {
	Data []customerPriceResponse `json:"data"`
	Meta customerPricesMeta      `json:"meta"`
}

func (h *Handler) ListCustomerPrices(c echo.Context) error {
	rows, markup, err := h.app.Selling.Prices(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	out := web.MapSlice(rows, toCustomerPriceResponse)
	if out == nil {
		out = []customerPriceResponse{}
	}
	return c.JSON(http.StatusOK, customerPricesResponse{Data: out, Meta: customerPricesMeta{DefaultMarkup: inr.Format2Ptr(markup)}})
}

type customerPricePreviewResponse struct {
	ServiceID     uint64 `json:"service_id"`
	ServiceName   string `json:"service_name"`
	Slug          string `json:"slug"`
	Cost          string `json:"cost"`
	ListPrice     string `json:"list_price"`
	CurrentPrice  string `json:"current_price"`
	CustomerPrice string `json:"customer_price"`
	Source        string `json:"source"`
	BelowList     bool   `json:"below_list"`
}

func toCustomerPricePreview(r *resale.PreviewRow) customerPricePreviewResponse {
	return customerPricePreviewResponse{ServiceID: r.ServiceID, ServiceName: r.ServiceName, Slug: r.Slug, Cost: inr.Format2(r.Cost),
		ListPrice: inr.Format2(r.List), CurrentPrice: inr.Format2(r.Current), CustomerPrice: inr.Format2(r.Charge),
		Source: string(r.Source), BelowList: r.BelowList}
}

type customerPricePreviewMeta struct {
	DefaultMarkup *string `json:"default_markup"`
	BelowList     int     `json:"below_list"`
}

type customerPricePreviewList struct {
	Data []customerPricePreviewResponse `json:"data"`
	Meta customerPricePreviewMeta       `json:"meta"`
}

// previewCustomerPrices is GET /customer-prices/preview?markup=&service_id=&price=:
// every service as the reseller's customers would pay under that markup
// (absent: the current one) and that one selling price, saving nothing.
func (h *Handler) PreviewCustomerPrices(c echo.Context) error {
	fe := errs.FieldErrors{}
	opt := func(name string) *string {
		if !c.QueryParams().Has(name) {
			return nil
		}
		v := c.QueryParam(name)
		return &v
	}
	ch := resale.Change{Markup: web.MoneyField(fe, "markup", opt("markup"), 2), ServiceID: web.UintParam(c, fe, "service_id"),
		Price: web.MoneyField(fe, "price", opt("price"), 4)}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, markup, err := h.app.Selling.Preview(c.Request().Context(), web.Caller(c), ch)
	if err != nil {
		return err
	}
	out := customerPricePreviewList{Data: web.MapSlice(rows, toCustomerPricePreview), Meta: customerPricePreviewMeta{DefaultMarkup: inr.Format2Ptr(markup)}}
	if out.Data == nil {
		out.Data = []customerPricePreviewResponse{}
	}
	for _, r := range rows {
		if r.BelowList {
			out.Meta.BelowList++
		}
	}
	return c.JSON(http.StatusOK, out)
}

type customerPriceRequest struct {
	Price *string `json:"price"`
}

func (h *Handler) PutCustomerPrice(c echo.Context) error {
	id, err := web.IDParam(c, "service_id")
	if err != nil {
		return err
	}
	var req customerPriceRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	if req.Price == nil {
		fe.Add("price", "is required")
	}
	price := web.MoneyField(fe, "price", req.Price, 4)
	if err := fe.Err(); err != nil {
		return err
	}
	row, err := h.app.Selling.SetPrice(c.Request().Context(), web.Caller(c), id, *price)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toCustomerPriceResponse(&row))
}

func (h *Handler) DeleteCustomerPrice(c echo.Context) error {
	id, err := web.IDParam(c, "service_id")
	if err != nil {
		return err
	}
	if err := h.app.Selling.DeletePrice(c.Request().Context(), web.Caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type customerMarkupRequest struct {
	DefaultMarkup json.RawMessage `json:"default_markup"` // a decimal string, or null to clear
}

type customerMarkupResponse struct {
	DefaultMarkup *string `json:"default_markup"`
}

func (h *Handler) PutCustomerMarkup(c echo.Context) error {
	var req customerMarkupRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	fe := errs.FieldErrors{}
	var markup *decimal.Decimal
	switch raw := bytes.TrimSpace(req.DefaultMarkup); {
	case len(raw) == 0:
		fe.Add("default_markup", "is required (null clears it)")
	case string(raw) == "null":
	default:
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			fe.Add("default_markup", "must be a decimal string with at most 2 decimals, or null")
		} else {
			markup = web.MoneyField(fe, "default_markup", &v, 2)
		}
	}
	if err := fe.Err(); err != nil {
		return err
	}
	got, err := h.app.Selling.SetMarkup(c.Request().Context(), web.Caller(c), markup)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, customerMarkupResponse{DefaultMarkup: inr.Format2Ptr(got)})
}

type commissionResponse struct {
	ID            uint64    `json:"id"`
	HourStart     time.Time `json:"hour_start"`
	Hits          int       `json:"hits"`
	Amount        string    `json:"amount"`
	Reversed      string    `json:"reversed"`
	ReversalTaken string    `json:"reversal_taken"`
	ReversalDue   string    `json:"reversal_due"`
	CreatedAt     time.Time `json:"created_at"`
}

func toCommissionResponse(s *settlement.Settlement) commissionResponse {
	return commissionResponse{ID: s.ID, HourStart: s.HourStart.UTC(), Hits: s.Hits, Amount: inr.Format2(s.Amount),
		Reversed: inr.Format2(s.Reversed.Round(2)), ReversalTaken: inr.Format2(s.ReversalTaken), ReversalDue: inr.Format2(s.Due()),
		CreatedAt: s.CreatedAt.UTC()}
}

func (h *Handler) ListCommissions(c echo.Context) error {
	fe := errs.FieldErrors{}
	loc := h.app.History.Location()
	from, to := web.TimeParam(c, fe, "from", loc, false), web.TimeParam(c, fe, "to", loc, true)
	p, pp := web.Page(c, fe)
	if err := fe.Err(); err != nil {
		return err
	}
	list, total, err := h.app.Selling.Commissions(c.Request().Context(), web.Caller(c), from, to, p, pp)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(list, toCommissionResponse), p, pp, total)
}
