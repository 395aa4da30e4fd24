package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/signin"
	"paygate/core/events/outbox"
	"paygate/core/metering"
	"paygate/core/platform/errs"
	"paygate/core/platform/export"
)

var statusOf = map[errs.Kind]int{
	errs.Invalid:           http.StatusUnprocessableEntity,
	errs.BadRequest:        http.StatusBadRequest,
	errs.NotFound:          http.StatusNotFound,
	errs.Conflict:          http.StatusConflict,
	errs.Unauthenticated:   http.StatusUnauthorized,
	errs.Forbidden:         http.StatusForbidden,
	errs.InsufficientFunds: http.StatusPaymentRequired,
	errs.LimitExceeded:     http.StatusTooManyRequests,
	errs.Unavailable:       http.StatusServiceUnavailable,
	errs.MethodNotAllowed:  http.StatusMethodNotAllowed,
	errs.Upstream:          http.StatusInternalServerError,
	errs.TooLarge:          http.StatusRequestEntityTooLarge,
}

// handleError is the one place errors become responses. Unknown errors are
// logged here, once, with the request id, and answered with a generic 500.
func (s *server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status, body := s.errorResponse(err, c)
	if status == http.StatusTooManyRequests && c.Response().Header().Get("Retry-After") == "" {
		c.Response().Header().Set("Retry-After", web.RetryAfterSeconds(s.retryAfter(err)))
	}
	var werr error
	if c.Request().Method == http.MethodHead {
		werr = c.NoContent(status)
	} else {
		werr = c.JSON(status, body)
	}
	if werr != nil {
		s.log.Warn("write error response", "request_id", body.RequestID, "err", werr)
	}
}

func (s *server) errorResponse(err error, c echo.Context) (int, web.ErrorBody) {
	body := web.ErrorBody{RequestID: web.RequestID(c)}
	if e, ok := errs.As(err); ok {
		status, known := statusOf[e.Kind]
		if known {
			body.Message, body.Error, body.Errors = e.Message, e.Code, e.Fields
			return status, body
		}
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			body.Message, body.Error = "Not found", "not_found"
		case http.StatusMethodNotAllowed:
			body.Message, body.Error = "Method not allowed", "method_not_allowed"
		case http.StatusRequestEntityTooLarge:
			body.Message, body.Error = "Request body too large", "body_too_large"
		case http.StatusUnauthorized:
			body.Message, body.Error = "Authentication required", "unauthenticated"
		default:
			if he.Code < 500 {
				body.Message, body.Error = http.StatusText(he.Code), "bad_request"
			} else {
				break
			}
		}
		if body.Error != "" {
			return he.Code, body
		}
	}
	s.log.LogAttrs(c.Request().Context(), slog.LevelError, "request failed",
		slog.String("request_id", body.RequestID), slog.String("path", c.Request().URL.Path), slog.String("err", err.Error()))
	body.Message, body.Error = "Internal server error", "internal_error"
	return http.StatusInternalServerError, body
}

// retryAfter is how long the caller of a 429 should wait, when the handler
// did not say (every 429 carries Retry-After): a daily limit until the next
// local midnight, a monthly plan limit until the next month, a backoff or
// a window for as long as it lasts.
func (s *server) retryAfter(err error) time.Duration {
	var (
		blocked *signin.BlockedError
		redel   *outbox.RedeliveryLimitError
		limited *web.LimitedError
	)
	switch {
	case errors.As(err, &blocked):
		return blocked.RetryAfter
	case errors.As(err, &redel):
		return redel.RetryAfter
	case errors.As(err, &limited):
		return limited.After
	case errors.Is(err, apikey.ErrDailyLimit):
		return s.app.Metering.UntilNextDay()
	case errors.Is(err, metering.ErrPlanLimit):
		return s.app.Metering.UntilNextMonth()
	case errors.Is(err, export.ErrBusy):
		return export.RetryAfter
	}
	return time.Minute
}
