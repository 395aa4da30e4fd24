package metering_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
)

// Two instances over one store: a key revoked through instance A fails at
// once on A, and on B once B's lookup TTL (1 s by default) has passed.
func TestCacheInvalidationAndStalenessBound(t *testing.T) {
	f := newFixture(t)
	f.user.Role, f.user.Plan, f.user.MonthlyCalls, f.user.Balance = user.RoleUser, user.PlanEnterprise, nil, dec("1000.00")
	f.save()
	var mu sync.Mutex
	clock := f.now
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }

	loc, _ := time.LoadLocation("Asia/Kolkata")
	newApp := func() *metering.Metering {
		m := metering.New(metering.Deps{Tx: f.db, Stores: f.db.Stores(), Upstream: f.up, Now: now, Config: metering.Config{Location: loc, HoldLifetime: -1}})
		t.Cleanup(m.Wait)
		return m
	}
	a, b := newApp(), newApp()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil)

	call := func(x *metering.Metering) error {
		_, _, err := x.CallService(context.Background(), f.input(`{}`))
		return err
	}
	for _, x := range []*metering.Metering{a, b, a, b} {
		if err := call(x); err != nil {
			t.Fatal(err)
		}
	}
	if reads := f.db.Calls("Keys.ByKey"); reads != 2 {
		t.Fatalf("%d key reads for 4 calls on 2 instances, want 2 (one per instance)", reads)
	}

	// The panel revokes the key through A's invalidating transactor.
	tx, _ := a.Invalidating()
	if err := tx.WithinTx(context.Background(), func(ctx context.Context, s store.Stores) error {
		_, err := s.Keys.Revoke(ctx, f.key.ID, f.key.UserID, now())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := call(a); !errors.Is(err, apikey.ErrInvalidCredentials) {
		t.Fatalf("instance A right after its own revoke: %v, want 401", err)
	}
	// B still trusts what it read, for less than the bound…
	advance(metering.DefaultLookupTTL - time.Millisecond)
	if err := call(b); err != nil {
		t.Fatalf("instance B within its TTL: %v", err)
	}
	// …and sees the revocation once the bound has passed.
	advance(time.Millisecond)
	if err := call(b); !errors.Is(err, apikey.ErrInvalidCredentials) {
		t.Fatalf("instance B after %s: %v, want 401", metering.DefaultLookupTTL, err)
	}
	if metering.DefaultLookupTTL > 2*time.Second {
		t.Fatalf("the documented bound is at most 2 s, DefaultLookupTTL is %s", metering.DefaultLookupTTL)
	}
}

// Balances are never cached: a call refused for its balance on one
// instance passes at once after a credit made anywhere (the batch reads the
// locked row).
func TestCacheNeverHoldsTheBalance(t *testing.T) {
	f := newFixture(t)
	f.user.Balance = dec("0.00")
	f.save()
	if _, _, err := f.app.CallService(context.Background(), f.input(`{}`)); !errors.Is(err, ledger.ErrInsufficientBalance) {
		t.Fatalf("%v", err)
	}
	u := f.stored()
	u.Balance = dec("10.00") // credited by another instance
	f.db.Put(u)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Once()
	res, _, err := f.app.CallService(context.Background(), f.input(`{}`))
	if err != nil || !res.BalanceLeft.Equal(dec("8.77")) {
		t.Fatalf("%+v, %v", res, err)
	}
}

// Calls that miss the same entry together share one load; a call that
// arrives after a flush does not share a load begun before it; a failed
// shared load is not handed to the others (each loads on its own).
func TestCacheMissesShareOneLoad(t *testing.T) {
	c := metering.NewLookupCache(time.Second, time.Now)
	var loads atomic.Int32
	release := make(chan struct{})
	slow := func() (any, error) { loads.Add(1); <-release; return "v1", nil }
	var wg sync.WaitGroup
	got := make([]any, 20)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = c.Get("sms", slow) }()
	}
	for loads.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the others queue behind the load
	// After a flush a new caller loads anew, even while the old load runs.
	c.Flush()
	if v, _ := c.Get("sms", func() (any, error) { return "v2", nil }); v != "v2" {
		t.Fatalf("after the flush: %v, want a load of its own", v)
	}
	close(release)
	wg.Wait()
	if n := loads.Load(); n != 1 {
		t.Fatalf("%d loads for 20 concurrent misses, want 1", n)
	}
	for i, v := range got {
		if v != "v1" {
			t.Fatalf("caller %d got %v", i, v)
		}
	}

	// A failed shared load: each waiter tries on its own.
	c2 := metering.NewLookupCache(time.Second, time.Now)
	var fails, own atomic.Int32
	gate := make(chan struct{})
	var wg2 sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			c2.Get("x", func() (any, error) {
				if fails.Add(1) == 1 {
					<-gate
					return nil, errors.New("database away")
				}
				own.Add(1)
				return "ok", nil
			})
		}()
	}
	time.Sleep(20 * time.Millisecond)
	close(gate)
	wg2.Wait()
	if own.Load() != 4 {
		t.Fatalf("%d waiters loaded on their own after the failed load, want 4", own.Load())
	}
}
