// Package billing is the HTTP side of billing: plans and subscriptions,
// invoices (their PDFs, e-invoices and the GSTR-1 register), the
// supplier's billing settings and GST states, and the payee details.
package billing

import (
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the billing routes of httpapi's routes.go.
type Handler struct {
	app *app.App
	kit *web.Kit
}

// New builds the billing handler.
func New(a *app.App, kit *web.Kit) *Handler { return &Handler{app: a, kit: kit} }
