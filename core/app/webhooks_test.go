package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.uber.org/goleak"

	"paygate/core/app"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/payment"
	paymentmocks "paygate/core/payment/mocks"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
)

// A metered call that takes the balance below the threshold writes one
// balance.low event in its batch's transaction; the next call, below
// already, writes none (the mock fails on a second Insert).
func TestMeteredCallCrossingThresholdWritesBalanceLowOnce(t *testing.T) {
	f := newFixture(t)
	hooks := webhookmocks.NewMockRepository(t)
	stores := app.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app = app.New(app.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: app.Config{Location: loc}})
	alert, hook := dec("9.00"), "https://merchant.example/hooks"
	f.user.LowBalanceAlert, f.user.WebhookURL = &alert, &hook

	hooks.EXPECT().Insert(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, e *webhook.Event, ds []*webhook.Delivery) error {
		var body struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(e.Payload, &body); err != nil {
			t.Fatal(err)
		}
		if e.Type != webhook.BalanceLow || body.Data["balance"] != "8.77" || body.Data["threshold"] != "9.00" ||
			len(ds) != 1 || ds[0].Destination != webhook.ToWebhook || ds[0].URL != hook {
			t.Fatalf("event %s %s, deliveries %+v", e.Type, e.Payload, ds)
		}
		return nil
	}).Once()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(app.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil)
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).Return([]bool{true}, nil)
	for _, before := range []string{"10.00", "8.77"} {
		f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
			u := *f.user
			return &u, nil
		}).Once()
		f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 1, mock.Anything).Return(1, nil).Once()
		f.hits.EXPECT().InsertMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error { hs[0].ID = 99; return nil }).Once()
		f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
			return es[0].BalanceBefore.Equal(dec(before))
		})).Return(nil).Once()
		f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
		if _, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPaymentOutcomeGoesToCallbackAndWebhook(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	payments, users, hooks := paymentmocks.NewMockRepository(t), usermocks.NewMockRepository(t), webhookmocks.NewMockRepository(t)
	provider := paymentmocks.NewMockProvider(t)
	stores := app.Stores{Payments: payments, Users: users, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	a := app.New(app.Deps{Tx: tx, Stores: stores, Payments: provider, Now: func() time.Time { return now }})
	hook := "https://merchant.example/hooks"
	merchant := &user.User{ID: 11, Name: "Shop", Status: user.StatusActive, WebhookURL: &hook}
	p := payment.Payment{ID: 1, PublicID: "pay_01TESTPAYMENT0000000000000", UserID: 11, Amount: dec("10.00"), Currency: "INR",
		CallbackURL: "https://shop.example/cb", Status: payment.StatusPending, ExpiresAt: now.Add(time.Hour), CreatedAt: now}
	provider.EXPECT().Sandbox().Return(true)
	payments.EXPECT().ByPublicID(mock.Anything, p.PublicID).Return(&p, nil)
	users.EXPECT().ByID(mock.Anything, uint64(11)).Return(merchant, nil)
	payments.EXPECT().Transition(mock.Anything, mock.Anything, payment.StatusPending).Return(true, nil).Once()
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool {
		return e.Type == webhook.PaymentSuccess
	}), mock.MatchedBy(func(ds []*webhook.Delivery) bool {
		return len(ds) == 2 && ds[0].Destination == webhook.ToWebhook && ds[0].URL == hook &&
			ds[1].Destination == webhook.ToCallback && ds[1].URL == "https://shop.example/cb"
	})).Return(nil).Once()
	if _, err := a.CompleteCheckout(context.Background(), p.PublicID, true); err != nil {
		t.Fatal(err)
	}
}

// deliveryWorld is the delivery worker on mocks.
type deliveryWorld struct {
	hooks  *webhookmocks.MockRepository
	sender *webhookmocks.MockSender
	users  *usermocks.MockRepository
	app    *app.App
	now    time.Time
	secret string
	job    webhook.Job
}

func newDeliveryWorld(t *testing.T) *deliveryWorld {
	w := &deliveryWorld{hooks: webhookmocks.NewMockRepository(t), sender: webhookmocks.NewMockSender(t),
		users: usermocks.NewMockRepository(t), now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), secret: webhook.NewSecret()}
	stores := app.Stores{Users: w.users, Webhooks: w.hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) }).Maybe()
	w.app = app.New(app.Deps{Tx: tx, Stores: stores, Webhooks: w.sender, Now: func() time.Time { return w.now }})
	hook := "https://merchant.example/new-hooks"
	w.users.EXPECT().ByID(mock.Anything, uint64(11)).Return(&user.User{ID: 11, WebhookSecret: &w.secret, WebhookURL: &hook}, nil).Maybe()
	e, _ := webhook.NewEvent(11, webhook.BalanceLow, map[string]string{"balance": "1.00"}, w.now.Add(-time.Minute))
	e.ID = 4
	d := webhook.NewDelivery(e, webhook.ToWebhook, "https://merchant.example/old-hooks")
	d.ID, d.EventID, d.EventPublicID = 8, 4, e.PublicID
	w.job = webhook.Job{Delivery: *d, Event: *e, Token: "t"}
	w.hooks.EXPECT().HasDue(mock.Anything, w.now, mock.Anything).Return(true, nil).Maybe()
	claims := 0
	w.hooks.EXPECT().Claim(mock.Anything, w.now, w.now.Add(app.DefaultWebhookLease), mock.Anything, mock.Anything, mock.Anything).
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
		if !ok || time.Until(dl) > app.DefaultWebhookTimeout {
			t.Errorf("no %s deadline", app.DefaultWebhookTimeout)
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
	n, err := w.app.DeliverWebhooks(context.Background(), 10)
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
	if n, err := w.app.DeliverWebhooks(context.Background(), 10); err != nil || n != 0 {
		t.Fatalf("delivered %d, %v", n, err)
	}
}

