package outbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"paygate/core/events/webhook"
)

// The delivery worker. Every instance runs one (Run): each poll claims no
// more due deliveries than it has free sender slots and starts their
// attempts at once, without waiting for the attempts of earlier polls; so
// receivers that take their whole timeout hold slots, not the polls, and
// a new event's first attempt starts at the next poll after its commit.
// A quarter of the slots are kept for first attempts (the first-attempt
// lane: deliveries that have not failed since they were scheduled), so a
// backlog of retries to slow receivers cannot hold them all.

// firstWindow is how far back the first-attempt lane looks: a first
// attempt that waited longer (every slot busy with first attempts) is
// claimed with the retries, earliest first.
const firstWindow = time.Minute

// slots counts the delivery attempts under way in this instance.
type slots struct {
	polling sync.Mutex // one poll at a time: claims are sized to the free slots
	mu      sync.Mutex
	busy    int           // attempts under way
	retries int           // of which were not claimed in the first-attempt lane
	freed   chan struct{} // closed (and replaced) when an attempt ends
	wg      sync.WaitGroup
}

// room is how many attempts may start now, and how many of them retries.
func (p *slots) room(size, reserved int) (free, retries int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	free = size - p.busy
	return free, max(min(free, size-reserved-p.retries), 0)
}

func (p *slots) take(retry bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy++
	if retry {
		p.retries++
	}
	p.wg.Add(1)
}

func (p *slots) give(retry bool) {
	p.mu.Lock()
	p.busy--
	if retry {
		p.retries--
	}
	if p.freed != nil {
		close(p.freed)
		p.freed = nil
	}
	p.mu.Unlock()
	p.wg.Done()
}

// closed is a channel that is always closed.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// untilFreed returns a channel closed when the next attempt ends (at once
// when none is under way).
func (p *slots) untilFreed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.busy == 0 {
		return closed
	}
	if p.freed == nil {
		p.freed = make(chan struct{})
	}
	return p.freed
}

// round gathers the outcomes of the attempts one Deliver call started;
// the running worker (Run) logs them instead.
type round struct {
	delivered atomic.Int64
	mu        sync.Mutex
	failed    []error
	wg        sync.WaitGroup
}

// pollResult is what one poll did.
type pollResult struct {
	claimed, started int
	full             bool // no free slot: nothing was looked for
}

// Run is the delivery worker: it polls every interval until ctx ends,
// then waits for the attempts under way (bounded by Config.Timeout; no new
// one starts) and returns.
func (o *Outbox) Run(ctx context.Context, interval time.Duration) {
	defer o.slots.wg.Wait()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		p, err := o.poll(ctx, nil, o.cfg.Concurrency)
		if err != nil && ctx.Err() == nil {
			o.log.Warn("webhook poll failed", "err", err)
		}
		if p.started > 0 {
			o.log.Debug("webhook attempts started", "started", p.started)
		}
	}
}

// Deliver claims up to limit due deliveries as sender slots free up,
// sends them and waits for their attempts; it returns how many were
// delivered. For tests and tools: the server runs Run.
func (o *Outbox) Deliver(ctx context.Context, limit int) (int, error) {
	// A metered call's balance.low is written with its charge, after the
	// call's answer: a round right after the call waits for it.
	if err := o.settled(ctx); err != nil {
		return 0, err
	}
	r := &round{}
	claimed := 0
	var err error
	for claimed < limit && ctx.Err() == nil {
		freed := o.slots.untilFreed()
		var p pollResult
		p, err = o.poll(ctx, r, limit-claimed)
		claimed += p.claimed
		if err != nil {
			break
		}
		if p.full {
			<-freed
			continue
		}
		if p.started == 0 || p.started < p.claimed {
			break // nothing due, or the lease guard stopped the claim
		}
	}
	r.wg.Wait()
	if err == nil && len(r.failed) > 0 {
		err = fmt.Errorf("record webhook attempts: %w (%d in all)", r.failed[0], len(r.failed))
	}
	return int(r.delivered.Load()), err
}

