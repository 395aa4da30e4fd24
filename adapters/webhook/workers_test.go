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

	"paygate/adapters/mysqlstore"
	webhookadapter "paygate/adapters/webhook"
	"paygate/core/app"
	"paygate/core/user"
	"paygate/core/webhook"
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
func merchant(t *testing.T, s *mysqlstore.Store, hook string) *user.User {
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

func enqueue(t *testing.T, s *mysqlstore.Store, u *user.User, n int, at time.Time) {
	t.Helper()
	for i := range n {
		e, err := webhook.NewEvent(u.ID, webhook.BalanceLow, map[string]int{"n": i}, at)
		if err != nil {
			t.Fatal(err)
		}
		d := webhook.NewDelivery(e, webhook.ToWebhook, *u.WebhookURL)
		if err := s.WithinTx(context.Background(), func(ctx context.Context, st app.Stores) error {
			return st.Webhooks.Insert(ctx, e, []*webhook.Delivery{d})
		}); err != nil {
			t.Fatal(err)
		}
	}
}

func newWorker(s *mysqlstore.Store, now func() time.Time) *app.App {
	return app.New(app.Deps{Tx: s, Stores: s.Stores(), Webhooks: webhookadapter.New(true), Now: now,
		Config: app.Config{WebhookConcurrency: 4}})
}

// Two instances (two connection pools) deliver from one MariaDB: every
// delivery arrives exactly once, none twice at the same time.
func TestTwoWorkersOnOneMariaDB(t *testing.T) {
	url := testdb.MySQLURL(t)
	open := func() *mysqlstore.Store {
		s, err := mysqlstore.Open(context.Background(), url, slog.New(slog.DiscardHandler))
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
	for i, s := range []*mysqlstore.Store{s1, s2} {
		w := newWorker(s, time.Now)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				n, err := w.DeliverWebhooks(context.Background(), 7)
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
	testdb.Each(t, func(t *testing.T, s *mysqlstore.Store) {
		rcv := newCountingReceiver(t, 0)
		u := merchant(t, s, rcv.srv.URL+"/hooks")
		t0 := time.Now().UTC()
		enqueue(t, s, u, 3, t0)
		// The crashed worker: claimed under its lease, never came back.
		err := s.WithinTx(context.Background(), func(ctx context.Context, st app.Stores) error {
			jobs, err := st.Webhooks.Claim(ctx, t0, t0.Add(app.DefaultWebhookLease), "crashed", 10)
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
		if n, err := w.DeliverWebhooks(context.Background(), 10); n != 0 || err != nil {
			t.Fatalf("within the lease: delivered %d, %v", n, err)
		}
		clock.Store(t0.Add(app.DefaultWebhookLease + time.Second).UnixNano())
		if n, err := w.DeliverWebhooks(context.Background(), 10); n != 3 || err != nil {
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
	testdb.Each(t, func(t *testing.T, s *mysqlstore.Store) {
		var calls atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			calls.Add(1)
			_, _ = w.Write([]byte("r\xe9sum\xe9 \xff\xfe ok"))
		}))
		t.Cleanup(srv.Close)
		u := merchant(t, s, srv.URL+"/hooks")
		enqueue(t, s, u, 1, time.Now().UTC())
		w := newWorker(s, time.Now)
		if n, err := w.DeliverWebhooks(context.Background(), 10); n != 1 || err != nil {
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
