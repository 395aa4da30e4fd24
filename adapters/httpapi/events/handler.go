// Package events is the HTTP side of webhooks: a user's deliveries, their
// attempts, redelivery and the signing secret.
package events

import (
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the events routes of httpapi's routes.go.
type Handler struct {
	app *app.App
	kit *web.Kit
}

// New builds the events handler.
func New(a *app.App, kit *web.Kit) *Handler { return &Handler{app: a, kit: kit} }
