package httpapi

import (
	"compress/gzip"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// compressMinBytes is the smallest answer worth compressing: below it the
// gzip header and the CPU buy nothing on a single packet.
const compressMinBytes = 1024

// compression gzips the answers that are text worth compressing (see
// compresses) for clients that accept gzip, and marks them Vary:
// Accept-Encoding. The panel's static files are not compressed here: they
// are served precompressed (spa.go).
func compression() echo.MiddlewareFunc {
	gz := middleware.GzipWithConfig(middleware.GzipConfig{Level: gzip.DefaultCompression, MinLength: compressMinBytes})
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		zipped := gz(next) // adds Vary itself
		return func(c echo.Context) error {
			r := c.Request()
			switch {
			case !compresses(r):
				return next(c)
			case acceptsEncoding(r, "gzip"):
				return zipped(c)
			}
			c.Response().Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
			return next(c)
		}
	}
}

// compresses is whether an answer to r may be gzipped per request: the
// panel's JSON, the API docs, the checkout pages, the panel's index.html
// and /metrics. Not the metered calls and the gateway (/api/v1/<slug>:
// small answers on the hot path, where gzip's CPU and pooled-writer work
// would be paid on every call for little gain), CSV exports (streamed under
// a per-write stall deadline; compressing them costs a core at export
// speed), screenshots (images), health checks, or static files (already
// compressed at build time).
func compresses(r *http.Request) bool {
	p := r.URL.Path
	switch {
	case r.Header.Get("Range") != "":
		// A range is of the identity bytes here; gzip would break it.
		return false
	case strings.HasPrefix(p, "/api/v1/panel/"):
		// The query is parsed here only: a metered call pays a prefix test.
		return !strings.HasSuffix(p, "/screenshot") && r.URL.Query().Get("format") != "csv"
	case strings.HasPrefix(p, "/api/"):
		return p == "/api/docs" || p == "/api/openapi.yaml"
	case p == "/healthz", p == "/readyz":
		return false
	case p == "/metrics", strings.HasPrefix(p, "/pay_"):
		return true
	}
	// The panel: index.html (a client route, /, /index.html) is written per
	// start-up with the time zone in it; any other file is a static one.
	base := path.Base(p)
	return p == "/index.html" || !strings.Contains(base, ".")
}

// acceptsEncoding is whether r's Accept-Encoding lists coding (else *)
// with a non-zero quality (RFC 9110, section 12.5.3).
func acceptsEncoding(r *http.Request, coding string) bool {
	named, star := -1.0, -1.0
	for _, v := range r.Header.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			q := 1.0
			if v, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
			switch name = strings.TrimSpace(name); {
			case strings.EqualFold(name, coding):
				named = q
			case name == "*":
				star = q
			}
		}
	}
	if named >= 0 {
		return named > 0
	}
	return star > 0
}
