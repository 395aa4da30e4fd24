package events

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/events/outbox"
	"paygate/core/events/webhook"
	"paygate/core/platform/errs"
)

type deliveryResponse struct {
	ID             uint64     `json:"id"`
	UserID         uint64     `json:"user_id"`
	EventID        string     `json:"event_id"`
	EventType      string     `json:"event_type"`
	Destination    string     `json:"destination"`
	URL            string     `json:"url"`
	Status         string     `json:"status"`
	Attempts       int        `json:"attempts"`
	NextAttemptAt  *time.Time `json:"next_attempt_at"`
	LastStatusCode *int       `json:"last_status_code"`
	LastError      *string    `json:"last_error"`
	DeliveredAt    *time.Time `json:"delivered_at"`
	CreatedAt      *time.Time `json:"created_at"`
	UpdatedAt      *time.Time `json:"updated_at"`
}

func toDeliveryResponse(d *webhook.Delivery) deliveryResponse {
	r := deliveryResponse{
		ID: d.ID, UserID: d.UserID, EventID: d.EventPublicID, EventType: string(d.EventType), Destination: string(d.Destination),
		URL: d.URL, Status: string(d.Status), Attempts: d.Attempts, LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		DeliveredAt: d.DeliveredAt, CreatedAt: web.TimePtr(d.CreatedAt), UpdatedAt: web.TimePtr(d.UpdatedAt),
	}
	if d.Status == webhook.StatusPending {
		r.NextAttemptAt = web.TimePtr(d.NextAttemptAt)
	}
	return r
}

type attemptResponse struct {
	ID              uint64     `json:"id"`
	StatusCode      *int       `json:"status_code"`
	LatencyMs       int        `json:"latency_ms"`
	Error           *string    `json:"error"`
	ResponseSnippet string     `json:"response_snippet"`
	CreatedAt       *time.Time `json:"created_at"`
}

func toAttemptResponse(a *webhook.Attempt) attemptResponse {
	r := attemptResponse{ID: a.ID, StatusCode: a.StatusCode, LatencyMs: a.LatencyMs, ResponseSnippet: a.Response, CreatedAt: web.TimePtr(a.CreatedAt)}
	if a.Error != "" {
		e := a.Error
		r.Error = &e
	}
	return r
}

type deliveryDetailResponse struct {
	deliveryResponse
	Payload  json.RawMessage   `json:"payload"`
	Attempts []attemptResponse `json:"attempt_log"`
}

func (h *Handler) ListDeliveries(c echo.Context) error {
	fe := errs.FieldErrors{}
	p, pp := web.Page(c, fe)
	loc := h.app.History.Location()
	f := webhook.Filter{
		UserID: web.UintParam(c, fe, "user_id"), Status: webhook.Status(c.QueryParam("status")),
		EventType: webhook.EventType(c.QueryParam("event_type")),
		From:      web.TimeParam(c, fe, "from", loc, false), To: web.TimeParam(c, fe, "to", loc, true), Page: p, PerPage: pp,
	}
	if f.Status != "" && !f.Status.Valid() {
		fe.Add("status", "must be pending, delivered or failed")
	}
	if f.EventType != "" && !f.EventType.Valid() {
		fe.Add("event_type", "must be an event type such as payment.success or balance.low")
	}
	if f.From != nil && f.To != nil && f.To.Before(*f.From) {
		fe.Add("to", "must not be before from")
	}
	if err := fe.Err(); err != nil {
		return err
	}
	rows, total, err := h.app.Outbox.ListDeliveries(c.Request().Context(), web.Caller(c), f)
	if err != nil {
		return err
	}
	return web.WriteList(c, web.MapSlice(rows, toDeliveryResponse), p, pp, total)
}

func (h *Handler) GetDelivery(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	d, err := h.app.Outbox.GetDelivery(c.Request().Context(), web.Caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toDeliveryDetail(d))
}

func toDeliveryDetail(d *outbox.DeliveryDetail) deliveryDetailResponse {
	return deliveryDetailResponse{deliveryResponse: toDeliveryResponse(&d.Delivery), Payload: d.Event.Payload,
		Attempts: web.MapSlice(d.Attempts, toAttemptResponse)}
}

func (h *Handler) Redeliver(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return err
	}
	d, err := h.app.Outbox.Redeliver(c.Request().Context(), web.Caller(c), id)
	if limit := (*outbox.RedeliveryLimitError)(nil); errors.As(err, &limit) {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(limit.RetryAfter.Seconds()))))
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, toDeliveryResponse(d))
}

type webhookSecretResponse struct {
	Secret string `json:"secret"`
}

func (h *Handler) RotateWebhookSecret(c echo.Context) error {
	secret, err := h.app.Outbox.RotateWebhookSecret(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, webhookSecretResponse{Secret: secret})
}
