// Package retention removes the request and response payloads of hits
// older than the configured retention (HIT_PAYLOAD_RETENTION), in bounded
// batches with a pause between them, so it never holds up metered calls.
// The hit rows and the ledger stay. Every instance runs it; concurrent
// rounds are harmless (hitlog.Repository.ClearPayloads).
package retention

import (
	"context"
	"time"
)

// DefaultKeep is how long payloads are kept when HIT_PAYLOAD_RETENTION is unset.
const DefaultKeep = 90 * 24 * time.Hour

// MinKeep is the shortest retention accepted: a hit is always much older
// than a call in flight when its payloads go.
const MinKeep = time.Hour

// Metrics receives the retention's measurements (adapters/metrics).
type Metrics interface {
	// HitPayloadRetention reports the configured retention, once.
	HitPayloadRetention(keep time.Duration)
	// HitPayloadsRemoved counts hits whose payloads were removed.
	HitPayloadsRemoved(n int)
}

// Config bounds the work of a round; zero fields take the defaults.
type Config struct {
	Keep       time.Duration // payloads older than this are removed (DefaultKeep)
	Batch      int           // hits looked at per statement (1,000)
	Pause      time.Duration // between batches (100 ms)
	MaxBatches int           // per round (600: about a minute of work at most)
}

// Payloads removes old hits' payloads (hitlog.Repository's ClearPayloads).
type Payloads interface {
	ClearPayloads(ctx context.Context, before time.Time, limit int) (removed int, more bool, err error)
}

// Deps are the retention's ports. Now, Metrics and Sleep may be nil.
type Deps struct {
	Hits    Payloads
	Now     func() time.Time
	Metrics Metrics
	// Sleep waits d or until ctx ends (tests make it instant).
	Sleep  func(ctx context.Context, d time.Duration) error
	Config Config
}

// Retention is the payload retention worker's round.
type Retention struct {
	d Deps
}

// New applies the defaults and reports the retention to Metrics.
func New(d Deps) *Retention {
	if d.Config.Keep <= 0 {
		d.Config.Keep = DefaultKeep
	}
	if d.Config.Batch <= 0 {
		d.Config.Batch = 1000
	}
	if d.Config.Pause <= 0 {
		d.Config.Pause = 100 * time.Millisecond
	}
	if d.Config.MaxBatches <= 0 {
		d.Config.MaxBatches = 600
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Sleep == nil {
		d.Sleep = sleep
	}
	if d.Metrics == nil {
		d.Metrics = nopMetrics{}
	}
	d.Metrics.HitPayloadRetention(d.Config.Keep)
	return &Retention{d: d}
}

// Keep is how long payloads are kept (for the panel).
func (r *Retention) Keep() time.Duration { return r.d.Config.Keep }

// Round removes the payloads of hits created before now − Keep, batch
// after batch with a pause between them, until none is left or
// MaxBatches ran; it returns how many hits it cleared.
func (r *Retention) Round(ctx context.Context) (int, error) {
	cutoff := r.d.Now().Add(-r.d.Config.Keep)
	total := 0
	for i := range r.d.Config.MaxBatches {
		if i > 0 {
			if err := r.d.Sleep(ctx, r.d.Config.Pause); err != nil {
				return total, err
			}
		}
		n, more, err := r.d.Hits.ClearPayloads(ctx, cutoff, r.d.Config.Batch)
		total += n
		if n > 0 {
			r.d.Metrics.HitPayloadsRemoved(n)
		}
		if err != nil || !more {
			return total, err
		}
	}
	return total, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type nopMetrics struct{}

func (nopMetrics) HitPayloadRetention(time.Duration) {}
func (nopMetrics) HitPayloadsRemoved(int)            {}
