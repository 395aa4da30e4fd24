package eventstore_test

import (
	"context"
	"errors"
	"paygate/core/platform/store"
	"sync"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/core/events/webhook"
	"paygate/internal/testdb"
)

// outboxEvent writes one event of userID with a delivery per destination.
func outboxEvent(t *testing.T, s *sqlstore.Store, userID uint64, typ webhook.EventType, at time.Time, to ...webhook.Destination) (*webhook.Event, []*webhook.Delivery) {
	t.Helper()
	e, err := webhook.NewEvent(userID, typ, map[string]string{"k": "v"}, at)
	if err != nil {
		t.Fatal(err)
	}
	var ds []*webhook.Delivery
	for _, d := range to {
		ds = append(ds, webhook.NewDelivery(e, d, "https://hooks.example/"+string(d)))
	}
	err = s.WithinTx(context.Background(), func(ctx context.Context, st store.Stores) error { return st.Webhooks.Insert(ctx, e, ds) })
	if err != nil || e.ID == 0 {
		t.Fatalf("insert event: %v", err)
	}
	return e, ds
}

func claim(t *testing.T, s *sqlstore.Store, now time.Time, lease time.Duration, token string, limit int) []webhook.Job {
	t.Helper()
	var jobs []webhook.Job
	err := s.WithinTx(context.Background(), func(ctx context.Context, st store.Stores) error {
		var err error
		jobs, err = st.Webhooks.Claim(ctx, now, now.Add(lease), token, limit, webhook.Lane{})
		return err
	})
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return jobs
}

func TestWebhookOutboxStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Webhooks
		t0 := time.Date(2026, 11, 21, 10, 0, 0, 123456000, time.UTC)
		e, ds := outboxEvent(t, s, 11, webhook.PaymentSuccess, t0, webhook.ToWebhook, webhook.ToCallback)
		outboxEvent(t, s, 12, webhook.BalanceLow, t0.Add(time.Hour), webhook.ToWebhook)
		if ds[0].ID == 0 || ds[1].ID == ds[0].ID || ds[0].EventID != e.ID {
			t.Fatalf("deliveries %+v %+v", ds[0], ds[1])
		}
		got, err := repo.ByID(ctx, ds[1].ID)
		if err != nil || got.EventPublicID != e.PublicID || got.Destination != webhook.ToCallback || got.Status != webhook.StatusPending ||
			!got.NextAttemptAt.Equal(t0) || got.URL != "https://hooks.example/callback" {
			t.Fatalf("ByID: %+v %v", got, err)
		}
		if _, err := repo.ByID(ctx, 999999); !errors.Is(err, webhook.ErrNotFound) {
			t.Fatalf("unknown: %v", err)
		}
		if ev, err := repo.Event(ctx, e.ID); err != nil || string(ev.Payload) != string(e.Payload) || ev.Type != webhook.PaymentSuccess {
			t.Fatalf("Event: %+v %v", ev, err)
		}
		if n, err := repo.Backlog(ctx); err != nil || n != 3 {
			t.Fatalf("backlog %d, %v", n, err)
		}

		// Only what is due is claimed, earliest first, and a claimed row is
		// not claimed again while its lease lasts.
		jobs := claim(t, s, t0.Add(time.Second), time.Minute, "tok-a", 10)
		if len(jobs) != 2 || jobs[0].Delivery.ID != ds[0].ID || jobs[0].Event.PublicID != e.PublicID ||
			string(jobs[0].Event.Payload) != string(e.Payload) || jobs[0].Token != "tok-a" || jobs[0].Delivery.EventPublicID != e.PublicID {
			t.Fatalf("claimed %+v", jobs)
		}
		if again := claim(t, s, t0.Add(30*time.Second), time.Minute, "tok-b", 10); len(again) != 0 {
			t.Fatalf("claimed twice within the lease: %+v", again)
		}
		// The worker holding tok-a crashed: after the lease another takes it.
		late := claim(t, s, t0.Add(61*time.Second), time.Minute, "tok-c", 1)
		if len(late) != 1 || late[0].Delivery.ID != ds[0].ID {
			t.Fatalf("after the lease: %+v", late)
		}
		d := late[0].Delivery
		att := webhook.NewAttempt(d.ID, t0.Add(62*time.Second), 120*time.Millisecond, 503, []byte("busy"), nil)
		d.Record(att)
		if err := repo.AddAttempt(ctx, att); err != nil || att.ID == 0 {
			t.Fatalf("AddAttempt: %v", err)
		}
		if ok, err := repo.Settle(ctx, &d, "tok-a"); ok || err != nil {
			t.Fatalf("settled by the lost claim: %v %v", ok, err)
		}
		if ok, err := repo.Settle(ctx, &d, "tok-c"); !ok || err != nil {
			t.Fatalf("settle: %v %v", ok, err)
		}
		got, _ = repo.ByID(ctx, d.ID)
		if got.Status != webhook.StatusPending || got.Attempts != 1 || got.Failures != 1 || *got.LastStatusCode != 503 ||
			*got.LastError != "answered HTTP 503" || got.ClaimedUntil != nil || !got.NextAttemptAt.Equal(t0.Add(62*time.Second+time.Minute)) {
			t.Fatalf("after a failed attempt: %+v", got)
		}
		as, err := repo.Attempts(ctx, d.ID, 10)
		if err != nil || len(as) != 1 || *as[0].StatusCode != 503 || as[0].Response != "busy" || as[0].LatencyMs != 120 || as[0].Error != "answered HTTP 503" {
			t.Fatalf("attempts %+v %v", as, err)
		}

		// A redelivery asked while an attempt runs: the attempt keeps its
		// lease but its outcome is not written.
		cb := claim(t, s, t0.Add(2*time.Minute), time.Minute, "tok-d", 10)
		if len(cb) != 1 || cb[0].Delivery.ID != ds[1].ID {
			t.Fatalf("claim callback: %+v", cb)
		}
		r := cb[0].Delivery
		r.Redeliver(t0.Add(2 * time.Minute))
		if err := repo.Redeliver(ctx, &r); err != nil {
			t.Fatal(err)
		}
		if again := claim(t, s, t0.Add(2*time.Minute+time.Second), time.Minute, "tok-e", 10); len(again) != 0 {
			t.Fatalf("redelivered during a running attempt: %+v", again)
		}
		done := cb[0].Delivery
		done.Record(webhook.NewAttempt(done.ID, t0.Add(2*time.Minute), time.Millisecond, 200, nil, nil))
		if ok, err := repo.Settle(ctx, &done, "tok-d"); ok || err != nil {
			t.Fatalf("settled over a redelivery: %v %v", ok, err)
		}
		// (The webhook delivery's retry is due by then too.)
		if again := claim(t, s, t0.Add(3*time.Minute+time.Second), time.Minute, "tok-f", 10); len(again) != 2 || again[0].Delivery.ID != ds[1].ID {
			t.Fatalf("redelivery after the lease: %+v", again)
		}

		// Lists: newest first, filtered.
		all, total, err := repo.List(ctx, webhook.Filter{Page: 1, PerPage: 10})
		if err != nil || total != 3 || len(all) != 3 || all[0].EventType != webhook.BalanceLow || all[2].EventPublicID != e.PublicID {
			t.Fatalf("list %+v %d %v", all, total, err)
		}
		u11 := uint64(11)
		for _, c := range []struct {
			f    webhook.Filter
			want int64
		}{
			{webhook.Filter{UserID: &u11}, 2},
			{webhook.Filter{EventType: webhook.BalanceLow}, 1},
			{webhook.Filter{Status: webhook.StatusDelivered}, 0},
			{webhook.Filter{From: ptr(t0.Add(time.Minute))}, 1},
			{webhook.Filter{To: ptr(t0.Add(time.Minute))}, 2},
		} {
			if _, n, err := repo.List(ctx, c.f); err != nil || n != c.want {
				t.Fatalf("list %+v: %d, %v; want %d", c.f, n, err, c.want)
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

// Two workers claiming at once never get the same delivery (SKIP LOCKED on
// MySQL, one writer at a time on SQLite), and between them claim all.
func TestWebhookClaimsAreDisjoint(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		const events = 40
		for i := range events {
			outboxEvent(t, s, 11, webhook.BalanceLow, t0.Add(time.Duration(i)*time.Millisecond), webhook.ToWebhook)
		}
		var mu sync.Mutex
		seen := map[uint64]int{}
		var wg sync.WaitGroup
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					var jobs []webhook.Job
					err := s.WithinTx(context.Background(), func(ctx context.Context, st store.Stores) error {
						var err error
						jobs, err = st.Webhooks.Claim(ctx, t0.Add(time.Second), t0.Add(time.Hour), string(rune('a'+w)), 3, webhook.Lane{})
						return err
					})
					if err != nil {
						t.Errorf("claim: %v", err)
						return
					}
					if len(jobs) == 0 {
						return
					}
					mu.Lock()
					for _, j := range jobs {
						seen[j.Delivery.ID]++
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(seen) != events {
			t.Fatalf("claimed %d of %d", len(seen), events)
		}
		for id, n := range seen {
			if n != 1 {
				t.Fatalf("delivery %d claimed %d times", id, n)
			}
		}
	})
}

// HasDue sees exactly what Claim would take: nothing before it is due,
// nothing while claimed, a due delivery once the lease has ended.
func TestWebhookHasDue(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Webhooks
		t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		due := func(at time.Time) bool {
			t.Helper()
			ok, err := repo.HasDue(ctx, at, webhook.Lane{})
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if due(t0) {
			t.Fatal("an empty outbox has something due")
		}
		outboxEvent(t, s, 11, webhook.BalanceLow, t0.Add(time.Second), webhook.ToWebhook)
		if due(t0) || !due(t0.Add(time.Second)) {
			t.Fatal("due before its time, or not at it")
		}
		if jobs := claim(t, s, t0.Add(time.Second), time.Minute, "a", 10); len(jobs) != 1 {
			t.Fatalf("claimed %d", len(jobs))
		}
		if due(t0.Add(30*time.Second)) || !due(t0.Add(61*time.Second)) {
			t.Fatal("due while claimed, or not after the lease")
		}
	})
}

