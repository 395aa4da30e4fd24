package history

import (
	"context"
	"log/slog"
	"time"

	"paygate/core/platform/export"
	"paygate/core/platform/store"
)

// Config is what history and the dashboard need from the service's
// configuration.
type Config struct {
	Location *time.Location // day and month boundaries (TIMEZONE); nil means UTC
	// RollupGrace is how long after a local day ends the dashboard waits
	// before rolling it up (hits started just before midnight settle after
	// it); 0 means 15 minutes.
	RollupGrace time.Duration
	// PayloadRetention is how long hit payloads are shown
	// (HIT_PAYLOAD_RETENTION): an older hit's are not, even while its store
	// still holds them (MySQL removes a month at once). 0: all are shown.
	PayloadRetention time.Duration
	// ExportLease is how long an export's slot lease lasts without renewal;
	// a running export renews it every sixth of it. 0 means export.LeaseTTL.
	ExportLease time.Duration
}

// Deps are the ports and configuration of history and the dashboard. Now
// may be nil (time.Now).
type Deps struct {
	Tx     store.TransactorOf[TxStores]
	Stores Stores
	Now    func() time.Time
	Config Config
	Log    *slog.Logger // export leases; nil discards
	// Settled returns once the charges of metered calls this instance has
	// answered are written, so balances, the ledger and the hit log read
	// after it show them; nil: nothing to wait for.
	Settled func(ctx context.Context) error
}

// History is the use cases of history lists, exports, names beside ids and
// the dashboard.
type History struct {
	tx      store.TransactorOf[TxStores]
	st      Stores
	now     func() time.Time
	cfg     Config
	log     *slog.Logger
	settled func(ctx context.Context) error
}

// New wires history and the dashboard.
func New(d Deps) *History {
	cfg := d.Config
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Settled == nil {
		d.Settled = func(context.Context) error { return nil }
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.ExportLease <= 0 {
		cfg.ExportLease = export.LeaseTTL
	}
	if cfg.RollupGrace == 0 {
		cfg.RollupGrace = 15 * time.Minute
	}
	return &History{tx: d.Tx, st: d.Stores, now: d.Now, cfg: cfg, log: d.Log, settled: d.Settled}
}
