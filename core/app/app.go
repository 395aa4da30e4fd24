// Package app wires the use cases from the ports: metering, the gateway,
// the panel, the outbox and the ledger check. It holds no business rule;
// cmd/ builds the adapters and hands them to New.
package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway"
	"paygate/core/ledgercheck"
	"paygate/core/metering"
	"paygate/core/outbox"
	"paygate/core/panel"
	"paygate/core/payment"
	"paygate/core/recharge"
	"paygate/core/store"
	"paygate/core/verification"
	"paygate/core/webhook"
)

// Config is the service's configuration as the use cases need it; New
// hands each package its part, and each package defaults its zero values.
type Config struct {
	Location        *time.Location  // day and month boundaries (TIMEZONE)
	UpstreamTimeout time.Duration   // per provider call
	RefreshTTL      time.Duration   // panel refresh tokens
	MaxPayloadBytes int             // hit log payloads larger than this are summarised
	PasswordCost    int             // bcrypt cost; 0 means user.DefaultPasswordCost
	MaxTopUp        decimal.Decimal // largest balance request (BALANCE_REQUEST_MAX); 0 means topup.DefaultMaxAmount
	PublicBaseURL   string          // base of payment_url and of links in mail (PUBLIC_BASE_URL)
	// RollupGrace is how long after a local day ends the dashboard waits
	// before rolling it up (hits started just before midnight settle after
	// it); 0 means 15 minutes.
	RollupGrace time.Duration
	// RechargeRoundBudget bounds one recharge worker round: it claims no
	// new row after it (a slow provider costs up to UpstreamTimeout per
	// row); 0 means 1 minute.
	RechargeRoundBudget time.Duration
	// PendingHitGrace is how long a hit may stay pending before crash
	// recovery refunds it: longer than any call can last. 0 means
	// UpstreamTimeout + DefaultRecoveryMargin.
	PendingHitGrace time.Duration
	// LookupTTL bounds how stale a cached key, service, docs, price or
	// user status may be when another instance changed it (this instance's
	// own changes apply at once); 0 means DefaultLookupTTL, negative
	// disables the cache. At most 2 s.
	LookupTTL time.Duration
	// BatchSize is the most service calls one metering transaction
	// carries (group commit); 0 means DefaultBatchSize.
	BatchSize int
	// SettleApart gives successful settlements a writer of their own,
	// outside any transaction (hitlog SucceedMany: one conditional UPDATE
	// per batch, its own commit), overlapping the reservation batches. For
	// databases that run writers in parallel (MySQL); SQLite has one writer
	// at a time, so there everything stays in one queue.
	SettleApart bool
	// SettleLinger is how long the SettleApart writer gathers successful
	// settlements before it writes them (they are written after the
	// answer, so no caller waits; a read that must see them, a fence,
	// ends the wait at once): fewer, larger statements and commits. 0
	// means DefaultSettleLinger; negative writes as soon as one is queued.
	SettleLinger time.Duration
	// SettleRetryWindow is how long a successful call's settlement, written
	// after the answer, is retried while the database refuses it; 0 means
	// DefaultSettleRetryWindow. A hit still pending then is refunded by
	// crash recovery after PendingHitGrace.
	SettleRetryWindow time.Duration
	// HoldLifetime is how long a hold of metered calls serves calls
	// (holds.go); 0 means DefaultHoldLifetime, negative runs every call the
	// per-call way (a reservation before the upstream call).
	HoldLifetime time.Duration
	// WebhookTimeout, WebhookLease and WebhookConcurrency bound the
	// delivery worker (outbox.Config: Timeout, Lease, Concurrency).
	WebhookTimeout     time.Duration
	WebhookLease       time.Duration
	WebhookConcurrency int
}

// Metrics receives every use case's operational measurements; an adapter
// exports them (adapters/metrics).
type Metrics interface {
	metering.Metrics
	outbox.Metrics
}

