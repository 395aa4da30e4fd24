package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"paygate/core/metering"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

// onMySQL runs fn as the subtest "mysql" (make test-mysql runs -run /mysql)
// on a store from openCounted.
func onMySQL(t *testing.T, fn func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64)) {
	t.Run("mysql", func(t *testing.T) {
		s, trips := openCounted(t)
		if !s.ConsecutiveIDs() {
			// A Galera node: auto_increment_increment is the cluster size,
			// so the batch reads the hits' ids back and has no BatchInserts
			// (the "without consecutive ids" case of these tests).
			t.Skip("this server's multi-row INSERTs do not take consecutive ids")
		}
		fn(t, s, trips)
	})
}

// openCounted opens a migrated MySQL store whose batch transactions count
// their round trips.
func openCounted(t *testing.T) (*sqlstore.Store, *atomic.Int64) {
	t.Helper()
	url := testdb.MySQLURL(t)
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, url, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	n, err := s.CountBatchRoundTrips(url)
	if err != nil {
		t.Fatal(err)
	}
	return s, n
}

// reservation is a metering batch as the writer builds it: hits (the
// charged ones pending, the others refused), a debit per charged hit
// referencing it, and a refund that carries its own reference.
type reservation struct {
	hits    []*hitlog.Hit
	entries []*ledger.Entry
	hitOf   []int
	users   []*user.User
}

// newReservation makes n hits spread over users; every third is refused
// (no debit); payload(i) is hit i's request payload.
func newReservation(t *testing.T, s *sqlstore.Store, users []*user.User, n int, payload func(i int) string) *reservation {
	t.Helper()
	svc := sqltest.NewService(t, s)
	keys := map[uint64]uint64{}
	for _, u := range users {
		keys[u.ID] = sqltest.NewKey(t, s, u).ID
	}
	r := &reservation{users: users}
	refundOf := uint64(1 << 40) // a settled hit of an earlier batch
	r.entries = append(r.entries, &ledger.Entry{UserID: users[0].ID, TxnID: ledger.NewTxnID(time.Now()), Type: ledger.Refund,
		Amount: decimal.RequireFromString("0.00"), ReferenceType: ledger.RefAPIHit, ReferenceID: &refundOf,
		Description: "refund", Status: "completed", CreatedAt: time.Now().UTC()})
	r.hitOf = append(r.hitOf, -1)
	for i := 0; i < n; i++ {
		u := users[i%len(users)]
		status := hitlog.StatusPending
		if i%3 == 2 {
			status = hitlog.StatusFailed
		}
		h := sqltest.BatchHit(u.ID, svc.ID, keys[u.ID], status, payload(i))
		r.hits = append(r.hits, h)
		if status == hitlog.StatusPending {
			r.entries = append(r.entries, &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(time.Now()), Type: ledger.Debit,
				Amount: decimal.RequireFromString("0.00"), ReferenceType: ledger.RefAPIHit,
				Description: fmt.Sprintf("API call %d", i), Status: "completed", CreatedAt: time.Now().UTC()})
			r.hitOf = append(r.hitOf, i)
		}
	}
	return r
}

// write runs the reservation in one batch transaction as the writer does
// (lock and count, insert, balances, commit), with then (if any) between
// the inserts and the balances; it returns the round trips it took.
func (r *reservation) write(t *testing.T, s *sqlstore.Store, trips *atomic.Int64, then func(ctx context.Context, st metering.TxStores) error) (int64, error) {
	t.Helper()
	before := trips.Load()
	err := s.WithinBatchTx(context.Background(), func(ctx context.Context, st metering.BatchStores) error {
		if st.Inserts == nil {
			return errors.New("no BatchInserts on a MySQL whose inserts take consecutive ids")
		}
		ids := make([]uint64, len(r.users))
		for i, u := range r.users {
			ids[i] = u.ID
		}
		locked, _, err := st.Locks.LockAndCount(ctx, ids, nil, time.Now().UTC())
		if err != nil {
			return err
		}
		if err := st.Inserts.Insert(ctx, r.hits, r.entries, r.hitOf); err != nil {
			return err
		}
		if then != nil {
			if err := then(ctx, st.TxStores); err != nil {
				return err
			}
		}
		for _, u := range locked {
			if err := st.Users.SaveBalance(ctx, u); err != nil {
				return err
			}
		}
		return nil
	})
	return trips.Load() - before, err
}

