package outbox_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.uber.org/goleak"

	"paygate/core/accounts/user"
	"paygate/core/events/outbox"
	"paygate/core/events/webhook"
	webhookmocks "paygate/core/events/webhook/mocks"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

// outboxStores are the fake's repositories the outbox reads outside a
// transaction.
func outboxStores(db *storetest.DB) outbox.Stores {
	st := db.Stores()
	return outbox.Stores{Webhooks: st.Webhooks, Users: st.Users}
}

// seedDelivery stores event e of user 11 and its delivery to url, as the
// outbox would have written them; the delivery has failed failures times
// and is due at due.
func seedDelivery(db *storetest.DB, e *webhook.Event, to webhook.Destination, url string, failures int, due time.Time) webhook.Delivery {
	db.Put(*e)
	ev := db.Events()[len(db.Events())-1]
	d := webhook.NewDelivery(&ev, to, url)
	d.EventID, d.Failures, d.NextAttemptAt = ev.ID, failures, due
	db.Put(*d)
	return db.Deliveries()[len(db.Deliveries())-1]
}

func delivery(t *testing.T, db *storetest.DB, id uint64) webhook.Delivery {
	t.Helper()
	for _, d := range db.Deliveries() {
		if d.ID == id {
			return d
		}
	}
	t.Fatalf("no delivery %d", id)
	return webhook.Delivery{}
}

// deliveryWorld is the delivery worker over the in-memory store: user 11
// and one due delivery (8) of its event 4, made when its webhook_url was
// another one.
type deliveryWorld struct {
	db     *storetest.DB
	sender *webhookmocks.MockSender
	outbox *outbox.Outbox
	now    time.Time
	secret string
	event  webhook.Event
}

func newDeliveryWorld(t *testing.T) *deliveryWorld {
	w := &deliveryWorld{db: storetest.New(), sender: webhookmocks.NewMockSender(t),
		now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), secret: webhook.NewSecret()}
	hook := "https://merchant.example/new-hooks"
	w.db.Put(user.User{ID: 11, Role: user.RoleUser, Status: user.StatusActive, WebhookSecret: &w.secret, WebhookURL: &hook})
	e, _ := webhook.NewEvent(11, webhook.BalanceLow, map[string]string{"balance": "1.00"}, w.now.Add(-time.Minute))
	e.ID = 4
	d := webhook.NewDelivery(e, webhook.ToWebhook, "https://merchant.example/old-hooks")
	d.ID, d.EventID = 8, 4
	w.db.Put(*e, *d)
	w.event = *e
	w.outbox = w.newOutbox(nil)
	return w
}

func (w *deliveryWorld) newOutbox(targets webhook.TargetPolicy) *outbox.Outbox {
	return outbox.New(outbox.Deps{Tx: store.Narrow(w.db, outbox.TxStoresOf), Stores: outboxStores(w.db), Sender: w.sender, Targets: targets, Now: func() time.Time { return w.now }})
}

func TestDeliverSignsAndRecords(t *testing.T) {
	w := newDeliveryWorld(t)
	var token string
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, r webhook.Request) (webhook.Response, error) {
		dl, ok := ctx.Deadline()
		if !ok || time.Until(dl) > outbox.DefaultTimeout {
			t.Errorf("no %s deadline", outbox.DefaultTimeout)
		}
		// Sent under a lease of DefaultLease from the claim.
		if d := delivery(t, w.db, 8); d.ClaimedUntil == nil || !d.ClaimedUntil.Equal(w.now.Add(outbox.DefaultLease)) {
			t.Errorf("lease %v, want until %v", d.ClaimedUntil, w.now.Add(outbox.DefaultLease))
		}
		token = w.db.ClaimToken(8)
		want, _ := webhook.Sign(w.secret, w.event.PublicID, w.now, w.event.Payload)
		// The user's current webhook_url, not the one of the event's time.
		if r.URL != "https://merchant.example/new-hooks" || r.Header.Get("webhook-id") != w.event.PublicID ||
			r.Header.Get("webhook-signature") != want || string(r.Body) != string(w.event.Payload) {
			t.Errorf("request %+v", r)
		}
		return webhook.Response{Status: 200, Body: []byte("ok")}, nil
	}).Once()
	n, err := w.outbox.Deliver(context.Background(), 10)
	if err != nil || n != 1 || len(token) != 32 {
		t.Fatalf("delivered %d, %v, token %q", n, err, token)
	}
	att := w.db.Attempts()
	if len(att) != 1 || att[0].DeliveryID != 8 || att[0].StatusCode == nil || *att[0].StatusCode != 200 || att[0].Response != "ok" || att[0].Error != "" {
		t.Fatalf("attempts %+v", att)
	}
	d := delivery(t, w.db, 8)
	if d.Status != webhook.StatusDelivered || d.Attempts != 1 || d.URL != "https://merchant.example/new-hooks" ||
		d.ClaimedUntil != nil || w.db.ClaimToken(8) != "" {
		t.Fatalf("delivery %+v", d)
	}
}

