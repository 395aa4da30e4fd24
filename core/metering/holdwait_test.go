package metering

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering/hold"
	"paygate/core/platform/store"
)

// awaitHolds sleeps until something it waits on changes; these tests count
// its reads of the holds (the old loop read them every 50 ms).

// waitHolds is a hold store whose holds another instance may release at a
// set time (goneAt: ByUser no longer lists them from then on).
type waitHolds struct {
	hold.Repository
	mu     sync.Mutex
	holds  map[uint64]hold.Hold
	goneAt map[uint64]time.Time
	reads  atomic.Int32
}

func (f *waitHolds) ByUser(_ context.Context, userID uint64) ([]hold.Hold, error) {
	f.reads.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []hold.Hold
	for id, h := range f.holds {
		if gone, ok := f.goneAt[id]; h.UserID == userID && (!ok || time.Now().Before(gone)) {
			out = append(out, h)
		}
	}
	return out, nil
}

func (f *waitHolds) Get(_ context.Context, id uint64) (hold.Hold, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h, ok := f.holds[id]
	return h, ok, nil
}

func (f *waitHolds) Delete(_ context.Context, id uint64) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.holds[id]
	delete(f.holds, id)
	return ok, nil
}

type waitUsers struct {
	user.Repository
	u user.User
}

func (f *waitUsers) LockByID(context.Context, uint64) (*user.User, error) { u := f.u; return &u, nil }
func (f *waitUsers) SaveBalance(context.Context, *user.User) error        { return nil }

type waitKeys struct{ apikey.Repository }

func (waitKeys) UncountHits(context.Context, uint64, string, int) error { return nil }

type waitTx struct{ st store.Stores }

func (t waitTx) WithinTx(ctx context.Context, fn func(context.Context, store.Stores) error) error {
	return fn(ctx, t.st)
}

// newWaitMetering is metering over the fakes, with one open hold (id 5) of
// user 11's key 3 that expires after expiresIn.
func newWaitMetering(lifetime, expiresIn time.Duration) (*Metering, *waitHolds) {
	unit := decimal.RequireFromString("1.00")
	holds := &waitHolds{goneAt: map[uint64]time.Time{}, holds: map[uint64]hold.Hold{
		5: {ID: 5, UserID: 11, KeyID: 3, Day: "2026-11-25", Unit: unit, Calls: 8, UsedMoney: decimal.Zero,
			ExpiresAt: time.Now().Add(expiresIn)},
	}}
	users := &waitUsers{u: user.User{ID: 11, Balance: decimal.RequireFromString("10.00"), HeldAmount: decimal.RequireFromString("8.00")}}
	st := store.Stores{Holds: holds, Users: users, Keys: waitKeys{}}
	return New(Deps{Tx: waitTx{st}, Stores: st, Config: Config{HoldLifetime: lifetime}}), holds
}

func awaitAsync(a *Metering, ctx context.Context) <-chan error {
	done := make(chan error, 1)
	go func() {
		done <- a.awaitHolds(ctx, 11, 3, decimal.RequireFromString("1.00"), time.Now().Format(time.DateOnly))
	}()
	return done
}

// A hold of this instance: the waiting call reads the holds once, sleeps,
// and goes on as soon as the hold is released here, not at a poll.
func TestAwaitHoldsWakesOnThisInstancesRelease(t *testing.T) {
	a, holds := newWaitMetering(10*time.Second, 10*time.Second)
	a.holds.watch.opened(11, 5)
	done := awaitAsync(a, context.Background())
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("returned before the release: %v", err)
	default:
	}
	if n := holds.reads.Load(); n != 1 {
		t.Fatalf("read the holds %d times while nothing changed, want 1", n)
	}
	released := time.Now()
	if ok, err := a.releaseHold(context.Background(), 5, 11); !ok || err != nil {
		t.Fatalf("release: %v %v", ok, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(released); d > 200*time.Millisecond {
			t.Errorf("woke %v after the release", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("not woken by the release")
	}
	if n := holds.reads.Load(); n != 2 {
		t.Errorf("read the holds %d times, want 2", n)
	}
}

// Another instance's hold cannot wake the call: it reads again at the
// hold's expiry, then backs off (50 ms, doubling) until that instance has
// released it.
func TestAwaitHoldsWakesAtAnotherInstancesExpiry(t *testing.T) {
	a, holds := newWaitMetering(10*time.Second, 300*time.Millisecond)
	holds.goneAt[5] = time.Now().Add(450 * time.Millisecond) // released 150 ms after its expiry
	start := time.Now()
	if err := <-awaitAsync(a, context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 450*time.Millisecond || d > 900*time.Millisecond {
		t.Errorf("waited %v, want from the release at 450 ms to shortly after", d)
	}
	// At the start, at expiry (300 ms), then 350, 450: four reads, not nine.
	if n := holds.reads.Load(); n < 3 || n > 5 {
		t.Errorf("read the holds %d times, want about 4", n)
	}
}

// The behaviour is kept: a hold never released lets the call go on after
// two lifetimes and a second; the context's end stops the wait at once.
func TestAwaitHoldsEndsAtItsDeadlineOrTheContexts(t *testing.T) {
	a, holds := newWaitMetering(100*time.Millisecond, time.Hour)
	a.holds.watch.opened(11, 5)
	start := time.Now()
	if err := <-awaitAsync(a, context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 1200*time.Millisecond || d > 2*time.Second {
		t.Errorf("deadline after %v, want 1.2 s", d)
	}
	if n := holds.reads.Load(); n != 2 {
		t.Errorf("read the holds %d times, want 2 (before and at the deadline)", n)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start = time.Now()
	if err := <-awaitAsync(a, ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the context's", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("context ended the wait after %v", d)
	}
}

// A hold opened here while a call waits on the user's holds wakes it when
// the hold has calls left for its key and charge: the call takes one
// rather than waiting for the blocking hold's release (and then going the
// per-call way against money the new hold holds).
func TestAwaitHoldsReturnsWhenAHoldWithCallsOpensHere(t *testing.T) {
	a, _ := newWaitMetering(10*time.Second, 10*time.Second)
	a.holds.watch.opened(11, 5)
	done := awaitAsync(a, context.Background())
	time.Sleep(200 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("returned while the only hold blocks: %v", err)
	default:
	}
	unit := decimal.RequireFromString("1.00")
	slot := a.holds.slot(holdKey{3, unit.String()})
	slot.mu.Lock()
	slot.live = append(slot.live, &liveHold{slot: slot, left: 4, spendable: decimal.Zero,
		h: hold.Hold{ID: 6, UserID: 11, KeyID: 3, Day: time.Now().Format(time.DateOnly), Unit: unit, Calls: 4, ExpiresAt: time.Now().Add(time.Minute)}})
	slot.mu.Unlock()
	opened := time.Now()
	a.holds.watch.opened(11, 6)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(opened); d > 200*time.Millisecond {
			t.Errorf("woke %v after the hold opened", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("still waiting after a hold with calls left opened here")
	}
}