func TestInternalTargetIsNotSent(t *testing.T) {
	w := newDeliveryWorld(t)
	policy := webhookmocks.NewMockTargetPolicy(t)
	policy.EXPECT().CheckURL("https://merchant.example/new-hooks").Return(errors.New("address not allowed"))
	stores := app.Stores{Users: w.users, Webhooks: w.hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	w.app = app.New(app.Deps{Tx: tx, Stores: stores, Webhooks: w.sender, Targets: policy, Now: func() time.Time { return w.now }})
	// No Send: the mock fails on one.
	w.hooks.EXPECT().AddAttempt(mock.Anything, mock.MatchedBy(func(a *webhook.Attempt) bool { return a.Error == "address not allowed" })).Return(nil).Once()
	w.hooks.EXPECT().Settle(mock.Anything, mock.Anything, mock.Anything).Return(true, nil).Once()
	if _, err := w.app.DeliverWebhooks(context.Background(), 10); err != nil {
		t.Fatal(err)
	}
}

func TestDeliveriesOfOthersAreNotFound(t *testing.T) {
	hooks := webhookmocks.NewMockRepository(t)
	stores := app.Stores{Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) }).Maybe()
	a := app.New(app.Deps{Tx: tx, Stores: stores})
	hooks.EXPECT().ByID(mock.Anything, uint64(8)).Return(&webhook.Delivery{ID: 8, UserID: 11, Status: webhook.StatusFailed}, nil)
	other := &user.User{ID: 12, Role: user.RoleUser}
	if _, err := a.GetDelivery(context.Background(), other, 8); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("get: %v", err)
	}
	if _, err := a.Redeliver(context.Background(), other, 8); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("redeliver: %v", err)
	}
	hooks.EXPECT().List(mock.Anything, mock.MatchedBy(func(f webhook.Filter) bool { return f.UserID != nil && *f.UserID == 12 })).Return(nil, 0, nil).Once()
	if _, _, err := a.ListDeliveries(context.Background(), other, webhook.Filter{}); err != nil {
		t.Fatal(err)
	}
	admin := &user.User{ID: 1, Role: user.RoleAdmin}
	hooks.EXPECT().Redeliver(mock.Anything, mock.MatchedBy(func(d *webhook.Delivery) bool {
		return d.ID == 8 && d.Status == webhook.StatusPending && d.Failures == 0
	})).Return(nil).Once()
	if d, err := a.Redeliver(context.Background(), admin, 8); err != nil || d.Status != webhook.StatusPending {
		t.Fatalf("admin redeliver: %+v, %v", d, err)
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
	stores := app.Stores{Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	timeout, lease := 10*time.Second, time.Minute
	a := app.New(app.Deps{Tx: tx, Stores: stores, Webhooks: sender, Now: clock,
		Config: app.Config{WebhookTimeout: timeout, WebhookLease: lease, WebhookConcurrency: 4}})
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
	if n, err := a.DeliverWebhooks(context.Background(), 50); n != 0 || err != nil {
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
	a := app.New(app.Deps{Tx: tx, Stores: app.Stores{Webhooks: hooks}, Webhooks: sender, Now: func() time.Time { return now }})
	hooks.EXPECT().HasDue(mock.Anything, now, mock.Anything).Return(false, nil).Once()
	if n, err := a.DeliverWebhooks(context.Background(), 50); n != 0 || err != nil {
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
	if n, err := w.app.DeliverWebhooks(context.Background(), 10); err != nil || n != 0 {
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
	app     *app.App
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
	stores := app.Stores{Users: users, Webhooks: w.hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) }).Maybe()
	w.app = app.New(app.Deps{Tx: tx, Stores: stores, Webhooks: sender, Config: app.Config{WebhookConcurrency: concurrency}})
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
	go func() { w.app.RunWebhooks(ctx, 2*time.Millisecond); close(stopped) }()
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
// are recorded before RunWebhooks returns, and no goroutine is left.
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
	go func() { w.app.RunWebhooks(ctx, 2*time.Millisecond); close(stopped) }()
	w.waitHeld(t, 2)
	cancel()
	n := claims.Load()
	select {
	case <-stopped:
		t.Fatal("RunWebhooks returned before its attempts finished")
	case <-time.After(30 * time.Millisecond):
	}
	close(w.release)
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("RunWebhooks did not return")
	}
	if claims.Load() != n {
		t.Fatal("claimed after shutdown")
	}
	w.hooks.AssertNumberOfCalls(t, "Settle", 2)
	goleak.VerifyNone(t, before)
}
