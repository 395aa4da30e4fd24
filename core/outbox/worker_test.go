package outbox_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.uber.org/goleak"

	"paygate/core/outbox"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
)

// deliveryWorld is the delivery worker on mocks.
type deliveryWorld struct {
	hooks  *webhookmocks.MockRepository
	sender *webhookmocks.MockSender
	users  *usermocks.MockRepository
	outbox *outbox.Outbox
	now    time.Time
	secret string
	job    webhook.Job
}

func newDeliveryWorld(t *testing.T) *deliveryWorld {
	w := &deliveryWorld{hooks: webhookmocks.NewMockRepository(t), sender: webhookmocks.NewMockSender(t),
		users: usermocks.NewMockRepository(t), now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), secret: webhook.NewSecret()}
	stores := store.Stores{Users: w.users, Webhooks: w.hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	w.outbox = outbox.New(outbox.Deps{Tx: tx, Stores: stores, Sender: w.sender, Now: func() time.Time { return w.now }})
	hook := "https://merchant.example/new-hooks"
	w.users.EXPECT().ByID(mock.Anything, uint64(11)).Return(&user.User{ID: 11, WebhookSecret: &w.secret, WebhookURL: &hook}, nil).Maybe()
	e, _ := webhook.NewEvent(11, webhook.BalanceLow, map[string]string{"balance": "1.00"}, w.now.Add(-time.Minute))
	e.ID = 4
	d := webhook.NewDelivery(e, webhook.ToWebhook, "https://merchant.example/old-hooks")
	d.ID, d.EventID, d.EventPublicID = 8, 4, e.PublicID
	w.job = webhook.Job{Delivery: *d, Event: *e, Token: "t"}
	w.hooks.EXPECT().HasDue(mock.Anything, w.now, mock.Anything).Return(true, nil).Maybe()
	claims := 0
	w.hooks.EXPECT().Claim(mock.Anything, w.now, w.now.Add(outbox.DefaultLease), mock.Anything, mock.Anything, mock.Anything).
		RunAndReturn(func(_ context.Context, _, _ time.Time, token string, _ int, _ webhook.Lane) ([]webhook.Job, error) {
			if claims++; claims > 1 {
				return nil, nil // claimed once; the round polls until nothing more is due
			}
			j := w.job
			j.Token = token
			return []webhook.Job{j}, nil
		})
	return w
}

func TestDeliverSignsAndRecords(t *testing.T) {
	w := newDeliveryWorld(t)
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, r webhook.Request) (webhook.Response, error) {
		dl, ok := ctx.Deadline()
		if !ok || time.Until(dl) > outbox.DefaultTimeout {
			t.Errorf("no %s deadline", outbox.DefaultTimeout)
		}
		want, _ := webhook.Sign(w.secret, w.job.Event.PublicID, w.now, w.job.Event.Payload)
		// The user's current webhook_url, not the one of the event's time.
		if r.URL != "https://merchant.example/new-hooks" || r.Header.Get("webhook-id") != w.job.Event.PublicID ||
			r.Header.Get("webhook-signature") != want || string(r.Body) != string(w.job.Event.Payload) {
			t.Errorf("request %+v", r)
		}
		return webhook.Response{Status: 200, Body: []byte("ok")}, nil
	}).Once()
	var token string
	w.hooks.EXPECT().AddAttempt(mock.Anything, mock.MatchedBy(func(a *webhook.Attempt) bool {
		return a.DeliveryID == 8 && *a.StatusCode == 200 && a.Response == "ok" && a.Error == ""
	})).Return(nil).Once()
	w.hooks.EXPECT().Settle(mock.Anything, mock.MatchedBy(func(d *webhook.Delivery) bool {
		return d.Status == webhook.StatusDelivered && d.Attempts == 1 && d.URL == "https://merchant.example/new-hooks"
	}), mock.Anything).RunAndReturn(func(_ context.Context, _ *webhook.Delivery, tk string) (bool, error) { token = tk; return true, nil }).Once()
	n, err := w.outbox.Deliver(context.Background(), 10)
	if err != nil || n != 1 || len(token) != 32 {
		t.Fatalf("delivered %d, %v, token %q", n, err, token)
	}
}