// poll claims up to most due deliveries, no more than the free slots,
// first attempts first, under a lease of Config.Lease (SKIP LOCKED on
// MySQL, so instances share the work and never send one delivery at once),
// and starts their attempts, each bounded by Config.Timeout. An attempt
// starts only while the lease still covers it with a margin: after the
// lease another worker may take the delivery. Claimed deliveries not started (the lease guard, shutdown) are
// released at once. Attempts finish even when ctx ends; r (nil: log)
// collects their outcomes.
func (o *Outbox) poll(ctx context.Context, r *round, most int) (pollResult, error) {
	var p pollResult
	if o.sender == nil || o.st.Webhooks == nil || ctx.Err() != nil {
		return p, nil
	}
	o.slots.polling.Lock()
	defer o.slots.polling.Unlock()
	free, retryRoom := o.slots.room(o.cfg.Concurrency, o.cfg.Concurrency/4)
	free = min(free, most)
	retryRoom = min(retryRoom, free)
	if free <= 0 {
		p.full = true
		return p, nil
	}
	now := o.now().UTC()
	first := webhook.FirstAttempts(now.Add(-firstWindow))
	lane := webhook.Lane{}
	if retryRoom == 0 {
		lane = first
	}
	// A read first: most polls find nothing due and so take no write lock
	// (SQLite has one writer for the whole database).
	if due, err := o.st.Webhooks.HasDue(ctx, now, lane); err != nil || !due {
		if err != nil {
			return p, fmt.Errorf("look for due webhook deliveries: %w", err)
		}
		return p, nil
	}
	until := now.Add(o.cfg.Lease)
	token := claimToken()
	var jobs []webhook.Job
	retriesFrom := 0 // jobs[retriesFrom:] were claimed in the retry lane
	err := o.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		var err error
		if jobs, err = s.Webhooks.Claim(ctx, now, until, token, free, first); err != nil {
			return err
		}
		retriesFrom = len(jobs)
		if n := min(free-len(jobs), retryRoom); n > 0 {
			more, err := s.Webhooks.Claim(ctx, now, until, token, n, webhook.Lane{})
			if err != nil {
				return err
			}
			jobs = append(jobs, more...)
		}
		return nil
	})
	if err != nil {
		return p, fmt.Errorf("claim webhook deliveries: %w", err)
	}
	p.claimed = len(jobs)
	bg := context.WithoutCancel(ctx)
	for i := range jobs {
		// Shutting down, or the lease could end during the attempt: the
		// rest go back at once, for any instance to send.
		if ctx.Err() != nil || until.Sub(o.now()) < o.cfg.Timeout+o.leaseMargin() {
			return p, o.releaseClaims(bg, jobs[i:], token)
		}
		retry := i >= retriesFrom
		o.slots.take(retry)
		if r != nil {
			r.wg.Add(1)
		}
		p.started++
		go func(j *webhook.Job) {
			defer o.slots.give(retry)
			ok, err := o.deliver(bg, j)
			if r == nil {
				if err != nil {
					o.log.Warn("webhook attempt not recorded", "err", err)
				}
				return
			}
			defer r.wg.Done()
			if ok {
				r.delivered.Add(1)
			}
			if err != nil {
				r.mu.Lock()
				r.failed = append(r.failed, err)
				r.mu.Unlock()
			}
		}(&jobs[i])
	}
	return p, nil
}

// releaseClaims ends token's claim on jobs, whose attempts did not start.
func (o *Outbox) releaseClaims(ctx context.Context, jobs []webhook.Job, token string) error {
	ids := make([]uint64, len(jobs))
	for i := range jobs {
		ids[i] = jobs[i].Delivery.ID
	}
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	if err := o.st.Webhooks.Release(ctx, ids, token); err != nil {
		// Left claimed: they wait for their lease to end.
		return fmt.Errorf("release %d webhook deliveries: %w", len(ids), err)
	}
	return nil
}

// leaseMargin is the lease an attempt must leave unused when it starts
// (half a timeout): for clocks and the account read before sending.
func (o *Outbox) leaseMargin() time.Duration { return o.cfg.Timeout / 2 }

// claimToken names one worker round's claim.
func claimToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// deliver makes one attempt at j and records it with the delivery's next
// state. A store failure leaves the lease to expire: the delivery is tried
// again (at least once, never twice at the same time).
func (o *Outbox) deliver(ctx context.Context, j *webhook.Job) (bool, error) {
	d := &j.Delivery
	start := o.now().UTC()
	clock := time.Now() // real time: the attempt's latency, whatever the business clock
	status, body, sendErr := o.send(ctx, j, start)
	att := webhook.NewAttempt(d.ID, start, time.Since(clock), status, body, sendErr)
	d.Record(att)
	settled := false
	err := o.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Webhooks.AddAttempt(ctx, att); err != nil {
			return err
		}
		var err error
		settled, err = s.Webhooks.Settle(ctx, d, j.Token)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("delivery %d: %w", d.ID, err)
	}
	if settled && (d.Status == webhook.StatusDelivered || d.Status == webhook.StatusFailed) {
		o.metrics.WebhookSettled(string(d.Status)) // metrics
	}
	// A lost claim (redelivery asked meanwhile): the attempt is logged,
	// but the delivery's state is the request's, not this answer's.
	return att.Succeeded() && settled, nil
}

// send signs j's event with its user's current secret and posts it to the
// destination (for the webhook destination, the user's current
// webhook_url). It returns the answer's status (0: none) and body.
func (o *Outbox) send(ctx context.Context, j *webhook.Job, at time.Time) (int, []byte, error) {
	d := &j.Delivery
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	u, err := o.st.Users.ByID(ctx, d.UserID)
	if err != nil {
		return 0, nil, fmt.Errorf("account not readable")
	}
	if d.Destination == webhook.ToWebhook {
		if u.WebhookURL == nil || *u.WebhookURL == "" {
			return 0, nil, webhook.ErrNoWebhookURL
		}
		d.URL = *u.WebhookURL
	}
	if webhook.TargetProblem(o.targets, d.URL) != "" {
		return 0, nil, fmt.Errorf("address not allowed")
	}
	if u.WebhookSecret == nil {
		return 0, nil, webhook.ErrNoSecret
	}
	h, err := webhook.Headers(*u.WebhookSecret, j.Event.PublicID, at, j.Event.Payload)
	if err != nil {
		return 0, nil, err
	}
	h.Set("User-Agent", "paygate-webhooks/1")
	res, err := o.sender.Send(ctx, webhook.Request{URL: d.URL, Header: h, Body: j.Event.Payload})
	if err != nil {
		return res.Status, res.Body, err
	}
	return res.Status, res.Body, nil
}

// RefreshBacklog counts the undelivered (pending) deliveries for the
// paygate_outbox_backlog gauge; the worker calls it every few seconds.
func (o *Outbox) RefreshBacklog(ctx context.Context) (int64, error) {
	if o.st.Webhooks == nil {
		return 0, nil
	}
	n, err := o.st.Webhooks.Backlog(ctx)
	if err != nil {
		return 0, err
	}
	o.metrics.OutboxBacklog(n)
	return n, nil
}