func TestFailedAttemptIsRetriedAfterAMinute(t *testing.T) {
	w := newDeliveryWorld(t)
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).Return(webhook.Response{}, errors.New("timed out")).Once()
	if n, err := w.outbox.Deliver(context.Background(), 10); err != nil || n != 0 {
		t.Fatalf("delivered %d, %v", n, err)
	}
	if att := w.db.Attempts(); len(att) != 1 || att[0].StatusCode != nil || att[0].Error != "timed out" {
		t.Fatalf("attempts %+v", att)
	}
	d := delivery(t, w.db, 8)
	if d.Status != webhook.StatusPending || !d.NextAttemptAt.Equal(w.now.Add(time.Minute)) || d.Failures != 1 || d.ClaimedUntil != nil {
		t.Fatalf("delivery %+v", d)
	}
}

func TestInternalTargetIsNotSent(t *testing.T) {
	w := newDeliveryWorld(t)
	policy := webhookmocks.NewMockTargetPolicy(t)
	policy.EXPECT().CheckURL("https://merchant.example/new-hooks").Return(errors.New("address not allowed"))
	w.outbox = w.newOutbox(policy)
	// No Send: the mock fails on one.
	if _, err := w.outbox.Deliver(context.Background(), 10); err != nil {
		t.Fatal(err)
	}
	if att := w.db.Attempts(); len(att) != 1 || att[0].Error != "address not allowed" {
		t.Fatalf("attempts %+v", att)
	}
	if d := delivery(t, w.db, 8); d.Attempts != 1 || d.Failures != 1 || d.ClaimedUntil != nil {
		t.Fatalf("delivery not settled: %+v", d)
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
	db, sender := storetest.New(), webhookmocks.NewMockSender(t)
	secret := webhook.NewSecret()
	db.Put(user.User{ID: 11, Role: user.RoleUser, Status: user.StatusActive, WebhookSecret: &secret})
	for i := range 3 {
		e, _ := webhook.NewEvent(11, webhook.BalanceLow, map[string]int{"n": i}, now)
		seedDelivery(db, e, webhook.ToCallback, "https://merchant.example/hooks", 0, now)
	}
	timeout, lease := 10*time.Second, time.Minute
	o := outbox.New(outbox.Deps{Tx: store.Narrow(db, outbox.TxStoresOf), Stores: outboxStores(db), Sender: sender, Now: clock,
		Config: outbox.Config{Timeout: timeout, Lease: lease, Concurrency: 4}})
	var once sync.Once
	db.OnCall("Webhooks.Claim", func() error {
		once.Do(func() {
			mu.Lock()
			now = now.Add(lease - timeout) // a stalled claim: less than a timeout and a margin left
			mu.Unlock()
		})
		return nil
	})
	// No Send: the mock fails on one.
	if n, err := o.Deliver(context.Background(), 50); n != 0 || err != nil {
		t.Fatalf("delivered %d, %v", n, err)
	}
	if db.Calls("Webhooks.Release") != 1 || len(db.Attempts()) != 0 {
		t.Fatalf("%d releases, attempts %+v", db.Calls("Webhooks.Release"), db.Attempts())
	}
	// Released under the claim's own token: no lease is left.
	for _, d := range db.Deliveries() {
		if d.ClaimedUntil != nil || db.ClaimToken(d.ID) != "" || d.Status != webhook.StatusPending || d.Attempts != 0 {
			t.Errorf("delivery %d still claimed or changed: %+v", d.ID, d)
		}
	}
}

// A poll that finds nothing due opens no transaction (on SQLite a
// transaction is the database's single write lock).
func TestNothingDueTakesNoTransaction(t *testing.T) {
	db, sender := storetest.New(), webhookmocks.NewMockSender(t)
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	e, _ := webhook.NewEvent(11, webhook.BalanceLow, map[string]int{"n": 1}, now)
	seedDelivery(db, e, webhook.ToCallback, "https://merchant.example/hooks", 1, now.Add(time.Minute)) // not due yet
	o := outbox.New(outbox.Deps{Tx: store.Narrow(db, outbox.TxStoresOf), Stores: outboxStores(db), Sender: sender, Now: func() time.Time { return now }})
	if n, err := o.Deliver(context.Background(), 50); n != 0 || err != nil {
		t.Fatalf("delivered %d, %v", n, err)
	}
	if db.Calls("Webhooks.HasDue") != 1 || db.Calls("WithinTx") != 0 {
		t.Fatalf("%d looks, %d transactions", db.Calls("Webhooks.HasDue"), db.Calls("WithinTx"))
	}
}

// An attempt whose claim was lost meanwhile (a redelivery was asked) is
// logged, but its 2xx does not count as delivered: the delivery's state
// is the redelivery's.
func TestAttemptOfALostClaimIsNotCountedDelivered(t *testing.T) {
	w := newDeliveryWorld(t)
	admin := &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive}
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, _ webhook.Request) (webhook.Response, error) {
		if _, err := w.outbox.Redeliver(ctx, admin, 8); err != nil { // asked while the attempt runs
			t.Errorf("redeliver: %v", err)
		}
		return webhook.Response{Status: 200}, nil
	}).Once()
	if n, err := w.outbox.Deliver(context.Background(), 10); err != nil || n != 0 {
		t.Fatalf("delivered %d, %v", n, err)
	}
	if len(w.db.Attempts()) != 1 {
		t.Fatalf("attempts %+v", w.db.Attempts())
	}
	d := delivery(t, w.db, 8)
	if d.Status != webhook.StatusPending || d.Attempts != 0 || d.Failures != 0 || !d.NextAttemptAt.Equal(w.now) || d.DeliveredAt != nil {
		t.Fatalf("delivery %+v, want the redelivery's state", d)
	}
}

