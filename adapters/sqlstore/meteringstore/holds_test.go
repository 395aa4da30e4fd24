package meteringstore_test

import (
	"context"
	"paygate/core/metering"
	"paygate/core/platform/store"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/metering/hold"
	"paygate/internal/testdb"
)

// A hold's life in the store (migrations 00012 and 00013): taken with the
// user's held money and the key's daily count, charged from inside a
// metering batch and outside one, found expired, its calls given back to
// the key's day only, and released once; the held money can never exceed
// the balance, whatever the application writes.
func TestHoldLifeAndHeldMoney(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s, func(u *user.User) { u.Plan, u.Balance = user.PlanEnterprise, decimal.RequireFromString("10.00") })
		k := sqltest.NewKey(t, s, u)
		const day = "2026-11-22"
		now := time.Now().UTC().Truncate(time.Microsecond)
		h := &hold.Hold{UserID: u.ID, KeyID: k.ID, Day: day, Unit: sqltest.Dec(t, "1.25"), Calls: 4, UsedMoney: decimal.Zero,
			ExpiresAt: now.Add(time.Second), CreatedAt: now}
		err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			locked, err := st.Users.LockByID(ctx, u.ID)
			if err != nil {
				return err
			}
			if n, err := st.Keys.CountHits(ctx, k.ID, day, 4, now); err != nil || n != 4 {
				t.Fatalf("counted %d, %v", n, err)
			}
			if err := st.Holds.Insert(ctx, h); err != nil {
				return err
			}
			locked.HeldAmount = h.Amount()
			return st.Users.SaveBalance(ctx, locked)
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Stores().Users.ByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		sqltest.MustEqualDec(t, "held", got.HeldAmount, "5.00")
		sqltest.MustEqualDec(t, "available", got.Available(), "5.00")

		// Charged from inside a metering batch and outside one.
		if err := s.WithinBatchTx(ctx, func(ctx context.Context, st metering.BatchStores) error {
			return st.Holds.Use(ctx, h.ID, 2, sqltest.Dec(t, "2.50"))
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.Stores().Holds.Use(ctx, h.ID, 1, sqltest.Dec(t, "1.25")); err != nil {
			t.Fatal(err)
		}
		read, found, err := s.Stores().Holds.Get(ctx, h.ID)
		if err != nil || !found {
			t.Fatalf("hold %d: found %v, %v", h.ID, found, err)
		}
		money, calls := read.Unused()
		if read.UsedCalls != 3 || calls != 1 || !money.Equal(sqltest.Dec(t, "1.25")) || read.Day != day || !read.ExpiresAt.Equal(h.ExpiresAt) {
			t.Fatalf("hold read %+v: unused %s and %d calls", read, money, calls)
		}
		if mine, err := s.Stores().Holds.ByUser(ctx, u.ID); err != nil || len(mine) != 1 || mine[0].ID != h.ID {
			t.Fatalf("holds of the user: %v, %v", mine, err)
		}
		for cutoff, want := range map[time.Time]int{now: 0, now.Add(2 * time.Second): 1} {
			expired, err := s.Stores().Holds.Expired(ctx, cutoff, 10)
			n := 0
			for _, e := range expired {
				if e.ID == h.ID {
					n++
				}
			}
			if err != nil || n != want {
				t.Fatalf("expired before %v: %d of ours (%v), want %d", cutoff, n, err, want)
			}
		}

		// The calls not made go back to their day, never below zero, and
		// not to another day's count.
		hitsToday := func() int {
			key, err := s.Stores().Keys.ByID(ctx, k.ID)
			if err != nil {
				t.Fatal(err)
			}
			return key.HitsToday
		}
		for _, c := range []struct {
			day  string
			n    int
			want int
		}{{day, 1, 3}, {"2026-11-21", 2, 3}, {day, 5, 0}} {
			if err := s.Stores().Keys.UncountHits(ctx, k.ID, c.day, c.n); err != nil {
				t.Fatal(err)
			}
			if got := hitsToday(); got != c.want {
				t.Fatalf("after giving back %d calls of %s: %d today, want %d", c.n, c.day, got, c.want)
			}
		}

		// Released once.
		for i, want := range []bool{true, false} {
			if deleted, err := s.Stores().Holds.Delete(ctx, h.ID); err != nil || deleted != want {
				t.Fatalf("delete #%d: %v, %v", i+1, deleted, err)
			}
		}
		if _, found, err := s.Stores().Holds.Get(ctx, h.ID); err != nil || found {
			t.Fatalf("released hold still found: %v, %v", found, err)
		}
		// A charge late for a released hold adds nothing, on both databases.
		if err := s.Stores().Holds.Use(ctx, h.ID, 1, sqltest.Dec(t, "1.25")); err != nil {
			t.Fatalf("use of a released hold: %v", err)
		}
		if _, found, err := s.Stores().Holds.Get(ctx, h.ID); err != nil || found {
			t.Fatalf("a late use brought the hold back: %v, %v", found, err)
		}

		// More held than the balance: the database refuses it.
		got.HeldAmount = sqltest.Dec(t, "10.01")
		if err := s.Stores().Users.SaveBalance(ctx, got); err == nil {
			t.Fatal("held money above the balance was saved")
		}
	})
}
