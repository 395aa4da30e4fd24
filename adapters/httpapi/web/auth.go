package web

import (
	"errors"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/signin"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
)

// AdminOnly answers 403 to signed-in users who are not admins. For admins it
// puts the request's address and id in the context, for the audit log.
func AdminOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if Caller(c).Role != user.RoleAdmin {
			return errs.ErrForbidden
		}
		req := c.Request()
		src := audit.Source{IPAddress: c.RealIP(), RequestID: RequestID(c)}
		c.SetRequest(req.WithContext(audit.WithSource(req.Context(), src)))
		return next(c)
	}
}

// WithRetryAfter sets Retry-After (whole seconds, rounded up) when err is
// a sign-in backoff, and returns err for the error handler.
func WithRetryAfter(c echo.Context, err error) error {
	var b *signin.BlockedError
	if errors.As(err, &b) {
		secs := int((b.RetryAfter + time.Second - 1) / time.Second)
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	}
	return err
}

// ResellerOnly refuses anyone but a reseller (403 before any id is read)
// and carries the request's source to the audit entries.
func ResellerOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if Caller(c).Role != user.RoleReseller {
			return errs.ErrForbidden
		}
		return next(withAuditSource(c))
	}
}

// AdminOrReseller lets admins and resellers through (deciding balance
// requests: a reseller its customers' only, which the use case checks).
func AdminOrReseller(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if r := Caller(c).Role; r != user.RoleAdmin && r != user.RoleReseller {
			return errs.ErrForbidden
		}
		return next(withAuditSource(c))
	}
}

func withAuditSource(c echo.Context) echo.Context {
	req := c.Request()
	src := audit.Source{IPAddress: c.RealIP(), RequestID: RequestID(c)}
	c.SetRequest(req.WithContext(audit.WithSource(req.Context(), src)))
	return c
}
