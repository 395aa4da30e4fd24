package app

import (
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/panel"
	"paygate/core/payment"
	"paygate/core/recharge"
	"paygate/core/verification"
	"paygate/core/webhook"
)

// Config is what the use cases need from the service's configuration.
type Config struct {
	Location        *time.Location  // day and month boundaries (TIMEZONE)
	UpstreamTimeout time.Duration   // per provider call
	RefreshTTL      time.Duration   // panel refresh tokens; 0 means 30 days
	MaxPayloadBytes int             // hit log payloads larger than this are summarised
	PasswordCost    int             // bcrypt cost; 0 means user.DefaultPasswordCost
	MaxTopUp        decimal.Decimal // largest balance request (BALANCE_REQUEST_MAX); 0 means topup.DefaultMaxAmount
	PublicBaseURL   string          // base of payment_url and of links in mail (PUBLIC_BASE_URL)
	RollupGrace     time.Duration   // how long after a local day ends the dashboard rolls it up; 0 means 15 minutes
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
	// WebhookTimeout bounds one delivery attempt (a 2xx within it is
	// delivered); 0 means DefaultWebhookTimeout.
	WebhookTimeout time.Duration
	// WebhookLease is how long a worker's claim on a delivery lasts: after
	// it (a crashed worker) any worker may try it again; at least twice
	// WebhookTimeout. 0 means six times WebhookTimeout (DefaultWebhookLease
	// with the default timeout).
	WebhookLease time.Duration
	// WebhookConcurrency is how many delivery attempts one instance runs at
	// once; a quarter of them are kept for first attempts (retries never
	// take them). 0 means DefaultWebhookConcurrency.
	WebhookConcurrency int
}

// App is the set of use cases. It holds ports only.
type App struct {
	// Panel holds the web panel's use cases (accounts, users, keys,
	// catalog, balance requests, history, dashboard, audit, bootstrap).
	Panel *panel.Panel

	tx        Transactor
	batchTx   BatchTransactor // the metering writer's transactions
	st        Stores
	up        Upstream
	now       func() time.Time
	cfg       Config
	log       *slog.Logger
	bg        sync.WaitGroup // holds released after the answer (holds.go)
	cache     *lookups       // the metering path's reads (cache.go)
	batch     batcher        // the metering path's writes (batch.go)
	settled   batcher        // successful settlements when Config.SettleApart (batch.go)
	captures  batcher        // hold calls' hits and charges (holds.go)
	holds     holdRegistry   // this instance's holds (holds.go)
	unsettled sync.WaitGroup // settlements queued by settleLater and not yet final (metering.go)

	verifier  verification.Provider
	recharger recharge.Provider
	payments  payment.Provider

	sender  webhook.Sender // event deliveries; nil: the worker sends nothing
	hooks   webhookSlots   // the delivery worker's attempts under way (webhooks.go)
	targets TargetPolicy   // SSRF rules of webhook and callback URLs; nil allows any

	metrics Metrics // operational measurements (metrics.go)
}

