// Package accounts is the HTTP side of accounts: sign-in and sessions,
// registration and account mail, the caller's own account and billing
// profile, users (admins), API keys and the audit log.
package accounts

import (
	"time"

	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the accounts routes of httpapi's routes.go.
type Handler struct {
	app *app.App
	kit *web.Kit
	// secureCookies: PUBLIC_BASE_URL is https, so the refresh cookie is
	// Secure (auth.go).
	secureCookies bool
	// In-memory limits of the account routes (accounts.go).
	registrations, accountMail, resets *web.KeyedLimiter
}

// New builds the accounts handler.
func New(a *app.App, kit *web.Kit, secureCookies bool) *Handler {
	return &Handler{app: a, kit: kit, secureCookies: secureCookies,
		registrations: web.NewKeyedLimiter(10, 6*time.Minute),  // 10 an hour per address
		accountMail:   web.NewKeyedLimiter(5, 10*time.Minute),  // forgot-password requests: 5 a burst, then one per 10 min, per address (accounts: signin.MailEvery)
		resets:        web.NewKeyedLimiter(20, 30*time.Second), // reset attempts per address (each hashes a password)
	}
}
