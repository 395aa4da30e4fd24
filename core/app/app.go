// Package app wires the use cases from the ports: metering, the gateway,
// the panel, the outbox and the ledger check. It holds no business rule;
// cmd/ builds the adapters and hands them to New.
//
// It is the top of the core: it wires every area's use cases from the
// ports.
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts"
	"paygate/core/accounts/auditlog"
	"paygate/core/accounts/keys"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/billing"
	"paygate/core/billing/invoice"
	"paygate/core/billing/issuing"
	"paygate/core/billing/parties"
	"paygate/core/catalog/catalogadmin"
	"paygate/core/events/outbox"
	"paygate/core/events/webhook"
	"paygate/core/gateway"
	"paygate/core/gateway/accountopen"
	"paygate/core/gateway/beneficiary"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/metering"
	"paygate/core/metering/history"
	"paygate/core/metering/report"
	"paygate/core/metering/retention"
	"paygate/core/money"
	"paygate/core/money/ledger/check"
	"paygate/core/money/reconciliation"
	"paygate/core/platform/directory"
	"paygate/core/platform/export"
	"paygate/core/platform/store"
	"paygate/core/resale"
	"paygate/core/resale/brand"
	"paygate/core/resale/commission"
	"paygate/core/resale/customers"
	"paygate/core/resale/storefront"
)

// Config is the service's configuration as the use cases need it. New
// hands each package its part; each field is documented, with its
// default, in that package's Config.
type Config struct {
	// metering, gateway and panel
	Location        *time.Location // TIMEZONE: day and month boundaries
	UpstreamTimeout time.Duration  // per provider call
	PublicBaseURL   string         // PUBLIC_BASE_URL: payment_url and links in mail
	// PlatformName is the brand of the platform's own host (storefront.Config;
	// MAIL_FROM's display name).
	PlatformName string

	// metering.Config
	MaxPayloadBytes   int
	PendingHitGrace   time.Duration
	LookupTTL         time.Duration
	BatchSize         int
	SettleLinger      time.Duration
	SettleRetryWindow time.Duration
	HoldLifetime      time.Duration

	// gateway.Config
	RechargeRoundBudget time.Duration

	// issuing.Config: GSTRate is GST_RATE in percent (0: bills of supply)
	GSTRate decimal.Decimal
	// DefaultPlan is the plan of new accounts and of those whose grace
	// ended (DEFAULT_PLAN; "" means starter): billing and accounts.Config.
	DefaultPlan string

	// accounts.Config, money.Config (MaxTopUp), history.Config (RollupGrace, ExportLease)
	RefreshTTL   time.Duration
	PasswordCost int
	MaxTopUp     decimal.Decimal
	// CollectionFeePercent is the collection fee new accounts start with
	// (COLLECTION_FEE_PERCENT); also accounts.Config.
	CollectionFeePercent decimal.Decimal
	RollupGrace          time.Duration
	ExportLease          time.Duration

	// outbox.Config: Timeout, Lease, Concurrency
	WebhookTimeout     time.Duration
	WebhookLease       time.Duration
	WebhookConcurrency int

	// HitPayloadRetention: retention.Config.Keep (HIT_PAYLOAD_RETENTION)
	HitPayloadRetention time.Duration
}

// Metrics receives every use case's operational measurements; an adapter
// exports them (adapters/metrics).
type Metrics interface {
	metering.Metrics
	outbox.Metrics
	retention.Metrics
	gateway.Metrics
	billing.Metrics
	issuing.Metrics
}

