package httpapi

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/oklog/ulid/v2"

	"paygate/adapters/httpapi/web"
)

// NewRequestID is "req_" + a ULID: sortable and unique across instances.
// Its 80 random bits come from crypto/rand: ids are public (X-Request-ID),
// and ulid.Make's default math/rand source would let a client predict the
// next ids, payment ids included, had they shared it.
func NewRequestID() string { return "req_" + ulid.MustNew(ulid.Now(), rand.Reader).String() }

// requestID gives every request an id, echoed as X-Request-ID; a metered
// call's hit log carries the same id. A client-sent id is not trusted.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := NewRequestID()
		web.SetRequestID(c, id)
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

// accessLog writes one JSON line per request. The query string is left out:
// it may carry personal data of service calls.
func (s *server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		req, res := c.Request(), c.Response()
		s.log.LogAttrs(req.Context(), slog.LevelInfo, "request",
			slog.String("request_id", web.RequestID(c)),
			slog.String("method", req.Method),
			slog.String("path", req.URL.Path),
			slog.String("route", c.Path()),
			slog.Int("status", res.Status),
			slog.Int64("bytes", res.Size),
			slog.Float64("latency_ms", float64(time.Since(start).Microseconds())/1000),
			slog.String("ip", c.RealIP()),
		)
		return nil
	}
}

// recoverPanics turns a panic into a logged 500 instead of a dropped connection.
func (s *server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return next(c)
	}
}

func netipToNet(p netip.Prefix) *net.IPNet {
	return &net.IPNet{IP: net.IP(p.Addr().AsSlice()), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}
}
