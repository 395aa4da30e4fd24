// Package catalog is the HTTP side of the catalog: services, their docs
// and samples, and their prices (admins).
package catalog

import (
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the catalog routes of httpapi's routes.go.
type Handler struct {
	app *app.App
	kit *web.Kit
}

// New builds the catalog handler.
func New(a *app.App, kit *web.Kit) *Handler { return &Handler{app: a, kit: kit} }
