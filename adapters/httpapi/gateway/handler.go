// Package gateway is the HTTP side of the gateway: the API-key endpoints
// (payments, refunds, verification, recharges, account opening, payouts),
// the hosted checkout page, and the panel's views of them (payments, held
// collections, payouts and their beneficiaries).
package gateway

import (
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the gateway routes of httpapi's routes.go but the
// payouts': the payments and their checkout page, refunds, held
// collections, verification, recharges and account opening.
type Handler struct {
	app *app.App
	kit *web.Kit
}

// New builds the gateway handler.
func New(a *app.App, kit *web.Kit) *Handler { return &Handler{app: a, kit: kit} }

// Payouts serves the payout routes of httpapi's routes.go: payouts
// through the API and the panel, their quotes, authorisation and limits,
// and the beneficiaries they are sent to.
type Payouts struct {
	app *app.App
	kit *web.Kit
}

// NewPayouts builds the payouts handler.
func NewPayouts(a *app.App, kit *web.Kit) *Payouts { return &Payouts{app: a, kit: kit} }
