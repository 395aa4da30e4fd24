// Package store declares the unit of work the use cases run in: the
// repositories (Stores), bound to one database handle or to one
// transaction, and the Transactor that opens such a transaction.
package store

import (
	"context"
	"paygate/core/brand"

	"paygate/core/accountopen"
	"paygate/core/apikey"
	"paygate/core/audit"
	"paygate/core/catalog"
	"paygate/core/hitlog"
	"paygate/core/hold"
	"paygate/core/invoice"
	"paygate/core/ledger"
	"paygate/core/payment"
	"paygate/core/payout"
	"paygate/core/plan"
	"paygate/core/pricing"
	"paygate/core/recharge"
	"paygate/core/report"
	"paygate/core/resale"
	"paygate/core/session"
	"paygate/core/signin"
	"paygate/core/statement"
	"paygate/core/taxprofile"
	"paygate/core/topup"
	"paygate/core/transfer"
	"paygate/core/user"
	"paygate/core/utr"
	"paygate/core/webhook"
)

// Stores are the repositories, all bound to one database handle or to one
// transaction: those a transaction may need, and the resellers' selling
// prices, which no transaction writes but metering's invalidation wraps
// like the other lookups it caches. A repository no transaction reads is
// wired apart (app.Deps): the directory of names, the export leases, the
// resellers' dashboards, verification records, saved payout beneficiaries,
// and the server's generated keys (cmd/server).
type Stores struct {
	Users    user.Repository
	Keys     apikey.Repository
	Services catalog.Repository
	Pricing  pricing.Repository
	Ledger   ledger.Repository
	Hits     hitlog.Repository
	Sessions session.Repository
	Audit    audit.Repository
	Resets   user.ResetRepository
	TopUps   topup.Repository
	Reports  report.Repository

	Payments    payment.Repository
	Idempotency payment.IdempotencyKeys
	Recharges   recharge.Repository
	Payouts     payout.Repository
	Refunds     payment.RefundRepository // refunds of payments
	RefundKeys  payment.RefundKeys       // their Idempotency-Keys

	Webhooks webhook.Repository // the event outbox
	Holds    hold.Repository    // holds of metered calls
	Logins   signin.Repository  // sign-in attempt counters

	Statements statement.Repository // reconciliation: bank statement lines
	UTRs       utr.Claims           // UTRs claimed by payments and balance requests

	Openings accountopen.Repository // digital account openings

	Plans         plan.Catalog       // the plan catalog
	Subscriptions plan.Subscriptions // each user's subscription and its charged periods
	Invoices      invoice.Store      // tax invoices and credit notes
	TaxProfiles   taxprofile.Store   // the invoices' supplier and each account's billing profile

	Brands         brand.Store            // resellers' brands and domains
	Transfers      transfer.Repository    // money moved between resellers and their customers
	CustomerPrices pricing.CustomerPrices // resellers' selling prices and default markups
	Commissions    resale.Settlements     // resellers' commission settlements and the hits they sum
}

// Transactor runs fn in one database transaction with Stores bound to it.
// fn's error rolls back; nil commits. Row locks taken through the stores
// (user.Repository.LockByID) last until the end of fn.
type Transactor interface {
	WithinTx(ctx context.Context, fn func(ctx context.Context, s Stores) error) error
}
