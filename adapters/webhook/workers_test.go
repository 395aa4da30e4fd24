package webhook_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	webhookadapter "paygate/adapters/webhook"
	"paygate/core/accounts/user"
	"paygate/core/events/outbox"
	"paygate/core/events/webhook"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

// countingReceiver counts the requests per webhook-id and notes any that
// arrives while another with the same id is still being answered.
type countingReceiver struct {
	srv        *httptest.Server
	mu         sync.Mutex
	inFlight   map[string]bool
	count      map[string]int
	concurrent atomic.Int64
}

func newCountingReceiver(t *testing.T, delay time.Duration) *countingReceiver {
	r := &countingReceiver{inFlight: map[string]bool{}, count: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		id := req.Header.Get("webhook-id")
		r.mu.Lock()
		if r.inFlight[id] {
			r.concurrent.Add(1)
		}
		r.inFlight[id] = true
		r.count[id]++
		r.mu.Unlock()
		time.Sleep(delay) // widen the window in which a second send would overlap
		r.mu.Lock()
		r.inFlight[id] = false
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// merchant creates an active user with a webhook_url and a secret.
func merchant(t *testing.T, s *sqlstore.Store, hook string) *user.User {
	t.Helper()
	secret := webhook.NewSecret()
	u := &user.User{Name: "Shop", Email: "shop@example.com", Phone: "9000000001", PasswordHash: "$2a$10$x", Role: user.RoleUser,
		Status: user.StatusActive, Plan: user.PlanStarter, Balance: decimal.Zero, TotalSpent: decimal.Zero,
		WebhookURL: &hook, WebhookSecret: &secret}
	if err := s.Stores().Users.Create(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func enqueue(t *testing.T, s *sqlstore.Store, u *user.User, n int, at time.Time) {
	t.Helper()
	for i := range n {
		e, err := webhook.NewEvent(u.ID, webhook.BalanceLow, map[string]int{"n": i}, at)
		if err != nil {
			t.Fatal(err)
		}
		d := webhook.NewDelivery(e, webhook.ToWebhook, *u.WebhookURL)
		if err := s.WithinTx(context.Background(), func(ctx context.Context, st store.Stores) error {
			return st.Webhooks.Insert(ctx, e, []*webhook.Delivery{d})
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// outboxStores are the repositories the outbox reads outside a transaction.
func outboxStores(st store.Stores) outbox.Stores {
	return outbox.Stores{Webhooks: st.Webhooks, Users: st.Users}
}

func newWorker(s *sqlstore.Store, now func() time.Time) *outbox.Outbox {
	return outbox.New(outbox.Deps{Tx: store.Narrow(s, outbox.TxStoresOf), Stores: outboxStores(s.Stores()), Sender: webhookadapter.New(true), Now: now,
		Config: outbox.Config{Concurrency: 4}})
}

// Two instances (two connection pools) deliver from one MariaDB: every
// delivery arrives exactly once, none twice at the same time.
func TestTwoWorkersOnOneMariaDB(t *testing.T) {
	url := testdb.MySQLURL(t)
	open := func() *sqlstore.Store {
		s, err := sqlstore.Open(context.Background(), url, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatalf("MariaDB: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s1, s2 := open(), open()
	rcv := newCountingReceiver(t, 15*time.Millisecond)
	u := merchant(t, s1, rcv.srv.URL+"/hooks")
	const events = 80
	enqueue(t, s1, u, events, time.Now())

	var wg sync.WaitGroup
	var byWorker [2]atomic.Int64
	deadline := time.Now().Add(30 * time.Second)
	for i, s := range []*sqlstore.Store{s1, s2} {
		w := newWorker(s, time.Now)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				n, err := w.Deliver(context.Background(), 7)
				if err != nil {
					t.Errorf("worker %d: %v", i, err)
					return
				}
				byWorker[i].Add(int64(n))
				left, err := s.Stores().Webhooks.Backlog(context.Background())
				if err != nil || left == 0 {
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	if c := rcv.concurrent.Load(); c != 0 {
		t.Fatalf("%d deliveries were sent twice at the same time", c)
	}
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if len(rcv.count) != events {
		t.Fatalf("received %d distinct events of %d", len(rcv.count), events)
	}
	for id, n := range rcv.count {
		if n != 1 {
			t.Fatalf("%s received %d times", id, n)
		}
	}
	if got := byWorker[0].Load() + byWorker[1].Load(); got != events {
		t.Fatalf("workers report %d delivered, want %d", got, events)
	}
	t.Logf("worker 1 delivered %d, worker 2 %d", byWorker[0].Load(), byWorker[1].Load())
}

// A worker that claimed deliveries and died (its claim is never settled)
// holds them only until its lease ends; then another worker sends them.
func TestClaimOfACrashedWorkerExpires(t *testing.T) {
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		rcv := newCountingReceiver(t, 0)
		u := merchant(t, s, rcv.srv.URL+"/hooks")
		t0 := time.Now().UTC()
		enqueue(t, s, u, 3, t0)
		// The crashed worker: claimed under its lease, never came back.
		err := s.WithinTx(context.Background(), func(ctx context.Context, st store.Stores) error {
			jobs, err := st.Webhooks.Claim(ctx, t0, t0.Add(outbox.DefaultLease), "crashed", 10, webhook.Lane{})
			if len(jobs) != 3 {
				return fmt.Errorf("claimed %d", len(jobs))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		var clock atomic.Int64
		clock.Store(t0.Add(30 * time.Second).UnixNano())
		w := newWorker(s, func() time.Time { return time.Unix(0, clock.Load()) })
		if n, err := w.Deliver(context.Background(), 10); n != 0 || err != nil {
			t.Fatalf("within the lease: delivered %d, %v", n, err)
		}
		clock.Store(t0.Add(outbox.DefaultLease + time.Second).UnixNano())
		if n, err := w.Deliver(context.Background(), 10); n != 3 || err != nil {
			t.Fatalf("after the lease: delivered %d, %v", n, err)
		}
		if left, _ := s.Stores().Webhooks.Backlog(context.Background()); left != 0 || len(rcv.count) != 3 {
			t.Fatalf("backlog %d, received %d", left, len(rcv.count))
		}
	})
}

// A receiver whose answer is not UTF-8 (binary, Latin-1) is delivered like
// any other: the attempt's snippet is stored (MySQL refuses invalid UTF-8
// in a utf8mb4 column, which failed the record and resent the event every
// lease, forever).
func TestAnswerThatIsNotUTF8IsRecorded(t *testing.T) {
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		var calls atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			calls.Add(1)
			_, _ = w.Write([]byte("r\xe9sum\xe9 \xff\xfe ok"))
		}))
		t.Cleanup(srv.Close)
		u := merchant(t, s, srv.URL+"/hooks")
		enqueue(t, s, u, 1, time.Now().UTC())
		w := newWorker(s, time.Now)
		if n, err := w.Deliver(context.Background(), 10); n != 1 || err != nil {
			t.Fatalf("delivered %d, %v", n, err)
		}
		ds, _, err := s.Stores().Webhooks.List(context.Background(), webhook.Filter{Page: 1, PerPage: 10})
		if err != nil || len(ds) != 1 || ds[0].Status != webhook.StatusDelivered {
			t.Fatalf("deliveries %+v, %v", ds, err)
		}
		att, err := s.Stores().Webhooks.Attempts(context.Background(), ds[0].ID, 10)
		if err != nil || len(att) != 1 || att[0].Response != "r\uFFFDsum\uFFFD \uFFFD ok" {
			t.Fatalf("attempts %+v, %v", att, err)
		}
		if calls.Load() != 1 {
			t.Fatalf("%d calls", calls.Load())
		}
	})
}

// heldReceiver answers each request only when release is closed (or after
// hold: a receiver that answers near the end of the timeout); it counts
// the requests it holds.
type heldReceiver struct {
	srv     *httptest.Server
	release chan struct{}
	held    atomic.Int64
}

func newHeldReceiver(t *testing.T, hold time.Duration) *heldReceiver {
	r := &heldReceiver{release: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		r.held.Add(1)
		defer r.held.Add(-1)
		select {
		case <-r.release:
		case <-time.After(hold):
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// A receiver that answers at the end of the timeout holds several
// deliveries open (first attempts, or a backlog of retries larger than
// the worker's slots) while a new event for another, fast receiver is
// committed: its first attempt starts at the next poll, not after the
// slow attempts (within 5 s of the commit; here the
// durations are scaled down: a 3 s timeout, 20 ms polls, a 1 s bound).
func TestFirstAttemptIsNotHeldBySlowReceivers(t *testing.T) {
	for _, c := range []struct {
		name    string
		slow    int  // deliveries to the slow receiver
		retries bool // they failed once and are due again
		held    int  // attempts the slow receiver holds at once
	}{
		{"first attempts", 3, false, 3},
		{"retry backlog", 8, true, 3}, // 4 slots, one kept for first attempts
	} {
		t.Run(c.name, func(t *testing.T) {
			testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
				const timeout, bound = 3 * time.Second, time.Second
				slow := newHeldReceiver(t, timeout-500*time.Millisecond)
				fast := newCountingReceiver(t, 0)
				su := merchant(t, s, slow.srv.URL+"/hooks")
				fu := &user.User{Name: "Fast", Email: "fast@example.com", Phone: "9000000002", PasswordHash: "$2a$10$x",
					Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter, Balance: decimal.Zero, TotalSpent: decimal.Zero,
					WebhookURL: ptr(fast.srv.URL + "/hooks"), WebhookSecret: ptr(webhook.NewSecret())}
				if err := s.Stores().Users.Create(context.Background(), fu); err != nil {
					t.Fatal(err)
				}
				var offset atomic.Int64 // the business clock runs ahead of the real one
				clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
				enqueue(t, s, su, c.slow, clock())
				if c.retries {
					failOnce(t, s, clock(), c.slow)
					offset.Store(int64(time.Minute + time.Second))
				}
				w := outbox.New(outbox.Deps{Tx: store.Narrow(s, outbox.TxStoresOf), Stores: outboxStores(s.Stores()), Sender: webhookadapter.New(true), Now: clock,
					Config: outbox.Config{Timeout: timeout, Concurrency: 4}})
				ctx, cancel := context.WithCancel(context.Background())
				stopped := make(chan struct{})
				go func() { w.Run(ctx, 20*time.Millisecond); close(stopped) }()
				defer func() {
					close(slow.release)
					cancel()
					<-stopped
				}()
				for deadline := time.Now().Add(5 * time.Second); slow.held.Load() < int64(c.held); time.Sleep(5 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("the slow receiver holds %d requests, want %d", slow.held.Load(), c.held)
					}
				}
				committed := time.Now()
				enqueue(t, s, fu, 1, clock())
				for fast.received() == 0 && time.Since(committed) < 2*bound {
					time.Sleep(5 * time.Millisecond)
				}
				took := time.Since(committed)
				if fast.received() == 0 || took > bound {
					t.Fatalf("first attempt of the new event after %s (received %d), want within %s while %d slow attempts run",
						took.Round(time.Millisecond), fast.received(), bound, slow.held.Load())
				}
				if held := slow.held.Load(); held != int64(c.held) {
					t.Fatalf("the slow receiver holds %d requests, want %d", held, c.held)
				}
				t.Logf("first attempt %s after the commit", took.Round(time.Millisecond))
			})
		})
	}
}

func ptr[T any](v T) *T { return &v }

func (r *countingReceiver) received() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.count)
}

// failOnce records a failed attempt at each of the n due deliveries: their
// retries are due a minute after now.
func failOnce(t *testing.T, s *sqlstore.Store, now time.Time, n int) {
	t.Helper()
	var jobs []webhook.Job
	err := s.WithinTx(context.Background(), func(ctx context.Context, st store.Stores) error {
		var err error
		jobs, err = st.Webhooks.Claim(ctx, now, now.Add(time.Minute), "setup", n, webhook.Lane{})
		return err
	})
	if err != nil || len(jobs) != n {
		t.Fatalf("claimed %d of %d: %v", len(jobs), n, err)
	}
	for _, j := range jobs {
		d := j.Delivery
		d.Record(webhook.NewAttempt(d.ID, now, time.Millisecond, 503, nil, nil))
		if ok, err := s.Stores().Webhooks.Settle(context.Background(), &d, "setup"); !ok || err != nil {
			t.Fatalf("settle: %v %v", ok, err)
		}
	}
}

// Deliveries claimed but not started (the lease could end during the
// attempt: here the clock jumps while claiming) are released at once, not
// left claimed until their lease ends.
func TestSkippedClaimsAreReleased(t *testing.T) {
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		rcv := newCountingReceiver(t, 0)
		u := merchant(t, s, rcv.srv.URL+"/hooks")
		t0 := time.Now().UTC()
		enqueue(t, s, u, 3, t0)
		stalled := t0.Add(outbox.DefaultLease - outbox.DefaultTimeout)
		var calls atomic.Int64
		clock := func() time.Time { // the poll's time, then a stalled claim's
			if calls.Add(1) == 1 {
				return t0
			}
			return stalled
		}
		w := newWorker(s, clock)
		if n, err := w.Deliver(context.Background(), 10); n != 0 || err != nil {
			t.Fatalf("delivered %d, %v", n, err)
		}
		if len(rcv.count) != 0 {
			t.Fatalf("sent %d", len(rcv.count))
		}
		// Within the lease, the three are due again.
		if due, err := s.Stores().Webhooks.HasDue(context.Background(), stalled, webhook.Lane{}); !due || err != nil {
			t.Fatalf("skipped claims still held: due %v, %v", due, err)
		}
		w = newWorker(s, func() time.Time { return stalled })
		if n, err := w.Deliver(context.Background(), 10); n != 3 || err != nil {
			t.Fatalf("after release: delivered %d, %v", n, err)
		}
	})
}