// Deps are the ports the use cases run on. Now, Log and Metrics may be nil.
type Deps struct {
	Tx       store.Transactor // a metering.BatchTransactor too when the store has a batch path
	Stores   store.Stores
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
	Payments  payment.Provider

	// Webhooks posts signed events (adapters/webhook); nil sends nothing.
	// Targets refuses internal webhook and callback addresses; nil allows any.
	Webhooks webhook.Sender
	Targets  webhook.TargetPolicy
}

// App is the set of use cases.
type App struct {
	Metering *metering.Metering   // metered calls and the billing of gateway operations
	Gateway  *gateway.Gateway     // payments, checkout, verification, recharges
	Panel    *panel.Panel         // the web panel's use cases
	Outbox   *outbox.Outbox       // event deliveries and their worker
	Ledger   *ledgercheck.Checker // the ledger check
}

// New wires the use cases. The others write through metering's
// invalidating transactor and stores (a change to a key, a service, a
// price or a user is seen by this instance's next call), and read behind
// its settlements' fence (this instance's calls are charged first).
func New(d Deps) *App {
	cfg := d.Config
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	var metrics Metrics = nopMetrics{}
	if d.Metrics != nil {
		metrics = d.Metrics
	}
	m := metering.New(metering.Deps{Tx: d.Tx, Stores: d.Stores, Upstream: d.Upstream, Now: d.Now, Log: d.Log, Metrics: metrics,
		Config: metering.Config{Location: cfg.Location, UpstreamTimeout: cfg.UpstreamTimeout, MaxPayloadBytes: cfg.MaxPayloadBytes,
			PendingHitGrace: cfg.PendingHitGrace, LookupTTL: cfg.LookupTTL, BatchSize: cfg.BatchSize, SettleApart: cfg.SettleApart,
			SettleLinger: cfg.SettleLinger, SettleRetryWindow: cfg.SettleRetryWindow, HoldLifetime: cfg.HoldLifetime}})
	tx, st := m.Invalidating()
	return &App{
		Metering: m,
		Gateway: gateway.New(gateway.Deps{Tx: tx, Stores: st, Meter: m, Now: d.Now, Log: d.Log,
			Config:   gateway.Config{UpstreamTimeout: cfg.UpstreamTimeout, PublicBaseURL: cfg.PublicBaseURL, RechargeRoundBudget: cfg.RechargeRoundBudget},
			Verifier: d.Verifier, Recharger: d.Recharger, Payments: d.Payments, Targets: d.Targets}),
		Panel: panel.New(panel.Deps{Tx: tx, Stores: st, Tokens: d.Tokens, Files: d.Files, Now: d.Now,
			Config: panel.Config{Location: cfg.Location, RefreshTTL: cfg.RefreshTTL, PasswordCost: cfg.PasswordCost,
				MaxTopUp: cfg.MaxTopUp, PublicBaseURL: cfg.PublicBaseURL, RollupGrace: cfg.RollupGrace},
			Mailer: d.Mailer, EmailTokens: d.EmailTokens, Log: d.Log, Targets: d.Targets, Settled: m.AwaitSettlements}),
		Outbox: outbox.New(outbox.Deps{Tx: tx, Stores: st, Sender: d.Webhooks, Targets: d.Targets,
			Settled: m.AwaitSettlements, Metrics: metrics, Log: d.Log, Now: d.Now,
			Config: outbox.Config{Timeout: cfg.WebhookTimeout, Lease: cfg.WebhookLease, Concurrency: cfg.WebhookConcurrency}}),
		Ledger: ledgercheck.New(ledgercheck.Deps{Stores: st, Settled: m.AwaitSettlements}),
	}
}

// Wait blocks until the work started after an answer is done (metered
// calls' settlements and charges, the release of this instance's holds,
// mail); the server calls it on shutdown, after the HTTP server stopped
// and before closing the database.
func (a *App) Wait() {
	a.Metering.Wait()
	a.Panel.Wait()
}

// EnsureGatewayServices creates the missing built-in gateway services.
func (a *App) EnsureGatewayServices(ctx context.Context) (int, error) {
	return a.Panel.SeedServices(ctx, gateway.Services())
}

type nopMetrics struct{ metering.NopMetrics }

func (nopMetrics) OutboxBacklog(int64) {}
