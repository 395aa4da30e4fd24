package main

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"paygate/core/gateway/accountopen"
)

type countingRounds struct{ expiry, checks, payouts, recoveries, deliveries, openings, days, bills atomic.Int64 }

// RecoverPendingHits settles full batches twice, then a partial one.
func (c *countingRounds) RecoverPendingHits(_ context.Context, limit int) (int, error) {
	if c.recoveries.Add(1)%3 == 0 {
		return 1, nil
	}
	return limit, nil
}

func (c *countingRounds) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.deliveries.Add(1)
		}
	}
}

func (c *countingRounds) RefreshBacklog(context.Context) (int64, error) { return 0, nil }

func (c *countingRounds) ExpirePayments(context.Context, int) (int, error) {
	c.expiry.Add(1)
	return 1, nil
}

func (c *countingRounds) CheckRecharges(context.Context, int) (int, error) {
	c.checks.Add(1)
	return 0, errors.New("operator down") // logged; the worker keeps going
}

func (c *countingRounds) CheckRefunds(context.Context, int) (int, error) { return 0, nil }

func (c *countingRounds) CheckPayouts(context.Context, int) (int, error) {
	c.payouts.Add(1)
	return 1, nil
}

func (c *countingRounds) ClearHitPayloads(context.Context) (int, error) { return 0, nil }

func (c *countingRounds) CloseUsageDays(context.Context) (int, error) {
	c.days.Add(1)
	return 1, nil
}

func (c *countingRounds) Bill(context.Context) (int, error) {
	c.bills.Add(1)
	return 0, nil
}

func (c *countingRounds) RetryPastDue(context.Context) (int, error) { return 0, nil }

func (c *countingRounds) IssueInvoices(context.Context) (int, error)     { return 0, nil }
func (c *countingRounds) SettleCommissions(context.Context) (int, error) { return 0, nil }

func (c *countingRounds) CheckAccountOpenings(_ context.Context, limit int) (int, error) {
	if limit != workerBatch {
		return 0, errors.New("unexpected batch")
	}
	c.openings.Add(1)
	return 0, errors.New("bank down") // logged; the worker keeps going
}

// TestWorkersRunRoundsAndStop: both workers run repeatedly, survive a
// failing round, and stop when their context ends.
func TestWorkersRunRoundsAndStop(t *testing.T) {
	rounds := &countingRounds{}
	ctx, cancel := context.WithCancel(context.Background())
	wg := startWorkers(ctx, rounds, rounds, workerIntervals{expiry: 5 * time.Millisecond, rechargeCheck: 5 * time.Millisecond, payoutCheck: 5 * time.Millisecond, hitRecovery: 5 * time.Millisecond, webhooks: 5 * time.Millisecond, backlog: 5 * time.Millisecond, usageDays: 5 * time.Millisecond, billing: 5 * time.Millisecond}, slog.New(slog.DiscardHandler))
	short := func() bool {
		return rounds.expiry.Load() < 3 || rounds.checks.Load() < 3 || rounds.payouts.Load() < 3 || rounds.recoveries.Load() < 6 ||
			rounds.deliveries.Load() < 3 || rounds.days.Load() < 3 || rounds.bills.Load() < 3
	}
	deadline := time.Now().Add(5 * time.Second)
	for short() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if short() {
		t.Fatalf("rounds: expiry %d, checks %d, payouts %d, recoveries %d, usage days %d", rounds.expiry.Load(), rounds.checks.Load(),
			rounds.payouts.Load(), rounds.recoveries.Load(), rounds.days.Load())
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

// TestRecoveryRoundDrainsFullBatches: one recovery round goes on while
// full batches come back, stops at a partial one, and is bounded.
func TestRecoveryRoundDrainsFullBatches(t *testing.T) {
	rounds := &countingRounds{}
	n, err := recoverPendingHits(context.Background(), rounds)
	if err != nil || n != 2*workerBatch+1 || rounds.recoveries.Load() != 3 {
		t.Fatalf("round = %d, %v after %d batches; want %d in 3", n, err, rounds.recoveries.Load(), 2*workerBatch+1)
	}
	if got := hitRecoveryInterval(75 * time.Second); got != 30*time.Second {
		t.Fatalf("interval for 75s = %s", got)
	}
	if got := hitRecoveryInterval(3 * time.Second); got != 1500*time.Millisecond {
		t.Fatalf("interval for 3s = %s", got)
	}
}

// TestAccountOpeningWorkerRunsOnItsInterval: the account-opening check runs
// round after round (a failing one included) with the worker batch, only
// when its interval is set, and stops with the others. Its default comes
// round often enough for a sandbox opening, due 5 s after its request, to
// open within 10 s.
func TestAccountOpeningWorkerRunsOnItsInterval(t *testing.T) {
	// Due at FirstCheck, looked at within one interval, answered at once: under 10 s.
	if iv := defaultWorkerIntervals.accountCheck; iv <= 0 || accountopen.FirstCheck+iv >= 10*time.Second-time.Second {
		t.Fatalf("default account-opening interval %s", iv)
	}
	rounds := &countingRounds{}
	ctx, cancel := context.WithCancel(context.Background())
	wg := startWorkers(ctx, rounds, rounds, workerIntervals{expiry: time.Hour, rechargeCheck: time.Hour, accountCheck: 5 * time.Millisecond},
		slog.New(slog.DiscardHandler))
	deadline := time.Now().Add(5 * time.Second)
	for rounds.openings.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	if n := rounds.openings.Load(); n < 3 {
		t.Fatalf("account-opening rounds: %d", n)
	}
	n := rounds.openings.Load()
	time.Sleep(30 * time.Millisecond)
	if rounds.openings.Load() != n {
		t.Fatal("the worker ran after stopping")
	}

	// Left out when its interval is zero.
	rounds = &countingRounds{}
	ctx, cancel = context.WithCancel(context.Background())
	wg = startWorkers(ctx, rounds, rounds, workerIntervals{expiry: time.Hour, rechargeCheck: time.Hour}, slog.New(slog.DiscardHandler))
	time.Sleep(30 * time.Millisecond)
	cancel()
	wg.Wait()
	if rounds.openings.Load() != 0 {
		t.Fatal("account-opening worker ran without an interval")
	}
}
