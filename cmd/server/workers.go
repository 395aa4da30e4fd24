package main

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"paygate/core/app"
	"paygate/core/billing/issuing"
	"paygate/core/billing/taxprofile"
	"paygate/core/events/outbox"
)

// Background workers of the gateway. Each round is safe with several
// instances running it at once: every change is a conditional update.
const workerBatch = 100

// workerIntervals are how often each worker runs a round.
type workerIntervals struct {
	expiry        time.Duration // payments open past 30 minutes → expired
	rechargeCheck time.Duration // pending recharges asked again
	refundCheck   time.Duration // pending refunds asked again, failed after their deadline
	payoutCheck   time.Duration // payouts submitted again, asked about, watched for reversals
	hitRecovery   time.Duration // hits of interrupted calls refunded
	webhooks      time.Duration // due webhook deliveries claimed, attempts started (WEBHOOK_POLL_INTERVAL)
	backlog       time.Duration // the outbox backlog gauge counted
	hitPayloads   time.Duration // payloads of hits past HIT_PAYLOAD_RETENTION removed
	accountCheck  time.Duration // account openings submitted again or asked again
	usageDays     time.Duration // local days over summed into the daily usage roll-up
	billing       time.Duration // subscriptions opened, renewed at the month's first instant, past-due fees retried
	pastDue       time.Duration // past-due plan fees retried: paid within seconds of a credit
	invoices      time.Duration // the month before's tax invoices and credit notes issued (a no-op once issued)
	commissions   time.Duration // resellers' commissions of closed UTC hours credited
}

var defaultWorkerIntervals = workerIntervals{expiry: 30 * time.Second, rechargeCheck: 15 * time.Second, hitRecovery: 30 * time.Second,
	webhooks: time.Second, backlog: 10 * time.Second, refundCheck: 15 * time.Second, hitPayloads: time.Minute,
	payoutCheck: 2 * time.Second,
	// Often: a sandbox opening is due 5 s after its request and opens within 10 s.
	accountCheck: 2 * time.Second, usageDays: time.Minute, billing: time.Minute,
	pastDue: 5 * time.Second, invoices: time.Minute, commissions: time.Minute}

// hitRecoveryInterval: a hit is refunded at most about half its grace
// after it became due, and no round runs more than once a second.
func hitRecoveryInterval(grace time.Duration) time.Duration {
	return min(max(grace/2, time.Second), 30*time.Second)
}

// recoveryBatches bounds one recovery round: a crash of a busy instance
// leaves many pending hits, settled up to this many batches at a time.
const recoveryBatches = 20

// recoverPendingHits runs RecoverPendingHits batch after batch while full
// batches come back.
func recoverPendingHits(ctx context.Context, a gatewayRounds) (int, error) {
	total := 0
	for range recoveryBatches {
		n, err := a.RecoverPendingHits(ctx, workerBatch)
		total += n
		if err != nil || n < workerBatch {
			return total, err
		}
	}
	return total, nil
}

// gatewayRounds are the use cases the workers run (*app.App).
type gatewayRounds interface {
	ExpirePayments(ctx context.Context, limit int) (int, error)
	CheckRecharges(ctx context.Context, limit int) (int, error)
	CheckRefunds(ctx context.Context, limit int) (int, error)
	CheckPayouts(ctx context.Context, limit int) (int, error)
	RecoverPendingHits(ctx context.Context, limit int) (int, error)
	// ClearHitPayloads is one retention round: bounded batches with a
	// pause between them (core/metering/retention).
	ClearHitPayloads(ctx context.Context) (int, error)
	CheckAccountOpenings(ctx context.Context, limit int) (int, error)
	// CloseUsageDays sums the local days that are over into the daily
	// usage roll-up, so a dashboard read finds them closed.
	CloseUsageDays(ctx context.Context) (int, error)
	// Bill is one billing step at the clock's instant (core/billing).
	Bill(ctx context.Context) (int, error)
	// RetryPastDue retries the past-due plan fees.
	RetryPastDue(ctx context.Context) (int, error)
	// IssueInvoices issues the month before's documents (core/billing/issuing).
	IssueInvoices(ctx context.Context) (int, error)
	// SettleCommissions credits resellers' closed hours (core/resale/commission).
	SettleCommissions(ctx context.Context) (int, error)
}

// appRounds are the wired use cases' rounds.
type appRounds struct{ a *app.App }

var _ gatewayRounds = appRounds{}

func (r appRounds) ExpirePayments(ctx context.Context, limit int) (int, error) {
	return r.a.Gateway.ExpirePayments(ctx, limit)
}

func (r appRounds) CheckRecharges(ctx context.Context, limit int) (int, error) {
	return r.a.Gateway.CheckRecharges(ctx, limit)
}

func (r appRounds) CheckRefunds(ctx context.Context, limit int) (int, error) {
	return r.a.Gateway.CheckRefunds(ctx, limit)
}

func (r appRounds) CheckPayouts(ctx context.Context, limit int) (int, error) {
	return r.a.Gateway.CheckPayouts(ctx, limit)
}