// Deps are the ports the use cases run on. Now, Log and Metrics may be nil.
type Deps struct {
	Tx     store.Transactor // a metering.BatchTransactor too when the store has a batch path
	Stores store.Stores
	// Names reads the names beside a list's ids; Exports keeps the leases
	// of running exports (nil: exports are not limited). No transaction
	// needs either, so they are not in store.Stores.
	Names    directory.Repository
	Exports  export.Repository
	Upstream metering.Upstream
	Tokens   panel.AccessTokens
	Files    panel.Files // uploads; nil refuses screenshots (operator commands need none)
	Now      func() time.Time
	Config   Config
	// Mailer sends account mail (verification, password reset); nil drops
	// it with a log line. EmailTokens signs verification links.
	Mailer      panel.Mailer
	EmailTokens panel.EmailTokens
	Log         *slog.Logger
	Metrics     Metrics

	// Gateway providers (sandbox adapters by default, wired in cmd/).
	Verifier  verification.Provider
	Recharger recharge.Provider
	Payouts   payout.Provider
	Payments  payment.Provider
	// Opener opens accounts (digital account opening); nil answers 503.
	Opener accountopen.Provider

	// Webhooks posts signed events (adapters/webhook); nil sends nothing.
	// Targets refuses internal webhook and callback addresses; nil allows any.
	Webhooks webhook.Sender
	Targets  webhook.TargetPolicy

	// DomainProber checks resellers' brand domains (adapters/hostprobe);
	// nil answers a domain check with 503.
	DomainProber brand.Prober

	// Renderer draws invoices and statements as PDF (adapters/invoicepdf);
	// nil answers 503 for a PDF.
	Renderer invoice.Renderer

	// ResellerReports sums the resellers' dashboards; Verifications keeps
	// the account verifications' records; Beneficiaries the panel payouts'
	// saved payees. No transaction needs them, so they are not in
	// store.Stores.
	ResellerReports report.ResellerRepository
	Verifications   verification.Repository
	Beneficiaries   beneficiary.Repository
}

// App is the set of use cases.
type App struct {
	Metering *metering.Metering // metered calls and the billing of gateway operations
	Gateway  *gateway.Gateway   // payments, checkout, verification, recharges
	// The web panel's use cases.
	Accounts *accounts.Accounts    // accounts, sessions, users
	Keys     *keys.Keys            // API keys
	TopUps   *money.TopUps         // balance requests
	Catalog  *catalogadmin.Catalog // services, docs, pricing
	History  *history.History      // history lists, exports, names, dashboard
	AuditLog *auditlog.Log         // the audit log
	Outbox   *outbox.Outbox        // event deliveries and their worker
	Ledger   *check.Checker        // the ledger check
	// Reconciliation imports bank statements and matches their credit lines.
	Reconciliation *reconciliation.Reconciliation
	// Retention removes old hit payloads (its worker runs on every instance).
	Retention *retention.Retention
	// Billing charges the subscriptions' monthly fees (its worker runs on
	// every instance; `server billing run` runs one step).
	Billing *billing.Billing
	// TaxSettings keeps the invoices' supplier details and the accounts'
	// billing profiles.
	TaxSettings *parties.Settings
	// Invoicing issues the monthly tax invoices and credit notes (its
	// worker runs on every instance; `server invoices issue` too).
	Invoicing *issuing.Invoicing
	// Brands are resellers' brands: the panel's brand page, the brand a
	// host shows, and the branding of every mail (nil when Deps.Stores has no Brands).
	Brands *storefront.Brands

	// Customers are a reseller's use cases over its customers.
	Customers *customers.Customers
	// Commissions credits resellers' commissions per closed UTC hour (its
	// worker runs on every instance; `server commissions settle` too).
	Commissions *commission.Settler
	// Selling is a reseller's selling prices, markup and settlements.
	Selling *resale.Selling
}