// Deps are the ports and configuration the use cases run on. Now may be nil
// (time.Now).
type Deps struct {
	Tx       Transactor
	Stores   Stores
	Upstream Upstream
	Tokens   panel.AccessTokens
	Files    panel.Files // uploads; nil refuses screenshots (operator commands need none)
	Now      func() time.Time
	Config   Config
	// Mailer sends account mail (verification, password reset); nil drops
	// it with a log line. EmailTokens signs verification links.
	Mailer      panel.Mailer
	EmailTokens panel.EmailTokens
	Log         *slog.Logger // background work (mail); nil discards
	Metrics     Metrics      // operational measurements; nil is NopMetrics

	// Gateway providers (sandbox adapters by default, wired in cmd/).
	Verifier  verification.Provider
	Recharger recharge.Provider
	Payments  payment.Provider

	// Webhooks posts signed events (adapters/webhook); nil sends nothing.
	// Targets refuses internal webhook and callback addresses; nil allows any.
	Webhooks webhook.Sender
	Targets  TargetPolicy
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
	if cfg.PendingHitGrace == 0 {
		cfg.PendingHitGrace = cfg.UpstreamTimeout + DefaultRecoveryMargin
	}
	if cfg.RechargeRoundBudget == 0 {
		cfg.RechargeRoundBudget = time.Minute
	}
	if cfg.LookupTTL == 0 {
		cfg.LookupTTL = DefaultLookupTTL
	}
	if cfg.LookupTTL > 2*time.Second {
		cfg.LookupTTL = 2 * time.Second
	}
	if cfg.SettleLinger == 0 {
		cfg.SettleLinger = DefaultSettleLinger
	}
	if cfg.HoldLifetime == 0 {
		cfg.HoldLifetime = DefaultHoldLifetime
	}
	if cfg.SettleRetryWindow <= 0 {
		cfg.SettleRetryWindow = DefaultSettleRetryWindow
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.WebhookTimeout <= 0 {
		cfg.WebhookTimeout = DefaultWebhookTimeout
	}
	if cfg.WebhookLease <= 0 {
		cfg.WebhookLease = webhookLeasePerTimeout * cfg.WebhookTimeout
	}
	cfg.WebhookLease = max(cfg.WebhookLease, 2*cfg.WebhookTimeout)
	if cfg.WebhookConcurrency <= 0 {
		cfg.WebhookConcurrency = DefaultWebhookConcurrency
	}
	if cfg.MaxPayloadBytes == 0 {
		cfg.MaxPayloadBytes = 60_000
	}
	if cfg.PublicBaseURL == "" {
		cfg.PublicBaseURL = "http://localhost:8080"
	}
	cfg.PublicBaseURL = strings.TrimRight(cfg.PublicBaseURL, "/")
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	cache := newLookups(cfg.LookupTTL, d.Now)
	if d.Metrics == nil {
		d.Metrics = NopMetrics{}
	}
	var batches BatchTransactor = plainBatches{d.Tx}
	if b, ok := d.Tx.(BatchTransactor); ok {
		batches = b
	}
	batchTx := flushingBatches{batches, cache}
	a := &App{
		batch: batcher{size: cfg.BatchSize}, settled: batcher{size: cfg.BatchSize, linger: max(cfg.SettleLinger, 0), wake: make(chan struct{}, 1)},
		captures: batcher{size: cfg.BatchSize, linger: max(cfg.SettleLinger, 0), wake: make(chan struct{}, 1)},
		cache:    cache, tx: flushingTx{d.Tx, cache}, batchTx: batchTx, st: invalidating(d.Stores, cache.flush), up: d.Upstream, now: d.Now, cfg: cfg,
		log: d.Log, verifier: d.Verifier, recharger: d.Recharger, payments: d.Payments,
		metrics: d.Metrics, sender: d.Webhooks, targets: d.Targets,
	}
	// The panel writes through the cache-flushing transactor and stores,
	// and reads balances and history behind the settlements' fence.
	a.Panel = panel.New(panel.Deps{
		Tx: a.tx, Stores: a.st, Tokens: d.Tokens, Files: d.Files, Now: d.Now,
		Config: panel.Config{Location: cfg.Location, RefreshTTL: cfg.RefreshTTL, PasswordCost: cfg.PasswordCost,
			MaxTopUp: cfg.MaxTopUp, PublicBaseURL: cfg.PublicBaseURL, RollupGrace: cfg.RollupGrace},
		Mailer: d.Mailer, EmailTokens: d.EmailTokens, Log: d.Log, Targets: d.Targets, Settled: a.awaitSettlements,
	})
	return a
}

// Wait blocks until the work started after an answer (mail, settlements of
// successful calls and hold calls' charges, retried while the database is
// away for at most Config.SettleRetryWindow; then the release of this
// instance's holds) is done and the metering writers have drained their
// queues; the server calls it on
// shutdown, after the HTTP server stopped and before closing the database.
func (a *App) Wait() {
	a.unsettled.Wait()
	a.releaseHolds()
	a.bg.Wait()
	a.Panel.Wait()
	a.batch.wg.Wait()
	a.settled.wg.Wait()
	a.captures.wg.Wait()
}

// day is the local calendar day of t ("2006-01-02"), month its month ("2006-01").
func (a *App) day(t time.Time) string   { return t.In(a.cfg.Location).Format("2006-01-02") }
func (a *App) month(t time.Time) string { return t.In(a.cfg.Location).Format("2006-01") }