// workerWorld is the running delivery worker over the in-memory store and
// a Send that blocks for every URL but fast until release is closed.
type workerWorld struct {
	db      *storetest.DB
	outbox  *outbox.Outbox
	release chan struct{}
	fast    chan string // the webhook-id of each request to fast
	mu      sync.Mutex
	held    int // sends blocked now
	maxHeld int
}

func newWorkerWorld(t *testing.T, concurrency int) *workerWorld {
	w := &workerWorld{db: storetest.New(), release: make(chan struct{}), fast: make(chan string, 16)}
	sender := webhookmocks.NewMockSender(t)
	w.outbox = outbox.New(outbox.Deps{Tx: store.Narrow(w.db, outbox.TxStoresOf), Stores: outboxStores(w.db), Sender: sender, Config: outbox.Config{Concurrency: concurrency}})
	secret := webhook.NewSecret()
	w.db.Put(user.User{ID: 11, Role: user.RoleUser, Status: user.StatusActive, WebhookSecret: &secret})
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
	return w
}

// seed stores n deliveries of new events to url that have failed failures
// times, due at due.
func (w *workerWorld) seed(n int, url string, failures int, due time.Time) {
	for i := range n {
		e, _ := webhook.NewEvent(11, webhook.PaymentSuccess, map[string]int{"n": i}, due)
		seedDelivery(w.db, e, webhook.ToCallback, url, failures, due)
	}
}

func (w *workerWorld) heldNow() (int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.held, w.maxHeld
}

// waitHeld waits until n sends are blocked.
func (w *workerWorld) waitHeld(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if held, _ := w.heldNow(); held == n {
			return
		}
	}
	held, _ := w.heldNow()
	t.Fatalf("%d sends held, want %d", held, n)
}

