package metering

import "time"

// HoldBatches keeps the metering writers from starting, so calls queue up
// and the next batch of each holds them all, in order; release starts them.
func HoldBatches(a *Metering) (release func()) {
	for _, b := range []*batcher{&a.w.batch, &a.w.settled} {
		b.mu.Lock()
		b.running = true
		b.wg.Add(1)
		b.mu.Unlock()
	}
	return func() {
		go a.w.batch.run(a.w.writeBatch)
		go a.w.settled.run(a.w.writeSettled)
	}
}

// QueuedCalls is how many calls wait for the metering writers.
func QueuedCalls(a *Metering) int {
	n := 0
	for _, b := range []*batcher{&a.w.batch, &a.w.settled} {
		b.mu.Lock()
		n += len(b.queue)
		b.mu.Unlock()
	}
	return n
}

// LookupCache is the metering cache alone, for tests of its loads.
type LookupCache struct{ l *lookups }

func NewLookupCache(ttl time.Duration, now func() time.Time) LookupCache {
	return LookupCache{newLookups(ttl, now)}
}

func (c LookupCache) Get(slug string, load func() (any, error)) (any, error) {
	return c.l.get(lookupKey{kind: lookupService, s: slug}, load)
}

func (c LookupCache) Flush() { c.l.flush() }
