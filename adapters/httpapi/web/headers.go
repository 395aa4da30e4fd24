package web

import (
	"crypto/rand"
	"encoding/base64"

	"github.com/labstack/echo/v4"
)

// NewNonce is a fresh CSP nonce: 128 random bits.
func NewNonce() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// PageHeaders sets the headers of an HTML page: its policy and referrer
// policy (the headers every answer carries come from baseHeaders).
func PageHeaders(c echo.Context, csp, referrer string) {
	h := c.Response().Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("Referrer-Policy", referrer)
}
