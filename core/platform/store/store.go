// Package store declares the unit of work the use cases run in: the
// repositories (Stores), bound to one database handle or to one
// transaction, and the Transactor that opens such a transaction.
//
// A transaction step never gets all of Stores: each use-case package
// declares the repositories its steps use (its TxStores, picked from
// Stores by its TxStoresOf), and the wiring (core/app) hands it a
// transactor of that set, Narrow(tx, pkg.TxStoresOf).
package store

import (
	"context"
	"paygate/core/resale/brand"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/session"
	"paygate/core/accounts/signin"
	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/events/webhook"
	"paygate/core/gateway/accountopen"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/recharge"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/metering/report"
	"paygate/core/money/ledger"
	"paygate/core/money/statement"
	"paygate/core/money/topup"
	"paygate/core/money/transfer"
	"paygate/core/platform/utr"
	"paygate/core/resale/settlement"
)

// Stores are the repositories, all bound to one database handle or to one
// transaction, as the store adapter builds them; only the wiring holds
// them whole (a use case's transactions get its TxStores). They are those
// a transaction may need, and the resellers' selling
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
	Commissions    settlement.Settlements // resellers' commission settlements and the hits they sum
}

// TransactorOf runs fn in one database transaction with the repositories
// S bound to it. fn's error rolls back; nil commits. Row locks taken through
// the repositories (user.Repository.LockByID) last until the end of fn.
type TransactorOf[S any] interface {
	WithinTx(ctx context.Context, fn func(ctx context.Context, s S) error) error
}

// Transactor is the store adapter's unit of work, with every repository.
type Transactor = TransactorOf[Stores]

// Narrow is t handing its transactions only the repositories pick takes
// from its own: the wiring gives each use case a transactor of the set its
// steps declare. pick runs once per transaction, and only copies
// interface values.
func Narrow[F, S any](t TransactorOf[F], pick func(F) S) TransactorOf[S] {
	return narrowed[F, S]{t, pick}
}

type narrowed[F, S any] struct {
	t    TransactorOf[F]
	pick func(F) S
}

func (n narrowed[F, S]) WithinTx(ctx context.Context, fn func(ctx context.Context, s S) error) error {
	return n.t.WithinTx(ctx, func(ctx context.Context, f F) error { return fn(ctx, n.pick(f)) })
}

// Books are the repositories a ledger posting writes (Post): the entry,
// and the balance.low event it may raise.
type Books struct {
	Ledger   ledger.Repository
	Webhooks webhook.Repository
}

// Books are s's ledger and outbox.
func (s Stores) Books() Books { return Books{Ledger: s.Ledger, Webhooks: s.Webhooks} }
