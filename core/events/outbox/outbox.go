package outbox

import (
	"context"
	"log/slog"
	"time"

	"paygate/core/events/webhook"
	"paygate/core/platform/store"
)

// Defaults of Config.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultLease       = leasePerTimeout * DefaultTimeout
	leasePerTimeout    = 6 // the lease when Config.Lease is 0, in timeouts
	defaultConcurrency = 8
)

// Config bounds the delivery worker.
type Config struct {
	// Timeout bounds one delivery attempt (a 2xx within it is delivered);
	// 0 means DefaultTimeout.
	Timeout time.Duration
	// Lease is how long a worker's claim on a delivery lasts: after it (a
	// crashed worker) any worker may try it again; at least twice Timeout.
	// 0 means six times Timeout (DefaultLease with the default timeout).
	Lease time.Duration
	// Concurrency is how many delivery attempts one instance runs at once;
	// a quarter of them are kept for first attempts (retries never take
	// them). 0 means 8.
	Concurrency int
}

// Metrics receives the outbox's measurements (adapters/metrics).
type Metrics interface {
	// OutboxBacklog reports the deliveries not yet delivered nor failed.
	OutboxBacklog(n int64)
	// WebhookSettled counts a delivery that reached its final state:
	// outcome "delivered" or "failed" (its attempts ran out).
	WebhookSettled(outcome string)
}

// Deps are what the outbox runs on. Only Tx and Stores are required.
type Deps struct {
	Tx     store.TransactorOf[TxStores]
	Stores Stores
	// Sender posts signed events (adapters/webhook); nil sends nothing.
	Sender webhook.Sender
	// Targets refuses internal addresses; nil allows any.
	Targets webhook.TargetPolicy
	// Settled waits until the writes queued after earlier answers (a
	// metered call's charge with its balance.low) have been made; nil:
	// nothing to wait for.
	Settled func(ctx context.Context) error
	Metrics Metrics          // nil discards
	Log     *slog.Logger     // the worker's failures; nil discards
	Now     func() time.Time // nil is time.Now
	Config  Config
}

// Outbox is the delivery worker and the operations on deliveries.
type Outbox struct {
	tx      store.TransactorOf[TxStores]
	st      Stores
	sender  webhook.Sender
	targets webhook.TargetPolicy
	settled func(ctx context.Context) error
	metrics Metrics
	log     *slog.Logger
	now     func() time.Time
	cfg     Config
	slots   slots // the attempts under way (worker.go)
}

// New builds the outbox, filling Config's defaults.
func New(d Deps) *Outbox {
	cfg := d.Config
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Lease <= 0 {
		cfg.Lease = leasePerTimeout * cfg.Timeout
	}
	cfg.Lease = max(cfg.Lease, 2*cfg.Timeout)
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = defaultConcurrency
	}
	if d.Settled == nil {
		d.Settled = func(context.Context) error { return nil }
	}
	if d.Metrics == nil {
		d.Metrics = nopMetrics{}
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Outbox{tx: d.Tx, st: d.Stores, sender: d.Sender, targets: d.Targets, settled: d.Settled,
		metrics: d.Metrics, log: d.Log, now: d.Now, cfg: cfg}
}

type nopMetrics struct{}

func (nopMetrics) OutboxBacklog(int64)   {}
func (nopMetrics) WebhookSettled(string) {}
