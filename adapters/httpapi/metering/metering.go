package metering

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/metering"
	"paygate/core/platform/inr"
)

// callEnvelope is the success body of a service call: the upstream's JSON
// as data, with the charge and the balance left (api/openapi.yaml).
type callEnvelope struct {
	Success     bool            `json:"success"`
	RequestID   string          `json:"request_id"`
	Data        json.RawMessage `json:"data"`
	Charged     string          `json:"charged"`
	BalanceLeft string          `json:"balance_left"`
}

// ServiceCredentials reads X-API-Key/X-API-Secret or HTTP Basic; never the
// query string.
func ServiceCredentials(r *http.Request) (key, secret string) {
	key, secret = r.Header.Get("X-API-Key"), r.Header.Get("X-API-Secret")
	if key != "" || secret != "" {
		return key, secret
	}
	h := r.Header.Get(echo.HeaderAuthorization)
	if enc, ok := strings.CutPrefix(h, "Basic "); ok {
		raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
		if err == nil {
			key, secret, _ = strings.Cut(string(raw), ":")
		}
	}
	return key, secret
}

func (h *Handler) CallService(c echo.Context) error {
	body, err := h.kit.ReadBody(c)
	if err != nil {
		return err
	}
	key, secret := ServiceCredentials(c.Request())
	res, quota, err := h.app.Metering.CallService(c.Request().Context(), metering.CallInput{
		RequestID: web.RequestID(c), Slug: c.Param("slug"), Method: c.Request().Method,
		Key: key, Secret: secret, IP: c.RealIP(), Query: c.QueryParams(), Body: body,
	})
	if quota.Limit > 0 {
		setRateLimit(c.Response().Header(), quota)
	}
	if err != nil {
		var me *metering.MethodError
		if errors.As(err, &me) {
			c.Response().Header().Set(echo.HeaderAllow, me.Allow)
		}
		return err
	}
	return writeCallEnvelope(c, res)
}

// setRateLimit writes the key's daily limit into the answer's RateLimit-*
// headers (IETF httpapi-ratelimit-headers, the field-per-value form):
// Reset is whole seconds to the key's next local midnight, rounded up
// (the Retry-After of a 429 "Daily limit exceeded", httpapi's errors.go).
// The map is written directly: the names go out as spelled, without being
// canonicalised on every call (header names are case-insensitive).
func setRateLimit(h http.Header, q metering.DailyQuota) {
	v := [3]string{strconv.Itoa(q.Limit), strconv.Itoa(q.Remaining), web.RetryAfterSeconds(q.Reset)}
	h["RateLimit-Limit"] = v[0:1:1]
	h["RateLimit-Remaining"] = v[1:2:2]
	h["RateLimit-Reset"] = v[2:3:3]
}

// writeCallEnvelope writes the callEnvelope of res by hand: the upstream's
// body goes out as it came (the core checked it is valid JSON), where
// encoding/json would scan it again to compact and HTML-escape a
// json.RawMessage.
func writeCallEnvelope(c echo.Context, res *metering.CallResult) error {
	rid, err := json.Marshal(res.RequestID)
	if err != nil {
		return err
	}
	charged, left := inr.Format4(res.Charged), inr.Format2(res.BalanceLeft)
	b := make([]byte, 0, len(res.Data)+len(rid)+len(charged)+len(left)+80)
	b = append(b, `{"success":true,"request_id":`...)
	b = append(b, rid...)
	b = append(b, `,"data":`...)
	b = append(b, res.Data...)
	b = append(b, `,"charged":"`...)
	b = append(b, charged...)
	b = append(b, `","balance_left":"`...)
	b = append(b, left...)
	b = append(b, "\"}\n"...)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
}
