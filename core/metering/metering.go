package metering

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/platform/store"
)

// Config is what metering needs of the service's configuration; zero
// values take the defaults New documents.
type Config struct {
	Location *time.Location // day and month boundaries (TIMEZONE); nil is UTC
	// Livemode says whether this instance's money is real (its payment
	// provider is live): the livemode of the balance.low events it writes.
	Livemode        bool
	UpstreamTimeout time.Duration // per provider call; 0 means 15 s
	MaxPayloadBytes int           // hit log payloads larger than this are summarised; 0 means 60,000
	// PendingHitGrace is how long a hit may stay pending before crash
	// recovery refunds it: longer than any call can last. 0 means
	// UpstreamTimeout + DefaultRecoveryMargin.
	PendingHitGrace time.Duration
	// LookupTTL bounds how stale a cached key, service, docs, price or
	// user may be when another instance changed it (this instance's own
	// changes apply at once); 0 means DefaultLookupTTL, negative disables
	// the cache; at most 2 s.
	LookupTTL time.Duration
	// BatchSize is the most calls one metering transaction carries; 0
	// means DefaultBatchSize.
	BatchSize int
	// SettleLinger is how long the settlement and capture writers gather
	// work before they write it; 0 means DefaultSettleLinger, negative
	// writes as soon as one is queued.
	SettleLinger time.Duration
	// SettleRetryWindow is how long a write queued after the answer is
	// retried while the database refuses it; 0 means
	// DefaultSettleRetryWindow.
	SettleRetryWindow time.Duration
	// HoldLifetime is how long a hold serves calls; 0 means
	// DefaultHoldLifetime, negative runs every call the per-call way.
	HoldLifetime time.Duration
}

// Metrics receives metering's measurements; calls sit on the hot path, so
// implementations must be cheap and must not block.
type Metrics interface {
	// UpstreamDone records one provider call of service (its slug) that took
	// d; ok is a usable answer.
	UpstreamDone(service string, d time.Duration, ok bool)
	// ReservationStarted counts a call whose charge was set aside;
	// ReservationSettled, once per such call, when its settlement or refund
	// has been attempted. Their difference is the calls in flight.
	ReservationStarted()
	ReservationSettled()
	// CallMetered counts a call of service (its slug) past authentication:
	// outcome "charged" with the amount charged, or the error code it was
	// answered with and zero.
	CallMetered(service, outcome string, charged decimal.Decimal)
}

// Deps are the ports metering runs on. Now, Log and Metrics may be nil.
type Deps struct {
	Tx       store.Transactor // a BatchTransactor (and ApartSettler) too when the store has a batch path
	Stores   store.Stores
	Upstream Upstream
	Now      func() time.Time
	Config   Config
	Log      *slog.Logger
	Metrics  Metrics
}

// Metering is the metering use case and its writers.
type Metering struct {
	tx      store.Transactor // invalidates the lookups on writes (invalidate.go)
	st      store.Stores     // the invalidating stores the other use cases get (Invalidating)
	reads   reads            // its own calls outside a transaction (ports.go)
	w       *writer          // the one way a call's money moves (writer.go)
	up      Upstream
	now     func() time.Time
	cfg     Config
	log     *slog.Logger
	metrics Metrics
	bg      sync.WaitGroup // hold fetches under way
	bgMu    sync.Mutex     // guards bgDone, and bg.Add against Wait's bg.Wait
	bgDone  bool           // Wait began: no more background work starts
	cache   *lookups       // the metering path's reads (prepare.go)
	holds   holdRegistry   // this instance's holds (holds.go)
	usage   keyUsage       // the keys' daily counters as this instance knows them (quota.go)
}

// New builds metering from its ports.
func New(d Deps) *Metering {
	cfg := d.Config
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Metrics == nil {
		d.Metrics = NopMetrics{}
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.UpstreamTimeout == 0 {
		cfg.UpstreamTimeout = 15 * time.Second
	}
	if cfg.MaxPayloadBytes == 0 {
		cfg.MaxPayloadBytes = 60_000
	}
	if cfg.PendingHitGrace == 0 {
		cfg.PendingHitGrace = cfg.UpstreamTimeout + DefaultRecoveryMargin
	}
	if cfg.LookupTTL == 0 {
		cfg.LookupTTL = DefaultLookupTTL
	}
	cfg.LookupTTL = min(cfg.LookupTTL, 2*time.Second)
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
	cache := newLookups(cfg.LookupTTL, d.Now)
	var batches BatchTransactor = plainBatches{d.Tx}
	if b, ok := d.Tx.(BatchTransactor); ok {
		batches = b
	}
	apart := false
	if s, ok := d.Tx.(ApartSettler); ok {
		apart = s.SettlesApart()
	}
	linger := max(cfg.SettleLinger, 0)
	a := &Metering{
		tx: flushingTx{d.Tx, cache}, st: invalidating(d.Stores, cache.flush),
		up: d.Upstream, now: d.Now, cfg: cfg, log: d.Log, metrics: d.Metrics, cache: cache,
	}
	a.reads = readsOf(a.st)
	a.w = &writer{
		tx: store.Narrow(a.tx, TxStoresOf), batches: batches, hits: a.reads.Hits, now: d.Now, log: d.Log, metrics: d.Metrics,
		live: cfg.Livemode, retryWindow: min(cfg.SettleRetryWindow, cfg.PendingHitGrace/2),
		failed: a.databaseFailed, captured: a.callDone, apart: apart,
		batch:    batcher{size: cfg.BatchSize},
		settled:  batcher{size: cfg.BatchSize, linger: linger, wake: make(chan struct{}, 1)},
		captures: batcher{size: cfg.BatchSize, linger: linger, wake: make(chan struct{}, 1)},
	}
	return a
}

// Invalidating returns the transactor and stores the other use cases write
// through (the wiring narrows the transactor to each one's TxStores): a write to a key, a service, a price or a user empties this
// instance's lookups, so its next call reads the change.
func (a *Metering) Invalidating() (store.Transactor, store.Stores) { return a.tx, a.st }

// Wait blocks until the work started after an answer is done: settlements
// and hold calls' charges (retried while the database is away, for at most
// Config.SettleRetryWindow), then the release of this instance's holds,
// and the writers' queues drained. The server calls it on shutdown, after
// the HTTP server stopped and before closing the database.
func (a *Metering) Wait() {
	a.w.Wait()
	a.releaseHolds()
	a.bgMu.Lock()
	a.bgDone = true // a hold's lifetime timer firing now starts nothing: recovery releases it
	a.bgMu.Unlock()
	a.bg.Wait()
	a.w.Drain()
}

// AwaitSettlements waits until the successful settlements and hold calls'
// charges this instance queued before the call have been written (first
// attempt), so a read that follows a call's answer on the same instance
// sees it charged.
func (a *Metering) AwaitSettlements(ctx context.Context) error { return a.w.Fence(ctx) }

// day is the local calendar day of t ("2006-01-02"), month its month ("2006-01").
func (a *Metering) day(t time.Time) string   { return t.In(a.cfg.Location).Format("2006-01-02") }
func (a *Metering) month(t time.Time) string { return t.In(a.cfg.Location).Format("2006-01") }

// NopMetrics discards every measurement (the default of Deps.Metrics).
type NopMetrics struct{}

func (NopMetrics) UpstreamDone(string, time.Duration, bool)    {}
func (NopMetrics) ReservationStarted()                         {}
func (NopMetrics) ReservationSettled()                         {}
func (NopMetrics) CallMetered(string, string, decimal.Decimal) {}
