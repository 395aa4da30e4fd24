package app

// HoldBatches keeps the metering writers from starting, so calls queue up
// and the next batch of each holds them all, in order; release starts them.
func HoldBatches(a *App) (release func()) {
	for _, b := range []*batcher{&a.batch, &a.settled} {
		b.mu.Lock()
		b.running = true
		b.wg.Add(1)
		b.mu.Unlock()
	}
	return func() {
		go a.batch.run(a.writeBatch)
		go a.settled.run(a.writeSettled)
	}
}

// QueuedCalls is how many calls wait for the metering writers.
func QueuedCalls(a *App) int {
	n := 0
	for _, b := range []*batcher{&a.batch, &a.settled} {
		b.mu.Lock()
		n += len(b.queue)
		b.mu.Unlock()
	}
	return n
}

// LowBalanceCrossed reports e taking u below its low-balance threshold.
var LowBalanceCrossed = lowBalanceCrossed