func TestFailedAttemptIsRetriedAfterAMinute(t *testing.T) {
	w := newDeliveryWorld(t)
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).Return(webhook.Response{}, errors.New("timed out")).Once()
	w.hooks.EXPECT().AddAttempt(mock.Anything, mock.MatchedBy(func(a *webhook.Attempt) bool {
		return a.StatusCode == nil && a.Error == "timed out"
	})).Return(nil).Once()
	w.hooks.EXPECT().Settle(mock.Anything, mock.MatchedBy(func(d *webhook.Delivery) bool {
		return d.Status == webhook.StatusPending && d.NextAttemptAt.Equal(w.now.Add(time.Minute)) && d.Failures == 1
	}), mock.Anything).Return(true, nil).Once()
	if n, err := w.outbox.Deliver(context.Background(), 10); err != nil || n != 0 {
		t.Fatalf("delivered %d, %v", n, err)
	}
}

func TestInternalTargetIsNotSent(t *testing.T) {
	w := newDeliveryWorld(t)
	policy := webhookmocks.NewMockTargetPolicy(t)
	policy.EXPECT().CheckURL("https://merchant.example/new-hooks").Return(errors.New("address not allowed"))
	stores := store.Stores{Users: w.users, Webhooks: w.hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) })
	w.outbox = outbox.New(outbox.Deps{Tx: tx, Stores: stores, Sender: w.sender, Targets: policy, Now: func() time.Time { return w.now }})
	// No Send: the mock fails on one.
	w.hooks.EXPECT().AddAttempt(mock.Anything, mock.MatchedBy(func(a *webhook.Attempt) bool { return a.Error == "address not allowed" })).Return(nil).Once()
	w.hooks.EXPECT().Settle(mock.Anything, mock.Anything, mock.Anything).Return(true, nil).Once()
	if _, err := w.outbox.Deliver(context.Background(), 10); err != nil {
		t.Fatal(err)
	}
}

// A worker starts an attempt only while its lease can still cover it
// (a whole timeout and a margin): after the lease another worker may take
// the delivery. Claims it cannot start (here the clock jumps during the
// claim) are released at once, not left to wait for their lease.
func TestClaimsTheLeaseCannotCoverAreReleased(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	hooks, sender := webhookmocks.NewMockRepository(t), webhookmocks.NewMockSender(t)
	stores := store.Stores{Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) })
	timeout, lease := 10*time.Second, time.Minute
	o := outbox.New(outbox.Deps{Tx: tx, Stores: stores, Sender: sender, Now: clock,
		Config: outbox.Config{Timeout: timeout, Lease: lease, Concurrency: 4}})
	hooks.EXPECT().HasDue(mock.Anything, now, mock.Anything).Return(true, nil).Once()
	var token string
	hooks.EXPECT().Claim(mock.Anything, now, now.Add(lease), mock.Anything, mock.Anything, mock.Anything).
		RunAndReturn(func(_ context.Context, _, _ time.Time, tk string, limit int, lane webhook.Lane) ([]webhook.Job, error) {
			if lane.FirstSince.IsZero() {
				return nil, nil
			}
			token = tk
			var jobs []webhook.Job
			for i := range 3 {
				e, _ := webhook.NewEvent(11, webhook.BalanceLow, map[string]int{"n": i}, now)
				d := webhook.NewDelivery(e, webhook.ToWebhook, "https://merchant.example/hooks")
				d.ID = uint64(i + 1)
				jobs = append(jobs, webhook.Job{Delivery: *d, Event: *e, Token: tk})
			}
			mu.Lock()
			now = now.Add(lease - timeout) // a stalled claim: less than a timeout and a margin left
			mu.Unlock()
			return jobs, nil
		})
	// No Send: the mock fails on one.
	hooks.EXPECT().Release(mock.Anything, []uint64{1, 2, 3}, mock.Anything).RunAndReturn(
		func(_ context.Context, _ []uint64, tk string) error {
			if tk != token {
				t.Errorf("released under %q, claimed under %q", tk, token)
			}
			return nil
		}).Once()
	if n, err := o.Deliver(context.Background(), 50); n != 0 || err != nil {
		t.Fatalf("delivered %d, %v", n, err)
	}
}

