package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"paygate/core/errs"
	"paygate/core/user"
	"paygate/core/webhook"
)

// Webhooks (docs/decisions.md "Webhooks"): events are written to the
// outbox in the transaction of the change that causes them, by emit; the
// delivery worker (DeliverWebhooks) claims due deliveries under a lease,
// signs and posts them, and logs every attempt.

// TargetPolicy decides which addresses events may be sent to.
type TargetPolicy = webhook.TargetPolicy

// Defaults of the delivery worker (Config).
const (
	DefaultWebhookTimeout     = 10 * time.Second
	DefaultWebhookLease       = webhookLeasePerTimeout * DefaultWebhookTimeout
	webhookLeasePerTimeout    = 6 // the lease when Config.WebhookLease is 0, in timeouts
	DefaultWebhookConcurrency = 8
	webhookAttemptsShown      = 50
)

// The delivery worker. Every instance runs RunWebhooks: each poll claims
// no more due deliveries than it has free sender slots and starts their
// attempts at once, without waiting for the attempts of earlier polls; so
// receivers that take their whole timeout hold slots, not the polls, and
// a new event's first attempt starts at the next poll after its commit.
// A quarter of the slots are kept for first attempts (the first-attempt
// lane: deliveries that have not failed since they were scheduled), so a
// backlog of retries to slow receivers cannot hold them all.

// webhookFirstWindow is how far back the first-attempt lane looks: a first
// attempt that waited longer (every slot busy with first attempts) is
// claimed with the retries, earliest first.
const webhookFirstWindow = time.Minute

// closedChan is a channel that is always closed.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// webhookSlots counts the delivery attempts under way in this instance.
type webhookSlots struct {
	polling sync.Mutex // one poll at a time: claims are sized to the free slots
	mu      sync.Mutex
	busy    int           // attempts under way
	retries int           // of which were not claimed in the first-attempt lane
	freed   chan struct{} // closed (and replaced) when an attempt ends
	wg      sync.WaitGroup
}

// room is how many attempts may start now, and how many of them retries.
func (p *webhookSlots) room(size, reserved int) (free, retries int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	free = size - p.busy
	return free, max(min(free, size-reserved-p.retries), 0)
}

func (p *webhookSlots) take(retry bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy++
	if retry {
		p.retries++
	}
	p.wg.Add(1)
}

func (p *webhookSlots) give(retry bool) {
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

// untilFreed returns a channel closed when the next attempt ends (at once
// when none is under way).
func (p *webhookSlots) untilFreed() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.busy == 0 {
		return closedChan
	}
	if p.freed == nil {
		p.freed = make(chan struct{})
	}
	return p.freed
}

// webhookRound gathers the outcomes of the attempts one DeliverWebhooks
// call started; the running worker (RunWebhooks) logs them instead.
type webhookRound struct {
	delivered atomic.Int64
	mu        sync.Mutex
	failed    []error
	wg        sync.WaitGroup
}

// webhookPoll is what one poll did.
type webhookPoll struct {
	claimed, started int
	full             bool // no free slot: nothing was looked for
}

// RunWebhooks is the delivery worker: it polls every interval until ctx
// ends, then waits for the attempts under way (bounded by
// Config.WebhookTimeout; no new one starts) and returns.
func (a *App) RunWebhooks(ctx context.Context, interval time.Duration) {
	defer a.hooks.wg.Wait()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		p, err := a.pollWebhooks(ctx, nil, a.cfg.WebhookConcurrency)
		if err != nil && ctx.Err() == nil {
			a.log.Warn("webhook poll failed", "err", err)
		}
		if p.started > 0 {
			a.log.Debug("webhook attempts started", "started", p.started)
		}
	}
}