// check fails unless every hit and entry of r is stored with the ids r
// carries: each hit's row has its id, each debit references its hit's id.
func (r *reservation) check(t *testing.T, s *sqlstore.Store) {
	t.Helper()
	ctx := context.Background()
	seen := map[uint64]bool{}
	for i, h := range r.hits {
		got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
		if err != nil || h.ID == 0 || got.ID != h.ID || got.Status != h.Status || got.RequestPayload != h.RequestPayload {
			t.Fatalf("hit %d: id %d, stored %+v, %v", i, h.ID, got, err)
		}
		seen[h.ID] = true
	}
	if len(seen) != len(r.hits) {
		t.Fatalf("%d distinct ids for %d hits", len(seen), len(r.hits))
	}
	stored := map[string]ledger.Entry{}
	for _, u := range r.users {
		err := s.Stores().Ledger.ForEachByUser(ctx, u.ID, func(e ledger.Entry) error { stored[e.TxnID] = e; return nil })
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range r.entries {
		want := uint64(1 << 40)
		if k := r.hitOf[i]; k >= 0 {
			want = r.hits[k].ID
		}
		got, ok := stored[e.TxnID]
		if !ok {
			t.Fatalf("entry %d (%s) not stored", i, e.Description)
		}
		if e.ReferenceID == nil || *e.ReferenceID != want || got.ReferenceID == nil || *got.ReferenceID != want {
			t.Fatalf("entry %d (%s): reference %s, stored %s, want %d", i, e.Description, refString(e.ReferenceID), refString(got.ReferenceID), want)
		}
	}
}

func refString(id *uint64) string {
	if id == nil {
		return "none"
	}
	return fmt.Sprint(*id)
}

// absent fails if anything of r was stored, or r still carries ids.
func (r *reservation) absent(t *testing.T, s *sqlstore.Store) {
	t.Helper()
	ctx := context.Background()
	for i, h := range r.hits {
		if h.ID != 0 {
			t.Fatalf("hit %d keeps id %d after a failed batch", i, h.ID)
		}
		if _, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("hit %d of a failed batch: %v", i, err)
		}
	}
	for i, e := range r.entries {
		if r.hitOf[i] >= 0 && e.ReferenceID != nil {
			t.Fatalf("entry %d keeps reference %d after a failed batch", i, *e.ReferenceID)
		}
	}
	ours := map[string]bool{}
	for _, e := range r.entries {
		ours[e.TxnID] = true
	}
	for _, u := range r.users {
		err := s.Stores().Ledger.ForEachByUser(ctx, u.ID, func(e ledger.Entry) error {
			if ours[e.TxnID] {
				return fmt.Errorf("ledger row %s of a failed batch", e.Description)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("user %d: %v", u.ID, err)
		}
	}
}

func small(int) string { return `{}` }

// On MySQL with consecutive ids a reservation batch is two round trips:
// the locks and counts, then the hit rows, the ledger rows (their
// reference_id taken from the hits' first id in the database), the
// balances and the COMMIT; one when the instance's snapshots of the users'
// rows let it skip the read (the batches after the first). The hits get
// their ids only when that query has run; the ledger rows reference
// exactly those ids, also when the hits take several INSERTs (more rows
// than one statement carries).
func TestBatchInsertsTwoRoundTrips(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		funded := func(u *user.User) { u.Balance = decimal.RequireFromString("100.00") }
		users := []*user.User{sqltest.NewUser(t, s, funded), sqltest.NewUser(t, s, funded)}

		for _, n := range []int{1, 30, 450} { // 450: three hit INSERTs of at most 200 rows
			t.Run(fmt.Sprintf("%d hits", n), func(t *testing.T) {
				r := newReservation(t, s, users, n, small)
				deferred := true
				got, err := r.write(t, s, trips, func(context.Context, metering.TxStores) error {
					deferred = r.hits[0].ID == 0 && r.entries[1].ReferenceID == nil
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				want := int64(1) // from the snapshots the first batch left
				if n == 1 {
					want = 2
				}
				if got != want {
					t.Fatalf("%d round trips, want %d", got, want)
				}
				if !deferred {
					t.Fatal("the hits had ids before their INSERT was sent")
				}
				r.check(t, s)
			})
		}

		t.Run("without consecutive ids, inserts statement by statement (the hits first)", func(t *testing.T) {
			other, _ := openCounted(t)
			other.ReadBackIDs()
			err := other.WithinBatchTx(context.Background(), func(_ context.Context, st metering.BatchStores) error {
				if sqlstore.OneExchangeInserts(st.Inserts) {
					return errors.New("BatchInserts without consecutive ids")
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	})
}

// Hit rows too large to travel together (each call's request body up to 1
// MiB) are sent as the deferred query grows, before the next INSERT: each
// query stays well under max_allowed_packet, ids and references stay
// right, and only those large batches take more round trips.
func TestBatchInsertsLargePayloads(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		funded := func(u *user.User) { u.Balance = decimal.RequireFromString("100.00") }
		users := []*user.User{sqltest.NewUser(t, s, funded)}
		big := `{"x":"` + strings.Repeat(`a"b`, 300_000) + `"}` // ~0.9 MB, ~1.2 MB escaped
		r := newReservation(t, s, users, 24, func(i int) string {
			if i%2 == 0 {
				return big
			}
			return `{}`
		})
		got, err := r.write(t, s, trips, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got < 4 || got > 10 {
			t.Fatalf("%d round trips for ~14 MB of hit rows (escaped), want a query per 4 MiB or less", got)
		}
		r.check(t, s)
	})
}

// A batch that fails leaves nothing: no hit, no ledger row, no balance
// change, and no ids on the hits or references on the entries, whether the
// database refuses a deferred statement with the COMMIT, the hit INSERT
// itself, or the function fails after a statement already sent the
// deferred rows (and gave the hits ids).
func TestBatchInsertsFailureLeavesNothing(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		ctx := context.Background()
		funded := func(u *user.User) { u.Balance = decimal.RequireFromString("10.00") }
		balance := func(u *user.User) string {
			got, err := s.Stores().Users.ByID(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got.Balance.StringFixed(2)
		}

		t.Run("a balance refused at the COMMIT", func(t *testing.T) {
			u := sqltest.NewUser(t, s, funded)
			r := newReservation(t, s, []*user.User{u}, 5, small)
			_, err := r.write(t, s, trips, func(ctx context.Context, st metering.TxStores) error {
				bad := *u
				bad.Balance = decimal.RequireFromString("-1.00") // the CHECK refuses it, with the COMMIT
				return st.Users.SaveBalance(ctx, &bad)
			})
			if err == nil {
				t.Fatal("no error for a negative balance")
			}
			r.absent(t, s)
			if balance(u) != "10.00" {
				t.Fatalf("balance %s", balance(u))
			}
		})

		t.Run("a hit INSERT refused", func(t *testing.T) {
			u := sqltest.NewUser(t, s, funded)
			r := newReservation(t, s, []*user.User{u}, 5, small)
			dup := newReservation(t, s, []*user.User{u}, 1, small)
			if _, err := dup.write(t, s, trips, nil); err != nil {
				t.Fatal(err)
			}
			dupID := dup.hits[0].ID
			r.hits[4].RequestID = dup.hits[0].RequestID // unique: the INSERT fails
			if _, err := r.write(t, s, trips, nil); err == nil {
				t.Fatal("no error for a duplicate request id")
			}
			r.hits[4].RequestID = "req_never_stored"
			r.absent(t, s)
			if got, err := s.Stores().Hits.ByRequestID(ctx, dup.hits[0].RequestID); err != nil || got.ID != dupID {
				t.Fatalf("the earlier hit: %+v, %v", got, err)
			}
		})

		t.Run("the function fails after the rows were sent", func(t *testing.T) {
			u := sqltest.NewUser(t, s, funded)
			r := newReservation(t, s, []*user.User{u}, 5, small)
			boom := errors.New("boom")
			_, err := r.write(t, s, trips, func(ctx context.Context, st metering.TxStores) error {
				if _, err := st.Users.ByID(ctx, u.ID); err != nil { // a read sends what was deferred
					return err
				}
				if r.hits[0].ID == 0 {
					return errors.New("no hit id after the deferred rows were sent")
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			r.absent(t, s)
		})

		t.Run("the pool's sessions stay clean", func(t *testing.T) {
			for i := 0; i < 3; i++ {
				r := newReservation(t, s, []*user.User{sqltest.NewUser(t, s, funded)}, 3, small)
				if _, err := r.write(t, s, trips, nil); err != nil {
					t.Fatal(err)
				}
				r.check(t, s)
			}
		})
	})
}

// A statement whose result the batch reads (the balance.low event that
// alertLowBalance writes to the outbox) first sends the deferred hit and
// ledger rows: the hits have their ids when it returns, the event is
// written in the same transaction, and nothing else is sent before the
// COMMIT.
func TestBatchInsertsThenOutboxEvent(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s, func(u *user.User) {
			u.Balance = decimal.RequireFromString("10.00")
			hook := "https://hooks.example/low"
			u.WebhookURL = &hook
		})
		r := newReservation(t, s, []*user.User{u}, 4, small)
		var (
			event              *webhook.Event
			outboxTrips, reads int64
		)
		got, err := r.write(t, s, trips, func(ctx context.Context, st metering.TxStores) error {
			e, err := webhook.NewEvent(u.ID, webhook.BalanceLow, map[string]string{"balance": "9.00"}, time.Now())
			if err != nil {
				return err
			}
			before := trips.Load()
			if err := st.Webhooks.Insert(ctx, e, []*webhook.Delivery{webhook.NewDelivery(e, webhook.ToWebhook, *u.WebhookURL)}); err != nil {
				return err
			}
			outboxTrips = trips.Load() - before // the deferred rows, then the event's statements
			event = e
			defer func(before int64) { reads = trips.Load() - before }(trips.Load())
			for i, h := range r.hits {
				if h.ID == 0 {
					return fmt.Errorf("hit %d has no id after the outbox insert", i)
				}
				stored, err := st.Hits.ByRequestID(ctx, h.RequestID)
				if err != nil || stored.ID != h.ID {
					return fmt.Errorf("hit %d: id %d, in the transaction %+v, %v", i, h.ID, stored, err)
				}
			}
			if e := r.entries[1]; e.ReferenceID == nil || *e.ReferenceID != r.hits[0].ID {
				return fmt.Errorf("debit references %v, want hit %d", e.ReferenceID, r.hits[0].ID)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got-reads != 2+outboxTrips || outboxTrips < 2 {
			t.Fatalf("%d round trips (%d of them the test's reads, %d the outbox insert), want locks + outbox insert + COMMIT", got, reads, outboxTrips)
		}
		r.check(t, s)
		if stored, err := s.Stores().Webhooks.Event(ctx, event.ID); err != nil || stored.Type != webhook.BalanceLow {
			t.Fatalf("event: %+v, %v", stored, err)
		}
	})
}