// Polls go on while attempts run, and retries (a backlog to a receiver
// that answers at the last moment) never take the slots kept for first
// attempts: a new event's first attempt starts at once.
func TestFirstAttemptStartsWhileRetriesHoldSlots(t *testing.T) {
	w := newWorkerWorld(t, 4)
	w.seed(20, "https://slow.example/cb", 1, time.Now().Add(-time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { w.outbox.Run(ctx, 2*time.Millisecond); close(stopped) }()
	w.waitHeld(t, 3)
	time.Sleep(20 * time.Millisecond) // several polls with the retry lane full
	e, _ := webhook.NewEvent(11, webhook.PaymentSuccess, map[string]string{"n": "fresh"}, time.Now())
	seedDelivery(w.db, e, webhook.ToCallback, "https://fast.example/cb", 0, time.Now())
	select {
	case id := <-w.fast:
		if id != e.PublicID {
			t.Errorf("sent %s, want the new event %s", id, e.PublicID)
		}
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
	w := newWorkerWorld(t, 2)
	w.seed(10, "https://slow.example/cb", 0, time.Now())
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { w.outbox.Run(ctx, 2*time.Millisecond); close(stopped) }()
	w.waitHeld(t, 2)
	cancel()
	n := w.db.Calls("Webhooks.Claim")
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
	if w.db.Calls("Webhooks.Claim") != n {
		t.Fatal("claimed after shutdown")
	}
	delivered := 0
	for _, d := range w.db.Deliveries() {
		if d.Status == webhook.StatusDelivered {
			delivered++
		} else if d.Attempts != 0 || d.ClaimedUntil != nil {
			t.Errorf("delivery %d: %+v", d.ID, d)
		}
	}
	if delivered != 2 || len(w.db.Attempts()) != 2 || w.db.Calls("Webhooks.Settle") != 2 {
		t.Fatalf("%d delivered, %d attempts, %d settles; want the 2 started", delivered, len(w.db.Attempts()), w.db.Calls("Webhooks.Settle"))
	}
	goleak.VerifyNone(t, before)
}

// settledCounts records WebhookSettled (outbox.Metrics).
type settledCounts struct {
	mu sync.Mutex
	by map[string]int
}

func (m *settledCounts) OutboxBacklog(int64) {}
func (m *settledCounts) WebhookSettled(outcome string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.by[outcome]++
}

// A delivery counts once, when it reaches its final state: a retried
// attempt does not count, the last failing one counts failed, a 2xx
// delivered.
func TestSettledDeliveriesAreCounted(t *testing.T) {
	w := newDeliveryWorld(t)
	m := &settledCounts{by: map[string]int{}}
	w.outbox = outbox.New(outbox.Deps{Tx: store.Narrow(w.db, outbox.TxStoresOf), Stores: outboxStores(w.db), Sender: w.sender, Metrics: m, Now: func() time.Time { return w.now }})
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).Return(webhook.Response{Status: 500}, nil).Once()
	if _, err := w.outbox.Deliver(context.Background(), 10); err != nil || len(m.by) != 0 {
		t.Fatalf("a retried attempt: %v, counted %v", err, m.by)
	}
	last := seedDelivery(w.db, &w.event, webhook.ToWebhook, "https://merchant.example/new-hooks", webhook.MaxAttempts-1, w.now)
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).Return(webhook.Response{Status: 500}, nil).Once()
	if _, err := w.outbox.Deliver(context.Background(), 10); err != nil || m.by["failed"] != 1 || delivery(t, w.db, last.ID).Status != webhook.StatusFailed {
		t.Fatalf("the last attempt: %v, counted %v", err, m.by)
	}
	seedDelivery(w.db, &w.event, webhook.ToWebhook, "https://merchant.example/new-hooks", 0, w.now)
	w.sender.EXPECT().Send(mock.Anything, mock.Anything).Return(webhook.Response{Status: 204}, nil).Once()
	if n, err := w.outbox.Deliver(context.Background(), 10); err != nil || n != 1 || m.by["delivered"] != 1 || m.by["failed"] != 1 {
		t.Fatalf("a 2xx: %d, %v, counted %v", n, err, m.by)
	}
}
