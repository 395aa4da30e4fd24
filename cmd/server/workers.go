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
const (
	expiryInterval        = 30 * time.Second // payments open past 30 minutes → expired
	rechargeCheckInterval = 15 * time.Second // pending recharges asked again
	workerBatch           = 100
)

// startWorkers runs the payment expiry and recharge check workers until ctx
// ends; Wait on the result returns once both stopped.
func startWorkers(ctx context.Context, a *app.App, log *slog.Logger) *sync.WaitGroup {
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
	every("payment-expiry", expiryInterval, func(ctx context.Context) (int, error) { return a.ExpirePayments(ctx, workerBatch) })
	every("recharge-check", rechargeCheckInterval, func(ctx context.Context) (int, error) { return a.CheckRecharges(ctx, workerBatch) })
	return &wg
}