func (r appRounds) RecoverPendingHits(ctx context.Context, limit int) (int, error) {
	return r.a.Metering.RecoverPendingHits(ctx, limit)
}

func (r appRounds) ClearHitPayloads(ctx context.Context) (int, error) {
	return r.a.Retention.Round(ctx)
}

func (r appRounds) CloseUsageDays(ctx context.Context) (int, error) {
	return r.a.History.CloseDays(ctx)
}

func (r appRounds) Bill(ctx context.Context) (int, error) {
	res, err := r.a.Billing.Run(ctx, time.Now())
	return res.Changed(), err
}

// incompleteLogged is when the invoices worker last reported settings
// too incomplete to invoice (unix seconds): once an hour, not each minute.
var incompleteLogged atomic.Int64

// heldUntil is when the invoices worker next tries a month that resellers
// without billing records hold open (unix seconds): each try rereads the
// month's accounts, so every 10 minutes, not each minute.
var heldUntil atomic.Int64

func (r appRounds) IssueInvoices(ctx context.Context) (int, error) {
	if time.Now().Unix() < heldUntil.Load() {
		return 0, nil
	}
	res, err := r.a.Invoicing.IssueDue(ctx, time.Now())
	if errors.Is(err, issuing.ErrResellerBillingMissing) {
		heldUntil.Store(time.Now().Add(10 * time.Minute).Unix())
	}
	// A reseller without its billing record holds its customers' invoices
	// (and its own) back, the rest of the month is issued: the same hourly
	// report.
	if errors.Is(err, taxprofile.ErrSupplierIncomplete) || errors.Is(err, issuing.ErrResellerBillingMissing) {
		if now := time.Now().Unix(); now-incompleteLogged.Load() >= 3600 {
			incompleteLogged.Store(now)
			return res.Invoices + res.CreditNotes, err // the worker logs it
		}
		return res.Invoices + res.CreditNotes, nil
	}
	return res.Invoices + res.CreditNotes, err
}

func (r appRounds) SettleCommissions(ctx context.Context) (int, error) {
	res, err := r.a.Commissions.Run(ctx)
	return res.Settled, err
}

func (r appRounds) RetryPastDue(ctx context.Context) (int, error) {
	res, err := r.a.Billing.RetryPastDue(ctx)
	return res.Changed(), err
}

func (r appRounds) CheckAccountOpenings(ctx context.Context, limit int) (int, error) {
	return r.a.Gateway.CheckAccountOpenings(ctx, limit)
}

// outboxRounds are the delivery worker and the backlog gauge (*outbox.Outbox).
type outboxRounds interface {
	Run(ctx context.Context, interval time.Duration)
	RefreshBacklog(ctx context.Context) (int64, error)
}

var _ outboxRounds = (*outbox.Outbox)(nil)

// startWorkers runs the payment expiry, recharge check, account-opening
// check, hit recovery and webhook delivery workers until ctx ends; Wait on the result returns once
// all stopped (webhook attempts under way finish first, bounded by their
// timeout). A zero interval leaves that worker out.
func startWorkers(ctx context.Context, a gatewayRounds, o outboxRounds, iv workerIntervals, log *slog.Logger) *sync.WaitGroup {
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
	if iv.refundCheck > 0 {
		every("refund-check", iv.refundCheck, func(ctx context.Context) (int, error) { return a.CheckRefunds(ctx, workerBatch) })
	}
	if iv.payoutCheck > 0 {
		every("payout-check", iv.payoutCheck, func(ctx context.Context) (int, error) { return a.CheckPayouts(ctx, workerBatch) })
	}
	if iv.hitRecovery > 0 {
		every("hit-recovery", iv.hitRecovery, func(ctx context.Context) (int, error) { return recoverPendingHits(ctx, a) })
	}
	if iv.hitPayloads > 0 {
		every("hit-payload-retention", iv.hitPayloads, a.ClearHitPayloads)
	}
	if iv.accountCheck > 0 {
		every("account-open-check", iv.accountCheck, func(ctx context.Context) (int, error) { return a.CheckAccountOpenings(ctx, workerBatch) })
	}
	if iv.usageDays > 0 {
		every("usage-days", iv.usageDays, a.CloseUsageDays)
	}
	if iv.billing > 0 {
		every("billing", iv.billing, a.Bill)
	}
	if iv.pastDue > 0 {
		every("billing-past-due", iv.pastDue, a.RetryPastDue)
	}
	if iv.invoices > 0 {
		every("invoices", iv.invoices, a.IssueInvoices)
	}
	if iv.commissions > 0 {
		every("commissions", iv.commissions, a.SettleCommissions)
	}
	if iv.webhooks > 0 {
		// Its own loop: a poll starts attempts without waiting for them
		// (a first attempt within 5 s of the commit, however slow the
		// receivers of earlier events); it returns once they finished.
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.Run(ctx, iv.webhooks)
		}()
	}
	if iv.backlog > 0 {
		every("outbox-backlog", iv.backlog, func(ctx context.Context) (int, error) {
			_, err := o.RefreshBacklog(ctx)
			return 0, err
		})
	}
	return &wg
}