// A poll that finds nothing due opens no transaction (on SQLite a
// transaction is the database's single write lock); the mock Transactor
// fails on any.
func TestNothingDueTakesNoTransaction(t *testing.T) {
	hooks, sender := webhookmocks.NewMockRepository(t), webhookmocks.NewMockSender(t)
	tx := storemocks.NewMockTransactor(t)
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	o := outbox.New(outbox.Deps{Tx: tx, Stores: store.Stores{Webhooks: hooks}, Sender: sender, Now: func() time.Time { return now }})
	hooks.EXPECT().HasDue(mock.Anything, now, mock.Anything).Return(false, nil).Once()
	if n, err := o.Deliver(context.Background(), 50); n != 0 || err != nil {
		t.Fatalf("delivered %d, %v", n, err)
	}
}

// An attempt whose claim was lost meanwhile (a redelivery was asked) is
// logged, but its 2xx does not count as delivered: the delivery's state
// is the redelivery's.
func TestAttemptOfALostClaimIsNotCountedDelivered(t *testing.T) {
	w := newDeliveryWorld(t)
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).Return(webhook.Response{Status: 200}, nil).Once()
	w.hooks.EXPECT().AddAttempt(mock.Anything, mock.Anything).Return(nil).Once()
	w.hooks.EXPECT().Settle(mock.Anything, mock.Anything, mock.Anything).Return(false, nil).Once()
	if n, err := w.outbox.Deliver(context.Background(), 10); err != nil || n != 0 {
		t.Fatalf("delivered %d, %v", n, err)
	}
}

// hookJob is a delivery of event n to url (a callback: it keeps its URL)
// that has failed failures times.
func hookJob(id uint64, url string, failures int, now time.Time) webhook.Job {
	e, _ := webhook.NewEvent(11, webhook.PaymentSuccess, map[string]uint64{"n": id}, now)
	d := webhook.NewDelivery(e, webhook.ToCallback, url)
	d.ID, d.Failures = id, failures
	return webhook.Job{Delivery: *d, Event: *e}
}

// workerOnMocks is the running delivery worker over mocks whose Send
// blocks for every URL but fast until release is closed.
type workerOnMocks struct {
	outbox  *outbox.Outbox
	hooks   *webhookmocks.MockRepository
	release chan struct{}
	fast    chan string // the webhook-id of each request to fast
	mu      sync.Mutex
	held    int // sends blocked now
	maxHeld int
}

func newWorkerOnMocks(t *testing.T, concurrency int) *workerOnMocks {
	w := &workerOnMocks{hooks: webhookmocks.NewMockRepository(t), release: make(chan struct{}), fast: make(chan string, 16)}
	sender, users := webhookmocks.NewMockSender(t), usermocks.NewMockRepository(t)
	stores := store.Stores{Users: users, Webhooks: w.hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	w.outbox = outbox.New(outbox.Deps{Tx: tx, Stores: stores, Sender: sender, Config: outbox.Config{Concurrency: concurrency}})
	secret := webhook.NewSecret()
	users.EXPECT().ByID(mock.Anything, uint64(11)).Return(&user.User{ID: 11, WebhookSecret: &secret}, nil).Maybe()
	sender.EXPECT().Send(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, r webhook.Request) (webhook.Response, error) {
		if r.URL == "https://fast.example/cb" {
			w.fast <- r.Header.Get("webhook-id")
			return webhook.Response{Status: 204}, nil
		}
		w.mu.Lock()
		w.held++
		w.maxHeld = max(w.maxHeld, w.held)
		w.mu.Unlock()
		<-w.release
		w.mu.Lock()
		w.held--
		w.mu.Unlock()
		return webhook.Response{Status: 204}, nil
	}).Maybe()
	w.hooks.EXPECT().HasDue(mock.Anything, mock.Anything, mock.Anything).Return(true, nil).Maybe()
	w.hooks.EXPECT().AddAttempt(mock.Anything, mock.Anything).Return(nil).Maybe()
	w.hooks.EXPECT().Settle(mock.Anything, mock.Anything, mock.Anything).Return(true, nil).Maybe()
	return w
}

