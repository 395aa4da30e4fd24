package httpapi

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/accounts"
	"paygate/adapters/httpapi/billing"
	"paygate/adapters/httpapi/catalog"
	"paygate/adapters/httpapi/events"
	"paygate/adapters/httpapi/gateway"
	"paygate/adapters/httpapi/metering"
	"paygate/adapters/httpapi/money"
	"paygate/adapters/httpapi/resale"
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Deps are what the HTTP edge needs.
type Deps struct {
	App            *app.App
	Log            *slog.Logger
	Ready          func(ctx context.Context) error // readiness: the database answers
	TrustedProxies []netip.Prefix                  // whose X-Forwarded-For is believed
	Assets         fs.FS                           // the built SPA; nil serves nothing at /
	MaxBodyBytes   int64
	// TimeZone is the IANA name of TIMEZONE, written into the panel's
	// index.html (<meta name="paygate-timezone">) so it shows dates in it.
	TimeZone string
	// Metrics records requests and serves GET /metrics to holders of
	// MetricsToken; nil records nothing and /metrics answers 404, as it
	// does with an empty token.
	Metrics      Metrics
	MetricsToken string
	// ExportStallTimeout ends a CSV export whose client reads nothing for
	// this long (web/csv.go); 0 means 30 s.
	ExportStallTimeout time.Duration
	// StatementImportMaxBytes bounds a statement upload (money/reconciliation.go);
	// 0 means 20 MB.
	StatementImportMaxBytes int64
}

type server struct {
	app   *app.App
	log   *slog.Logger
	ready func(ctx context.Context) error
	kit   *web.Kit

	// The areas' handlers, each route of routes.go served by one.
	accounts *accounts.Handler
	events   *events.Handler
	metering *metering.Handler
	gateway  *gateway.Handler
	payouts  *gateway.Payouts
	money    *money.Handler
	billing  *billing.Handler
	catalog  *catalog.Handler
	resale   *resale.Handler

	timeZone     string          // TIMEZONE, for the panel (spa.go)
	metrics      Metrics         // nil: not measured (metrics.go)
	metricsToken []byte          // SHA-256 of METRICS_TOKEN; empty: /metrics off
	routeLabels  map[string]bool // registered route patterns, the route labels
	hsts         bool            // PUBLIC_BASE_URL is https: send Strict-Transport-Security (headers.go), the refresh cookie is Secure (accounts/auth.go)
}

// NewServer builds the HTTP handler with every route of routes.go.
func NewServer(d Deps) *echo.Echo {
	if d.MaxBodyBytes == 0 {
		d.MaxBodyBytes = 1 << 20
	}
	s := &server{app: d.App, log: d.Log, ready: d.Ready, timeZone: d.TimeZone}
	exportStall := d.ExportStallTimeout
	if exportStall <= 0 {
		exportStall = 30 * time.Second
	}
	s.kit = web.NewKit(d.Log, d.MaxBodyBytes, exportStall)
	if d.App != nil && d.App.Gateway != nil {
		s.hsts = strings.HasPrefix(strings.ToLower(d.App.Gateway.PublicBaseURL()), "https://")
	}
	s.accounts = accounts.New(d.App, s.kit, s.hsts)
	s.events = events.New(d.App, s.kit)
	s.metering = metering.New(d.App, s.kit)
	s.gateway = gateway.New(d.App, s.kit)
	s.payouts = gateway.NewPayouts(d.App, s.kit)
	statementMax := d.StatementImportMaxBytes
	if statementMax <= 0 {
		statementMax = 20 << 20
	}
	s.money = money.New(d.App, s.kit, s.gateway, statementMax)
	s.billing = billing.New(d.App, s.kit)
	s.catalog = catalog.New(d.App, s.kit)
	s.resale = resale.New(d.App, s.kit, s.accounts)
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.IPExtractor = ipExtractor(d.TrustedProxies)
	if d.Metrics != nil {
		s.metrics = d.Metrics
		e.Use(s.measure)
	}
	if d.MetricsToken != "" {
		sum := sha256.Sum256([]byte(d.MetricsToken))
		s.metricsToken = sum[:]
	}
	e.Use(requestID, s.accessLog, s.recoverPanics, s.baseHeaders, compression())
	s.routes(e, d.Assets)
	s.routeLabels = knownRoutes(e)
	return e
}

func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		opts = append(opts, echo.TrustIPRange(netipToNet(p)))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

func (s *server) healthz(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

func (s *server) readyz(c echo.Context) error {
	if s.ready != nil {
		if err := s.ready(c.Request().Context()); err != nil {
			s.log.Warn("not ready", "err", err)
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		}
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}
