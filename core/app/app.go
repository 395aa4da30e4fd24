package app

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway"
	"paygate/core/ledgercheck"
	"paygate/core/metering"
	"paygate/core/outbox"
	"paygate/core/payment"
	"paygate/core/recharge"
	"paygate/core/store"
	"paygate/core/topup"
	"paygate/core/user"
	"paygate/core/verification"
	"paygate/core/webhook"
)

// Config is what the use cases need from the service's configuration.
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
	// disables the cache. At most 2 s (decisions part 11).
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

// App is the set of use cases, wired from the ports.
type App struct {
	Metering *metering.Metering
	Gateway  *gateway.Gateway
	Outbox   *outbox.Outbox       // event deliveries and their worker
	Ledger   *ledgercheck.Checker // the ledger check

	tx     store.Transactor // writes empty the metering lookups (metering.Invalidating)
	st     store.Stores
	up     Upstream
	tokens AccessTokens
	files  Files
	now    func() time.Time
	cfg    Config
	pw     *user.Passwords
	mailer Mailer
	email  EmailTokens
	log    *slog.Logger
	bg     sync.WaitGroup // mail sent after the answer

	targets webhook.TargetPolicy // SSRF rules of webhook and callback URLs; nil allows any

	metrics Metrics // operational measurements (metrics.go)
}

// Deps are the ports and configuration the use cases run on. Now may be nil
// (time.Now).
type Deps struct {
	Tx       Transactor
	Stores   Stores
	Upstream Upstream
	Tokens   AccessTokens
	Files    Files // uploads; nil refuses screenshots (operator commands need none)
	Now      func() time.Time
	Config   Config
	// Mailer sends account mail (verification, password reset); nil drops
	// it with a log line. EmailTokens signs verification links.
	Mailer      Mailer
	EmailTokens EmailTokens
	Log         *slog.Logger // background work (mail); nil discards
	Metrics     Metrics      // operational measurements; nil is NopMetrics

	// Gateway providers (sandbox adapters by default, wired in cmd/).
	Verifier  verification.Provider
	Recharger recharge.Provider
	Payments  payment.Provider

	// Webhooks posts signed events (adapters/webhook); nil sends nothing.
	// Targets refuses internal webhook and callback addresses; nil allows any.
	Webhooks webhook.Sender
	Targets  webhook.TargetPolicy
}

// New wires the use cases.
func New(d Deps) *App {
	cfg := d.Config
	if d.Now == nil {
		d.Now = time.Now
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.UpstreamTimeout == 0 {
		cfg.UpstreamTimeout = 15 * time.Second
	}
	if cfg.RefreshTTL == 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	if cfg.RollupGrace == 0 {
		cfg.RollupGrace = 15 * time.Minute
	}
	if cfg.RechargeRoundBudget == 0 {
		cfg.RechargeRoundBudget = time.Minute
	}
	if cfg.MaxPayloadBytes == 0 {
		cfg.MaxPayloadBytes = 60_000
	}
	if !cfg.MaxTopUp.IsPositive() {
		cfg.MaxTopUp = topup.DefaultMaxAmount
	}
	if cfg.PublicBaseURL == "" {
		cfg.PublicBaseURL = "http://localhost:8080"
	}
	cfg.PublicBaseURL = strings.TrimRight(cfg.PublicBaseURL, "/")
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Metrics == nil {
		d.Metrics = NopMetrics{}
	}
	m := metering.New(metering.Deps{Tx: d.Tx, Stores: d.Stores, Upstream: d.Upstream, Now: d.Now, Log: d.Log, Metrics: d.Metrics,
		Config: metering.Config{Location: cfg.Location, UpstreamTimeout: cfg.UpstreamTimeout, MaxPayloadBytes: cfg.MaxPayloadBytes,
			PendingHitGrace: cfg.PendingHitGrace, LookupTTL: cfg.LookupTTL, BatchSize: cfg.BatchSize, SettleApart: cfg.SettleApart,
			SettleLinger: cfg.SettleLinger, SettleRetryWindow: cfg.SettleRetryWindow, HoldLifetime: cfg.HoldLifetime}})
	tx, st := m.Invalidating()
	g := gateway.New(gateway.Deps{Tx: tx, Stores: st, Meter: m, Now: d.Now, Log: d.Log,
		Config:   gateway.Config{UpstreamTimeout: cfg.UpstreamTimeout, PublicBaseURL: cfg.PublicBaseURL, RechargeRoundBudget: cfg.RechargeRoundBudget},
		Verifier: d.Verifier, Recharger: d.Recharger, Payments: d.Payments, Targets: d.Targets})
	return &App{
		Metering: m, Gateway: g,
		Outbox: outbox.New(outbox.Deps{Tx: tx, Stores: st, Sender: d.Webhooks, Targets: d.Targets,
			Settled: m.AwaitSettlements, Metrics: d.Metrics, Log: d.Log, Now: d.Now,
			Config: outbox.Config{Timeout: cfg.WebhookTimeout, Lease: cfg.WebhookLease, Concurrency: cfg.WebhookConcurrency}}),
		Ledger: ledgercheck.New(ledgercheck.Deps{Stores: st, Settled: m.AwaitSettlements}),
		tx:     tx, st: st, up: d.Upstream, tokens: d.Tokens, files: d.Files, now: d.Now, cfg: cfg, pw: user.NewPasswords(cfg.PasswordCost),
		mailer: d.Mailer, email: d.EmailTokens, log: d.Log, metrics: d.Metrics, targets: d.Targets,
	}
}

// Wait blocks until the work started after an answer is done (mail,
// metered calls' settlements and charges, the release of this instance's
// holds); the server calls it on shutdown, after the HTTP server stopped
// and before closing the database.
func (a *App) Wait() {
	a.Metering.Wait()
	a.bg.Wait()
}

// awaitSettlements lets a read see this instance's metered calls charged.
func (a *App) awaitSettlements(ctx context.Context) error { return a.Metering.AwaitSettlements(ctx) }

// EnsureGatewayServices creates the missing built-in gateway services.
func (a *App) EnsureGatewayServices(ctx context.Context) (int, error) {
	return a.SeedServices(ctx, gateway.Services())
}

// day is the local calendar day of t ("2006-01-02").
func (a *App) day(t time.Time) string { return t.In(a.cfg.Location).Format("2006-01-02") }
