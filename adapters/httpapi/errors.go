package httpapi

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"paygate/core/errs"
)

// errorBody is the body of every API error.
type errorBody struct {
	Success   bool                `json:"success"`
	Message   string              `json:"message"`
	Error     string              `json:"error"`
	RequestID string              `json:"request_id,omitempty"`
	Errors    map[string][]string `json:"errors,omitempty"`
}

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

func (s *server) errorResponse(err error, c echo.Context) (int, errorBody) {
	body := errorBody{RequestID: requestIDOf(c)}
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