// New wires the use cases. The others write through metering's
// invalidating transactor and stores (a change to a key, a service, a
// price or a user is seen by this instance's next call), the transactor
// narrowed to each one's TxStores (store.Narrow), and read behind
// its settlements' fence (this instance's calls are charged first).
func New(d Deps) *App {
	cfg := d.Config
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	// A store that keeps the hourly usage roll-up counts hits in the local
	// hours of the zone the reports read in.
	if z, ok := d.Tx.(interface{ SetZone(*time.Location) }); ok {
		z.SetZone(cfg.Location)
	}
	// Events of the platform's own books (balance_request.*, balance.low)
	// are live when the instance takes real money, as its payments say.
	live := d.Payments != nil && !d.Payments.Sandbox()
	m := metering.New(metering.Deps{Tx: d.Tx, Stores: d.Stores, Upstream: d.Upstream, Now: d.Now, Log: d.Log, Metrics: d.Metrics,
		Config: metering.Config{Location: cfg.Location, Livemode: live, UpstreamTimeout: cfg.UpstreamTimeout, MaxPayloadBytes: cfg.MaxPayloadBytes,
			PendingHitGrace: cfg.PendingHitGrace, LookupTTL: cfg.LookupTTL, BatchSize: cfg.BatchSize,
			SettleLinger: cfg.SettleLinger, SettleRetryWindow: cfg.SettleRetryWindow, HoldLifetime: cfg.HoldLifetime}})
	tx, st := m.Invalidating()
	var rm retention.Metrics
	if d.Metrics != nil {
		rm = d.Metrics
	}
	var gm gateway.Metrics
	var bm billing.Metrics
	var im issuing.Metrics
	if d.Metrics != nil {
		gm, bm, im = d.Metrics, d.Metrics, d.Metrics
	}
	// Every mail goes through the brands' mailer: a reseller's customer
	// gets mail under its reseller's brand (storefront.Brands.Mailer).
	var branding *storefront.Brands
	if d.Stores.Brands != nil {
		branding = storefront.New(storefront.Deps{Tx: store.Narrow(d.Tx, storefront.TxStoresOf), Store: d.Stores.Brands, Users: d.Stores.Users, Files: d.Files, Prober: d.DomainProber, Now: d.Now,
			Config: storefront.Config{PlatformName: cfg.PlatformName, PublicBaseURL: cfg.PublicBaseURL}})
		d.Mailer = branding.Mailer(d.Mailer)
	}
	kept := retention.New(retention.Deps{Hits: d.Stores.Hits, Now: d.Now, Metrics: rm,
		Config: retention.Config{Keep: cfg.HitPayloadRetention}})
	taxSettings := parties.New(parties.Deps{Tx: store.Narrow(tx, parties.TxStoresOf), Profiles: st.TaxProfiles, Users: st.Users, Brands: st.Brands,
		Now: d.Now})
	a := &App{
		Brands:    branding,
		Retention: kept,
		Metering:  m,
		Gateway: gateway.New(gateway.Deps{Tx: store.Narrow(tx, gateway.TxStoresOf), Stores: gateway.StoresOf(st, d.Verifications, d.Beneficiaries), Meter: m, Now: d.Now, Log: d.Log, Metrics: gm,
			Config: gateway.Config{UpstreamTimeout: cfg.UpstreamTimeout, PublicBaseURL: cfg.PublicBaseURL, RechargeRoundBudget: cfg.RechargeRoundBudget,
				MaxBalanceCheckout: cfg.MaxTopUp, Location: cfg.Location},
			Verifier: d.Verifier, Recharger: d.Recharger, Payments: d.Payments, Payouts: d.Payouts, Targets: d.Targets,
			Opener: d.Opener, TopUps: taxSettings}),
		Outbox: outbox.New(outbox.Deps{Tx: store.Narrow(tx, outbox.TxStoresOf), Stores: outbox.Stores{Webhooks: st.Webhooks, Users: st.Users}, Sender: d.Webhooks, Targets: d.Targets,
			Settled: m.AwaitSettlements, Metrics: d.Metrics, Log: d.Log, Now: d.Now,
			Config: outbox.Config{Timeout: cfg.WebhookTimeout, Lease: cfg.WebhookLease, Concurrency: cfg.WebhookConcurrency}}),
	}
	a.Ledger = check.New(check.Deps{Stores: check.StoresOf(st), Settled: m.AwaitSettlements, Now: d.Now, Location: cfg.Location})
	a.Accounts = accounts.New(accounts.Deps{Tx: store.Narrow(tx, accounts.TxStoresOf), Tokens: d.Tokens, Now: d.Now,
		Stores: accounts.Stores{Users: st.Users, Sessions: st.Sessions, Resets: st.Resets, Logins: st.Logins},
		Config: accounts.Config{RefreshTTL: cfg.RefreshTTL, PasswordCost: cfg.PasswordCost, PublicBaseURL: cfg.PublicBaseURL,
			CollectionFeePercent: cfg.CollectionFeePercent, Livemode: live, DefaultPlan: user.Plan(cfg.DefaultPlan)},
		Mailer: d.Mailer, EmailTokens: d.EmailTokens, Log: d.Log, Targets: d.Targets, Settled: m.AwaitSettlements})
	a.Keys = keys.New(store.Narrow(tx, keys.TxStoresOf), keys.Stores{Keys: st.Keys, Services: st.Services}, d.Now, cfg.Location)
	a.TopUps = money.New(money.Deps{Tx: store.Narrow(tx, money.TxStoresOf), Requests: st.TopUps, Users: st.Users, Files: d.Files, Now: d.Now,
		Config: money.Config{MaxTopUp: cfg.MaxTopUp, Livemode: live}})
	a.Catalog = catalogadmin.New(store.Narrow(tx, catalogadmin.TxStoresOf), catalogadmin.Stores{Services: st.Services, Pricing: st.Pricing, Users: st.Users, Selling: st.CustomerPrices}, d.Now)
	a.History = history.New(history.Deps{Tx: store.Narrow(tx, history.TxStoresOf), Now: d.Now, Log: d.Log, Settled: m.AwaitSettlements,
		Stores: history.Stores{Ledger: st.Ledger, Hits: st.Hits, Reports: st.Reports, Services: st.Services, Users: st.Users,
			Names: d.Names, Exports: d.Exports},
		Config: history.Config{Location: cfg.Location, RollupGrace: cfg.RollupGrace, PayloadRetention: kept.Keep(),
			ExportLease: cfg.ExportLease}})
	a.AuditLog = auditlog.New(st.Audit)
	a.Customers = customers.New(customers.Deps{Tx: store.Narrow(tx, customers.TxStoresOf), Mailer: d.Mailer, Now: d.Now, Log: d.Log,
		Stores: customers.Stores{Users: st.Users, Keys: st.Keys, Hits: st.Hits, Ledger: st.Ledger, Transfers: st.Transfers,
			Resets: st.Resets, Reports: d.ResellerReports, Names: d.Names},
		Config: customers.Config{PasswordCost: cfg.PasswordCost, PublicBaseURL: cfg.PublicBaseURL, DefaultPlan: user.Plan(cfg.DefaultPlan),
			Livemode: live}})
	a.Billing = billing.New(billing.Deps{Tx: store.Narrow(tx, billing.TxStoresOf), Stores: billing.Stores{Users: st.Users, Plans: st.Plans, Subscriptions: st.Subscriptions}, Now: d.Now, Log: d.Log, Metrics: bm, Notify: notifier(d.Mailer, d.Log),
		Config: billing.Config{Location: cfg.Location, Livemode: live, DefaultPlan: cfg.DefaultPlan}})
	a.TaxSettings = taxSettings
	a.Invoicing = issuing.New(issuing.Deps{Tx: store.Narrow(tx, issuing.TxStoresOf),
		Stores:  issuing.Stores{Invoices: st.Invoices, Users: st.Users, Ledger: st.Ledger, Profiles: st.TaxProfiles, Resellers: st.TaxProfiles},
		Parties: issuing.ProfileParties{}, Renderer: d.Renderer,
		Notify: issuing.Notify(notifier(d.Mailer, d.Log)), Settled: m.AwaitSettlements, Now: d.Now, Log: d.Log, Metrics: im,
		Config: issuing.Config{Location: cfg.Location, Rate: cfg.GSTRate, PublicBaseURL: cfg.PublicBaseURL, Livemode: live}})
	a.Reconciliation = reconciliation.New(reconciliation.Deps{Tx: store.Narrow(tx, reconciliation.TxStoresOf),
		Stores:   reconciliation.Stores{Statements: st.Statements, Payments: st.Payments, TopUps: st.TopUps},
		Payments: a.Gateway, TopUps: a.TopUps, Now: d.Now, Log: d.Log})
	a.Selling = resale.New(store.Narrow(tx, resale.TxStoresOf), resale.Stores{Services: st.Services, Pricing: st.Pricing, Selling: st.CustomerPrices, Commissions: st.Commissions}, d.Now)
	a.Commissions = commission.New(commission.Deps{Tx: store.Narrow(tx, commission.TxStoresOf), Reads: st.Commissions, Now: d.Now, Log: d.Log,
		Config: commission.Config{Location: cfg.Location, Livemode: live}})
	return a
}

// notifier is billing's mail through the panel's mailer (nil: none).
func notifier(m panel.Mailer, log *slog.Logger) billing.Notify {
	if m == nil {
		return nil
	}
	return func(ctx context.Context, to, subject, text string) {
		if err := m.Send(ctx, panel.Message{To: to, Subject: subject, Text: text}); err != nil && log != nil {
			log.Error("send mail", "to", to, "subject", subject, "err", err)
		}
	}
}

// Wait blocks until the work started after an answer is done (metered
// calls' settlements and charges, the release of this instance's holds,
// mail); the server calls it on shutdown, after the HTTP server stopped
// and before closing the database.
func (a *App) Wait() {
	a.Metering.Wait()
	a.Accounts.Wait()
	a.Customers.Wait()
}

// EnsureGatewayServices creates the missing built-in gateway services.
func (a *App) EnsureGatewayServices(ctx context.Context) (int, error) {
	return a.Catalog.SeedServices(ctx, gateway.Services())
}
