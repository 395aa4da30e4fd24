// Package resale is the HTTP side of resale: a reseller's brand (its page,
// logo and domains), its customers (their limits, keys, history and
// transfers) and its selling prices, markup and commissions.
package resale

import (
	"paygate/adapters/httpapi/accounts"
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the resale routes of httpapi's routes.go.
type Handler struct {
	app      *app.App
	kit      *web.Kit
	accounts *accounts.Handler // a customer's keys are listed as the accounts routes list them
	// logoUploads holds the one logo upload per reseller this instance
	// runs at a time (brand.go).
	logoUploads *oneEach
}

// New builds the resale handler.
func New(a *app.App, kit *web.Kit, acc *accounts.Handler) *Handler {
	return &Handler{app: a, kit: kit, accounts: acc, logoUploads: newOneEach()}
}
