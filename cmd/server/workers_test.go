package main

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
)

type countingRounds struct{ expiry, checks atomic.Int64 }

func (c *countingRounds) ExpirePayments(context.Context, int) (int, error) {
	c.expiry.Add(1)
	return 1, nil
}

func (c *countingRounds) CheckRecharges(context.Context, int) (int, error) {
	c.checks.Add(1)
	return 0, errors.New("operator down") // logged; the worker keeps going
}

// TestWorkersRunRoundsAndStop: both workers run repeatedly, survive a
// failing round, and stop when their context ends.
func TestWorkersRunRoundsAndStop(t *testing.T) {
	rounds := &countingRounds{}
	ctx, cancel := context.WithCancel(context.Background())
	wg := startWorkers(ctx, rounds, workerIntervals{expiry: 5 * time.Millisecond, rechargeCheck: 5 * time.Millisecond}, slog.New(slog.DiscardHandler))
	deadline := time.Now().Add(5 * time.Second)
	for (rounds.expiry.Load() < 3 || rounds.checks.Load() < 3) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if rounds.expiry.Load() < 3 || rounds.checks.Load() < 3 {
		t.Fatalf("rounds: expiry %d, checks %d", rounds.expiry.Load(), rounds.checks.Load())
	}
	cancel()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("workers did not stop")
	}
	n := rounds.expiry.Load()
	time.Sleep(30 * time.Millisecond)
	if rounds.expiry.Load() != n {
		t.Fatal("a worker ran after stopping")
	}
}
