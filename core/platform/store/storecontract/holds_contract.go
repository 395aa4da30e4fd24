package storecontract

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/metering/hold"
	"paygate/core/platform/store"
)

// holdsContract: a hold is read back as written, its use adds up exactly,
// a release deletes it once (of two at once, one reports it), and the
// recovery finds the expired ones oldest first.
func holdsContract(t *testing.T, c *contract) {
	ctx, holds := c.ctx, c.s.Holds
	put := func(t *testing.T, userID, keyID uint64, expires time.Time) hold.Hold {
		t.Helper()
		h := hold.Hold{UserID: userID, KeyID: keyID, Day: "2026-11-27", Unit: dec("2.50"), Calls: 4, UsedMoney: decimal.Zero,
			ExpiresAt: expires, CreatedAt: at}
		if err := holds.Insert(ctx, &h); err != nil {
			t.Fatal(err)
		}
		if h.ID == 0 {
			t.Fatal("Insert gave no id")
		}
		return h
	}
	ids := func(hs []hold.Hold) []uint64 {
		out := []uint64{}
		for _, h := range hs {
			out = append(out, h.ID)
		}
		return out
	}
	// Far in the future, out of the way of the expiry case.
	later := at.Add(24 * time.Hour)

	t.Run("insert, use, release once", func(t *testing.T) {
		u := c.user(t)
		k := c.key(t, u, 100)
		h := put(t, u.ID, k.ID, later)
		got, found, err := holds.Get(ctx, h.ID)
		if err != nil || !found || got.UserID != u.ID || got.KeyID != k.ID || got.Day != "2026-11-27" || !got.Unit.Equal(dec("2.50")) ||
			got.Calls != 4 || got.UsedCalls != 0 || !got.UsedMoney.IsZero() || !got.ExpiresAt.Equal(later) {
			t.Fatalf("Get: %+v, %v, %v", got, found, err)
		}
		for _, use := range []struct {
			calls int
			money string
		}{{2, "5.00"}, {1, "2.50"}, {1, "0.00"}} {
			if err := holds.Use(ctx, h.ID, use.calls, dec(use.money)); err != nil {
				t.Fatal(err)
			}
		}
		got, _, _ = holds.Get(ctx, h.ID)
		if got.UsedCalls != 4 || !got.UsedMoney.Equal(dec("7.50")) {
			t.Fatalf("used %d calls and %s, want 4 and 7.50", got.UsedCalls, got.UsedMoney)
		}
		if money, calls := got.Unused(); !money.Equal(dec("2.50")) || calls != 0 {
			t.Fatalf("unused %s and %d calls", money, calls)
		}
		if ok, err := holds.Delete(ctx, h.ID); !ok || err != nil {
			t.Fatalf("the release: %v, %v", ok, err)
		}
		if ok, err := holds.Delete(ctx, h.ID); ok || err != nil {
			t.Fatalf("a second release: %v, %v; want false", ok, err)
		}
		if _, found, err := holds.Get(ctx, h.ID); found || err != nil {
			t.Fatalf("Get of a released hold: found %v, %v", found, err)
		}
		if err := holds.Use(ctx, h.ID, 1, dec("2.50")); err != nil {
			t.Fatalf("Use of a released hold: %v", err)
		}
		if _, found, _ := holds.Get(ctx, h.ID); found {
			t.Fatal("Use brought a released hold back")
		}
	})

	t.Run("of two releases at once one reports it", func(t *testing.T) {
		u := c.user(t)
		h := put(t, u.ID, c.key(t, u, 100).ID, later)
		var got [2]bool
		release := func(i int) func() error {
			return func() error {
				return c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) (err error) {
					got[i], err = s.Holds.Delete(ctx, h.ID)
					return err
				})
			}
		}
		errA, errB := both(release(0), release(1))
		if errA != nil || errB != nil || got[0] == got[1] {
			t.Fatalf("releases: %v (%v), %v (%v); want exactly one true", got[0], errA, got[1], errB)
		}
	})

	t.Run("ByUser lists the user's open holds", func(t *testing.T) {
		u, other := c.user(t), c.user(t)
		k, ko := c.key(t, u, 100), c.key(t, other, 100)
		a, _, b := put(t, u.ID, k.ID, later), put(t, other.ID, ko.ID, later), put(t, u.ID, k.ID, later)
		gone := put(t, u.ID, k.ID, later)
		if _, err := holds.Delete(ctx, gone.ID); err != nil {
			t.Fatal(err)
		}
		got, err := holds.ByUser(ctx, u.ID)
		if err != nil || !slices.Equal(ids(got), []uint64{a.ID, b.ID}) {
			t.Fatalf("ByUser: %v, %v; want %d and %d", ids(got), err, a.ID, b.ID)
		}
		if got, err := holds.ByUser(ctx, 987654); err != nil || len(got) != 0 {
			t.Fatalf("ByUser of nobody: %v, %v", got, err)
		}
	})

	t.Run("Expired: before the cutoff, oldest first, up to the limit", func(t *testing.T) {
		u := c.user(t)
		k := c.key(t, u, 100)
		cutoff := at.Add(-time.Hour)
		m3 := put(t, u.ID, k.ID, cutoff.Add(-3*time.Minute))
		m1 := put(t, u.ID, k.ID, cutoff.Add(-time.Minute))
		put(t, u.ID, k.ID, cutoff) // not before the cutoff
		m2 := put(t, u.ID, k.ID, cutoff.Add(-2*time.Minute))
		m2b := put(t, u.ID, k.ID, cutoff.Add(-2*time.Minute)) // a tie: id order
		put(t, u.ID, k.ID, cutoff.Add(time.Minute))
		got, err := holds.Expired(ctx, cutoff, 10)
		if want := []uint64{m3.ID, m2.ID, m2b.ID, m1.ID}; err != nil || !slices.Equal(ids(got), want) {
			t.Fatalf("Expired: %v, %v; want %v", ids(got), err, want)
		}
		if got, err = holds.Expired(ctx, cutoff, 2); err != nil || !slices.Equal(ids(got), []uint64{m3.ID, m2.ID}) {
			t.Fatalf("Expired up to 2: %v, %v", ids(got), err)
		}
		if got[0].UserID != u.ID || got[0].KeyID != k.ID || !got[0].ExpiresAt.Equal(m3.ExpiresAt) {
			t.Fatalf("an expired hold reads %+v", got[0])
		}
	})
}