func (w *workerOnMocks) heldNow() (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.held, w.maxHeld
}

// waitHeld waits until n sends are blocked.
func (w *workerOnMocks) waitHeld(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if held, _ := w.heldNow(); held == n {
			return
		}
	}
	held, _ := w.heldNow()
	t.Fatalf("%d sends held, want %d", held, n)
}

// Polls go on while attempts run, and retries (an endless backlog to a
// receiver that answers at the last moment) never take the slots kept for
// first attempts: a new event's first attempt starts at once.
func TestFirstAttemptStartsWhileRetriesHoldSlots(t *testing.T) {
	w := newWorkerOnMocks(t, 4)
	var mu sync.Mutex
	nextID, freshDue := uint64(100), false
	w.hooks.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything, mock.Anything, mock.Anything, mock.Anything).
		RunAndReturn(func(_ context.Context, now, _ time.Time, token string, limit int, lane webhook.Lane) ([]webhook.Job, error) {
			mu.Lock()
			defer mu.Unlock()
			var jobs []webhook.Job
			if !lane.FirstSince.IsZero() {
				if freshDue {
					freshDue = false
					jobs = append(jobs, hookJob(1, "https://fast.example/cb", 0, now))
				}
			} else {
				for range limit {
					nextID++
					jobs = append(jobs, hookJob(nextID, "https://slow.example/cb", 1, now))
				}
			}
			for i := range jobs {
				jobs[i].Token = token
			}
			return jobs, nil
		})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { w.outbox.Run(ctx, 2*time.Millisecond); close(stopped) }()
	w.waitHeld(t, 3)
	time.Sleep(20 * time.Millisecond) // several polls with the retry lane full
	mu.Lock()
	freshDue = true
	mu.Unlock()
	select {
	case <-w.fast:
	case <-time.After(2 * time.Second):
		t.Fatal("the first attempt did not start while retries held their slots")
	}
	if _, most := w.heldNow(); most != 3 {
		t.Fatalf("%d retries at once, want 3 of 4 slots", most)
	}
	cancel()
	close(w.release)
	<-stopped
}

// Shutdown: no attempt starts once ctx ends; those under way finish and
// are recorded before Run returns, and no goroutine is left.
func TestWorkerShutdownFinishesStartedAttempts(t *testing.T) {
	before := goleak.IgnoreCurrent()
	w := newWorkerOnMocks(t, 2)
	var claims atomic.Int64
	w.hooks.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything, mock.Anything, mock.Anything, mock.Anything).
		RunAndReturn(func(_ context.Context, now, _ time.Time, token string, limit int, lane webhook.Lane) ([]webhook.Job, error) {
			claims.Add(1)
			var jobs []webhook.Job
			for i := range limit {
				j := hookJob(uint64(claims.Load()*10)+uint64(i), "https://slow.example/cb", 0, now)
				j.Token = token
				jobs = append(jobs, j)
			}
			return jobs, nil
		})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { w.outbox.Run(ctx, 2*time.Millisecond); close(stopped) }()
	w.waitHeld(t, 2)
	cancel()
	n := claims.Load()
	select {
	case <-stopped:
		t.Fatal("Run returned before its attempts finished")
	case <-time.After(30 * time.Millisecond):
	}
	close(w.release)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	if claims.Load() != n {
		t.Fatal("claimed after shutdown")
	}
	w.hooks.AssertNumberOfCalls(t, "Settle", 2)
	goleak.VerifyNone(t, before)
}
