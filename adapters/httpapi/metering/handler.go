// Package metering is the HTTP side of metered service calls and of what
// they leave behind: the call endpoint, the hit-log and transaction
// histories (JSON and CSV) and the dashboard.
package metering

import (
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the metering routes of httpapi's routes.go.
type Handler struct {
	app *app.App
	kit *web.Kit
}

// New builds the metering handler.
func New(a *app.App, kit *web.Kit) *Handler { return &Handler{app: a, kit: kit} }
