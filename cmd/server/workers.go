package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"paygate/core/app"
)

// Background workers of the gateway. Each round is safe with several
// instances running it at once: every change is a conditional update.
const workerBatch = 100

// workerIntervals are how often each worker runs a round.
type workerIntervals struct {
	expiry        time.Duration // payments open past 30 minutes → expired
	rechargeCheck time.Duration // pending recharges asked again
}

var defaultWorkerIntervals = workerIntervals{expiry: 30 * time.Second, rechargeCheck: 15 * time.Second}

// gatewayRounds are the use cases the workers run (*app.App).
type gatewayRounds interface {
	ExpirePayments(ctx context.Context, limit int) (int, error)
	CheckRecharges(ctx context.Context, limit int) (int, error)
}

var _ gatewayRounds = (*app.App)(nil)

// startWorkers runs the payment expiry and recharge check workers until ctx
// ends; Wait on the result returns once both stopped.
func startWorkers(ctx context.Context, a gatewayRounds, iv workerIntervals, log *slog.Logger) *sync.WaitGroup {
	var wg sync.WaitGroup
	every := func(name string, interval time.Duration, round func(context.Context) (int, error)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(interval)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				n, err := round(ctx)
				if err != nil && ctx.Err() == nil {
					log.Warn("worker round failed", "worker", name, "err", err)
				}
				if n > 0 {
					log.Info("worker round", "worker", name, "changed", n)
				}
			}
		}()
	}
	every("payment-expiry", iv.expiry, func(ctx context.Context) (int, error) { return a.ExpirePayments(ctx, workerBatch) })
	every("recharge-check", iv.rechargeCheck, func(ctx context.Context) (int, error) { return a.CheckRecharges(ctx, workerBatch) })
	return &wg
}
