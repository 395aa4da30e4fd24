package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/core/platform/errs"
)

// Metrics records HTTP requests and writes the Prometheus exposition
// (adapters/metrics.Registry).
type Metrics interface {
	ObserveRequest(method, route string, status int, d time.Duration)
	WritePrometheus(w io.Writer)
}

// unmatchedRoute labels requests that matched no route: the raw path never
// becomes a label, so unknown paths cannot multiply the series.
const unmatchedRoute = "unmatched"

// standardMethods are the method labels kept; any other is "OTHER" (the
// metered route accepts any method).
var standardMethods = map[string]string{
	http.MethodGet: http.MethodGet, http.MethodHead: http.MethodHead, http.MethodPost: http.MethodPost,
	http.MethodPut: http.MethodPut, http.MethodPatch: http.MethodPatch, http.MethodDelete: http.MethodDelete,
	http.MethodOptions: http.MethodOptions,
}

// knownRoutes are the registered route patterns, the only route labels.
func knownRoutes(e *echo.Echo) map[string]bool {
	out := map[string]bool{}
	for _, r := range e.Routes() {
		out[r.Path] = true
	}
	return out
}

// measure records every request's method, route pattern, status and
// latency. It runs outside accessLog, which has already turned an error
// into the response, so the status is the one sent.
func (s *server) measure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		route := c.Path()
		if !s.routeLabels[route] {
			route = unmatchedRoute
		}
		method, ok := standardMethods[c.Request().Method]
		if !ok {
			method = "OTHER"
		}
		s.metrics.ObserveRequest(method, route, c.Response().Status, time.Since(start))
		return err
	}
}

// serveMetrics is GET /metrics for operators: Prometheus text format,
// behind the bearer METRICS_TOKEN; without a token configured the route
// answers 404 (metrics are not public: they show services and volumes).
func (s *server) serveMetrics(c echo.Context) error {
	if s.metrics == nil || len(s.metricsToken) == 0 {
		return echo.ErrNotFound
	}
	given, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer ")
	sum := sha256.Sum256([]byte(given)) // equal lengths: the comparison leaks nothing about the token
	if !ok || subtle.ConstantTimeCompare(sum[:], s.metricsToken) != 1 {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="metrics"`)
		return errs.ErrUnauthorized
	}
	c.Response().Header().Set(echo.HeaderContentType, "text/plain; version=0.0.4; charset=utf-8")
	c.Response().WriteHeader(http.StatusOK)
	s.metrics.WritePrometheus(c.Response())
	return nil
}
