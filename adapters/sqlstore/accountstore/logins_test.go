package accountstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/core/accounts/session"
	"paygate/core/accounts/signin"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

func TestLoginCounters(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		logins := s.Stores().Logins
		now := time.Now().UTC().Truncate(time.Microsecond)
		k := signin.KeysFor(signin.UserAccount(1), "198.51.100.1")
		if err := logins.Ensure(ctx, k[:], now); err != nil {
			t.Fatal(err)
		}
		if err := logins.Ensure(ctx, k[:], now.Add(time.Hour)); err != nil { // existing ones untouched
			t.Fatal(err)
		}
		blocked := now.Add(time.Minute)
		err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			cs, err := st.Logins.Lock(ctx, k[:])
			if err != nil {
				return err
			}
			for i, c := range cs {
				if c.Key != k[i] || c.Failures != 0 || !c.BlockedUntil.IsZero() || !c.UpdatedAt.Equal(now) {
					t.Errorf("fresh counter %d = %+v", i, c)
				}
			}
			cs[0].Failures, cs[0].BlockedUntil, cs[0].UpdatedAt = 5, blocked, now
			return st.Logins.Save(ctx, cs)
		})
		if err != nil {
			t.Fatal(err)
		}
		var got []signin.Counter
		_ = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) (err error) {
			got, err = st.Logins.Lock(ctx, []string{k[0], "missing"})
			return err
		})
		if len(got) != 2 || got[0].Failures != 5 || !got[0].BlockedUntil.Equal(blocked) || got[1].Key != "missing" || got[1].Failures != 0 {
			t.Fatalf("Lock = %+v", got)
		}

		// Purge deletes idle counters only, a bounded number at a time, and
		// never one still backing off.
		old := now.Add(-2 * time.Hour)
		var stale []string
		for i := 0; i < 7; i++ {
			stale = append(stale, session.Hash(fmt.Sprint("stale", i)))
		}
		if err := logins.Ensure(ctx, stale, old); err != nil {
			t.Fatal(err)
		}
		longBlock := signin.Counter{Key: session.Hash("blocked"), Failures: 9, BlockedUntil: now.Add(10 * time.Minute), UpdatedAt: old}
		if err := logins.Save(ctx, []signin.Counter{longBlock}); err != nil {
			t.Fatal(err)
		}
		before := now.Add(-time.Hour)
		if n, err := logins.Purge(ctx, before, now, 5); err != nil || n != 5 {
			t.Fatalf("Purge = %d, %v; want 5", n, err)
		}
		if n, err := logins.Purge(ctx, before, now, 5); err != nil || n != 2 {
			t.Fatalf("second Purge = %d, %v; want 2", n, err)
		}
		if n, err := logins.Purge(ctx, before, now, 5); err != nil || n != 0 {
			t.Fatalf("third Purge = %d, %v; want 0", n, err)
		}
		if n, err := logins.Purge(ctx, before, now.Add(11*time.Minute), 5); err != nil || n != 1 {
			t.Fatalf("Purge after the backoff = %d, %v; want 1", n, err)
		}
	})
}
