// Package money is the HTTP side of money: balance requests and balance
// checkouts, bank statements and their reconciliation, and the monthly
// account statement.
package money

import (
	"paygate/adapters/httpapi/gateway"
	"paygate/adapters/httpapi/web"
	"paygate/core/app"
)

// Handler serves the money routes of httpapi's routes.go.
type Handler struct {
	app     *app.App
	kit     *web.Kit
	gateway *gateway.Handler // a balance checkout answers its payment as the gateway does
	// statementMax is StatementImportMaxBytes; importing holds the one
	// statement import this instance runs at a time (reconciliation.go).
	statementMax int64
	importing    chan struct{}
}

// New builds the money handler; statements of at most statementMax bytes
// are imported, one at a time.
func New(a *app.App, kit *web.Kit, gw *gateway.Handler, statementMax int64) *Handler {
	return &Handler{app: a, kit: kit, gateway: gw, statementMax: statementMax, importing: make(chan struct{}, 1)}
}
