package app

// HoldBatches keeps the metering writer from starting, so calls queue up
// and the next batch holds them all, in order; release starts it.
func HoldBatches(a *App) (release func()) {
	a.batch.mu.Lock()
	a.batch.running = true
	a.batch.wg.Add(1)
	a.batch.mu.Unlock()
	return func() { go a.writeBatches() }
}

// QueuedCalls is how many calls wait for the metering writer.
func QueuedCalls(a *App) int {
	a.batch.mu.Lock()
	defer a.batch.mu.Unlock()
	return len(a.batch.queue)
}