// The first-attempt lane takes only deliveries that have not failed since
// they were scheduled and became due within its window; the whole lane
// takes the rest too.
func TestWebhookFirstAttemptLane(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Webhooks
		t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		_, old := outboxEvent(t, s, 11, webhook.BalanceLow, t0, webhook.ToWebhook)
		_, failed := outboxEvent(t, s, 11, webhook.BalanceLow, t0, webhook.ToWebhook)
		// failed[0] had one attempt that failed; its retry is due at t0+2m.
		jobs := claim(t, s, t0, time.Minute, "x", 10)
		if len(jobs) != 2 {
			t.Fatalf("claimed %d", len(jobs))
		}
		for _, j := range jobs {
			d := j.Delivery
			if d.ID != failed[0].ID {
				continue
			}
			d.Record(webhook.NewAttempt(d.ID, t0.Add(time.Minute), time.Millisecond, 500, nil, nil))
			if ok, err := repo.Settle(ctx, &d, "x"); !ok || err != nil {
				t.Fatalf("settle: %v %v", ok, err)
			}
		}
		if err := repo.Release(ctx, []uint64{old[0].ID}, "x"); err != nil {
			t.Fatal(err)
		}
		_, fresh := outboxEvent(t, s, 12, webhook.PaymentSuccess, t0.Add(2*time.Minute), webhook.ToWebhook)
		now := t0.Add(2*time.Minute + time.Second)
		lane := webhook.FirstAttempts(now.Add(-time.Minute))
		if ok, err := repo.HasDue(ctx, now, lane); !ok || err != nil {
			t.Fatalf("first attempt not due: %v %v", ok, err)
		}
		got := claim2(t, s, now, "y", lane)
		if len(got) != 1 || got[0].Delivery.ID != fresh[0].ID {
			t.Fatalf("first-attempt lane claimed %+v", got)
		}
		// Left: the retry and the first attempt older than the window.
		if ok, err := repo.HasDue(ctx, now, lane); ok || err != nil {
			t.Fatalf("first-attempt lane still due: %v %v", ok, err)
		}
		rest := claim2(t, s, now, "z", webhook.Lane{})
		if len(rest) != 2 || rest[0].Delivery.ID != old[0].ID || rest[1].Delivery.ID != failed[0].ID {
			t.Fatalf("whole lane claimed %+v", rest)
		}
	})
}

func claim2(t *testing.T, s *sqlstore.Store, now time.Time, token string, lane webhook.Lane) []webhook.Job {
	t.Helper()
	var jobs []webhook.Job
	err := s.WithinTx(context.Background(), func(ctx context.Context, st store.Stores) error {
		var err error
		jobs, err = st.Webhooks.Claim(ctx, now, now.Add(time.Minute), token, 10, lane)
		return err
	})
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return jobs
}

// Release ends a claim at once (the worker did not start those attempts)
// but only its own: a claim taken since, or dropped by a redelivery, stays.
func TestWebhookReleaseOfSkippedClaims(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Webhooks
		t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		_, a := outboxEvent(t, s, 11, webhook.BalanceLow, t0, webhook.ToWebhook)
		_, b := outboxEvent(t, s, 11, webhook.BalanceLow, t0, webhook.ToWebhook)
		if jobs := claim(t, s, t0, time.Minute, "mine", 10); len(jobs) != 2 {
			t.Fatalf("claimed %d", len(jobs))
		}
		if err := repo.Release(ctx, []uint64{a[0].ID, b[0].ID}, "someone-else"); err != nil {
			t.Fatal(err)
		}
		if ok, _ := repo.HasDue(ctx, t0.Add(time.Second), webhook.Lane{}); ok {
			t.Fatal("another token's release ended the claim")
		}
		if err := repo.Release(ctx, []uint64{a[0].ID}, "mine"); err != nil {
			t.Fatal(err)
		}
		got, err := repo.ByID(ctx, a[0].ID)
		if err != nil || got.ClaimedUntil != nil || got.Status != webhook.StatusPending || got.Attempts != 0 {
			t.Fatalf("released: %+v %v", got, err)
		}
		// Due again at once, well within the lease; b is still claimed.
		again := claim(t, s, t0.Add(time.Second), time.Minute, "next", 10)
		if len(again) != 1 || again[0].Delivery.ID != a[0].ID {
			t.Fatalf("after release: %+v", again)
		}
		if err := repo.Release(ctx, nil, "mine"); err != nil {
			t.Fatal(err)
		}
	})
}
