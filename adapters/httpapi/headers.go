package httpapi

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// The security headers. Every answer carries X-Content-Type-Options:
// nosniff, and Strict-Transport-Security when PUBLIC_BASE_URL is https;
// every answer under /api/v1 carries Cache-Control: no-store (each of them
// is authenticated or hands out credentials, like login and refresh);
// each HTML page carries its own Content-Security-Policy, which never
// allows inline scripts and forbids framing (clickjacking), and a
// Referrer-Policy.

// hstsValue: a year, this host only (includeSubDomains would bind sibling
// hosts the operator may still serve over http; preload is the operator's
// choice at the domain's apex).
const hstsValue = "max-age=31536000"

// cspSPA is the panel's policy: its scripts and styles are files from this
// origin (Vite's build has no inline script). Inline styles stay allowed:
// Mantine writes its CSS variables into <style> elements and style
// attributes at run time, and styles run no code. Screenshots of balance
// requests are shown from blob: URLs.
const cspSPA = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// cspDocs is the API docs page's: rendered on the server, no script at all.
const cspDocs = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// baseHeaders sets the headers every answer carries before the handler
// runs, so error answers carry them too; a handler may still replace
// Cache-Control (a CSV export, a screenshot).
func (s *server) baseHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderXContentTypeOptions, "nosniff")
		if s.hsts {
			h.Set(echo.HeaderStrictTransportSecurity, hstsValue)
		}
		if strings.HasPrefix(c.Request().URL.Path, "/api/v1/") {
			h.Set(echo.HeaderCacheControl, "no-store")
		}
		return next(c)
	}
}