// DeliverWebhooks claims up to limit due deliveries as sender slots free
// up, sends them and waits for their attempts; it returns how many were
// delivered. For tests and tools: the server runs RunWebhooks.
func (a *App) DeliverWebhooks(ctx context.Context, limit int) (int, error) {
	// A metered call's balance.low is written with its charge, after the
	// call's answer: a round right after the call waits for it.
	if err := a.awaitSettlements(ctx); err != nil {
		return 0, err
	}
	r := &webhookRound{}
	claimed := 0
	var err error
	for claimed < limit && ctx.Err() == nil {
		freed := a.hooks.untilFreed()
		var p webhookPoll
		p, err = a.pollWebhooks(ctx, r, limit-claimed)
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

// pollWebhooks claims up to most due deliveries, no more than the free
// slots, first attempts first, under a lease of Config.WebhookLease (SKIP
// LOCKED on MySQL, so instances share the work and never send one
// delivery at once), and starts their attempts, each bounded by
// Config.WebhookTimeout. An attempt starts only while the lease still
// covers it with a margin: after the lease another worker may take the
// delivery. Claimed deliveries not started (the lease guard, shutdown) are
// released at once. Attempts finish even when ctx ends; r (nil: log)
// collects their outcomes.
func (a *App) pollWebhooks(ctx context.Context, r *webhookRound, most int) (webhookPoll, error) {
	var p webhookPoll
	if a.sender == nil || a.st.Webhooks == nil || ctx.Err() != nil {
		return p, nil
	}
	a.hooks.polling.Lock()
	defer a.hooks.polling.Unlock()
	free, retryRoom := a.hooks.room(a.cfg.WebhookConcurrency, a.cfg.WebhookConcurrency/4)
	free = min(free, most)
	retryRoom = min(retryRoom, free)
	if free <= 0 {
		p.full = true
		return p, nil
	}
	now := a.now().UTC()
	first := webhook.FirstAttempts(now.Add(-webhookFirstWindow))
	lane := webhook.Lane{}
	if retryRoom == 0 {
		lane = first
	}
	// A read first: most polls find nothing due and so take no write lock
	// (SQLite has one writer for the whole database).
	if due, err := a.st.Webhooks.HasDue(ctx, now, lane); err != nil || !due {
		if err != nil {
			return p, fmt.Errorf("look for due webhook deliveries: %w", err)
		}
		return p, nil
	}
	until := now.Add(a.cfg.WebhookLease)
	token := claimToken()
	var jobs []webhook.Job
	retriesFrom := 0 // jobs[retriesFrom:] were claimed in the retry lane
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
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
		if ctx.Err() != nil || until.Sub(a.now()) < a.cfg.WebhookTimeout+a.webhookLeaseMargin() {
			return p, a.releaseClaims(bg, jobs[i:], token)
		}
		retry := i >= retriesFrom
		a.hooks.take(retry)
		if r != nil {
			r.wg.Add(1)
		}
		p.started++
		go func(j *webhook.Job) {
			defer a.hooks.give(retry)
			ok, err := a.deliver(bg, j)
			if r == nil {
				if err != nil {
					a.log.Warn("webhook attempt not recorded", "err", err)
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
func (a *App) releaseClaims(ctx context.Context, jobs []webhook.Job, token string) error {
	ids := make([]uint64, len(jobs))
	for i := range jobs {
		ids[i] = jobs[i].Delivery.ID
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.WebhookTimeout)
	defer cancel()
	if err := a.st.Webhooks.Release(ctx, ids, token); err != nil {
		// Left claimed: they wait for their lease to end.
		return fmt.Errorf("release %d webhook deliveries: %w", len(ids), err)
	}
	return nil
}

// webhookLeaseMargin is the lease an attempt must leave unused when it
// starts (half a timeout): for clocks and the account read before sending.
func (a *App) webhookLeaseMargin() time.Duration { return a.cfg.WebhookTimeout / 2 }

// claimToken names one worker round's claim.
func claimToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// deliver makes one attempt at j and records it with the delivery's next
// state. A store failure leaves the lease to expire: the delivery is tried
// again (at least once, never twice at the same time).
func (a *App) deliver(ctx context.Context, j *webhook.Job) (bool, error) {
	d := &j.Delivery
	start := a.now().UTC()
	clock := time.Now() // real time: the attempt's latency, whatever the business clock
	status, body, sendErr := a.send(ctx, j, start)
	att := webhook.NewAttempt(d.ID, start, time.Since(clock), status, body, sendErr)
	d.Record(att)
	settled := false
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
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
	// A lost claim (redelivery asked meanwhile): the attempt is logged,
	// but the delivery's state is the request's, not this answer's.
	return att.Succeeded() && settled, nil
}

// send signs j's event with its user's current secret and posts it to the
// destination (for the webhook destination, the user's current
// webhook_url). It returns the answer's status (0: none) and body.
func (a *App) send(ctx context.Context, j *webhook.Job, at time.Time) (int, []byte, error) {
	d := &j.Delivery
	ctx, cancel := context.WithTimeout(ctx, a.cfg.WebhookTimeout)
	defer cancel()
	u, err := a.st.Users.ByID(ctx, d.UserID)
	if err != nil {
		return 0, nil, fmt.Errorf("account not readable")
	}
	if d.Destination == webhook.ToWebhook {
		if u.WebhookURL == nil || *u.WebhookURL == "" {
			return 0, nil, webhook.ErrNoWebhookURL
		}
		d.URL = *u.WebhookURL
	}
	if webhook.TargetProblem(a.targets, d.URL) != "" {
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
	res, err := a.sender.Send(ctx, webhook.Request{URL: d.URL, Header: h, Body: j.Event.Payload})
	if err != nil {
		return res.Status, res.Body, err
	}
	return res.Status, res.Body, nil
}

// RefreshOutboxBacklog counts the undelivered (pending) deliveries for the
// paygate_outbox_backlog gauge; the worker calls it every few seconds.
func (a *App) RefreshOutboxBacklog(ctx context.Context) (int64, error) {
	if a.st.Webhooks == nil {
		return 0, nil
	}
	n, err := a.st.Webhooks.Backlog(ctx)
	if err != nil {
		return 0, err
	}
	a.metrics.OutboxBacklog(n)
	return n, nil
}

// ListDeliveries lists event deliveries: a user's own, an admin's all (or
// f.UserID's).
func (a *App) ListDeliveries(ctx context.Context, actor *user.User, f webhook.Filter) ([]webhook.Delivery, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return a.st.Webhooks.List(ctx, f)
}

// DeliveryDetail is one delivery with its event and its latest attempts.
type DeliveryDetail struct {
	Delivery webhook.Delivery
	Event    webhook.Event
	Attempts []webhook.Attempt // newest first, at most 50
}

// delivery reads a delivery the actor may see: another user's is not found.
func (a *App) delivery(ctx context.Context, s Stores, actor *user.User, id uint64) (*webhook.Delivery, error) {
	d, err := s.Webhooks.ByID(ctx, id)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, webhook.ErrNotFound
		}
		return nil, err
	}
	if actor.Role != user.RoleAdmin && d.UserID != actor.ID {
		return nil, webhook.ErrNotFound
	}
	return d, nil
}

// GetDelivery is one delivery with its event and attempts.
func (a *App) GetDelivery(ctx context.Context, actor *user.User, id uint64) (*DeliveryDetail, error) {
	d, err := a.delivery(ctx, a.st, actor, id)
	if err != nil {
		return nil, err
	}
	e, err := a.st.Webhooks.Event(ctx, d.EventID)
	if err != nil {
		return nil, err
	}
	att, err := a.st.Webhooks.Attempts(ctx, d.ID, webhookAttemptsShown)
	if err != nil {
		return nil, err
	}
	return &DeliveryDetail{Delivery: *d, Event: *e, Attempts: att}, nil
}

// Redeliver asks for a new attempt at once with a fresh retry schedule,
// whatever the delivery's state. An attempt running now finishes first
// (its lease holds), but its outcome no longer ends the delivery.
func (a *App) Redeliver(ctx context.Context, actor *user.User, id uint64) (*webhook.Delivery, error) {
	var out *webhook.Delivery
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
		d, err := a.delivery(ctx, s, actor, id)
		if err != nil {
			return err
		}
		d.Redeliver(a.now())
		if err := s.Webhooks.Redeliver(ctx, d); err != nil {
			return err
		}
		out = d
		return nil
	})
	return out, err
}

// RotateWebhookSecret gives the caller a new signing secret and returns it:
// the only time it is shown. Events not yet delivered are signed with the
// new one from now on.
func (a *App) RotateWebhookSecret(ctx context.Context, caller *user.User) (string, error) {
	secret := webhook.NewSecret()
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
		u, err := s.Users.LockByID(ctx, caller.ID)
		if err != nil {
			return err
		}
		if u.CanAct() != nil {
			return errs.ErrUnauthorized
		}
		u.WebhookSecret = &secret
		u.UpdatedAt = a.now().UTC()
		return s.Users.Update(ctx, u)
	})
	if err != nil {
		return "", err
	}
	return secret, nil
}
