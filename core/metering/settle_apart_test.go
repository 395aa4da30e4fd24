package metering_test

import (
	"context"
	"errors"
	"paygate/core/metering"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/store"
	"paygate/core/user"
)

// apart rebuilds the fixture's app with Config.SettleApart and a
// transactor that counts its transactions.
func (f *fixture) apart(t *testing.T) *countingTx {
	return f.apartWith(t, nil, 0)
}

// apartWith is apart with metrics m (nil: none) and a settlement retry
// window (0: the default).
func (f *fixture) apartWith(t *testing.T, m metering.Metrics, window time.Duration) *countingTx {
	t.Helper()
	return f.apartConfig(t, m, metering.Config{SettleRetryWindow: window})
}

// apartConfig is apart with metrics m (nil: none) and cfg (its Location
// and SettleApart set here).
func (f *fixture) apartConfig(t *testing.T, m metering.Metrics, cfg metering.Config) *countingTx {
	t.Helper()
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits}
	tx := &countingTx{stores: stores}
	cfg.Location, _ = time.LoadLocation("Asia/Kolkata")
	cfg.SettleApart = true
	f.app = metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Metrics: m, Config: cfg})
	return tx
}

// inFlight counts reservations in flight (metering.Metrics).
type inFlight struct {
	metering.NopMetrics
	n atomic.Int32
}

func (m *inFlight) ReservationStarted() { m.n.Add(1) }
func (m *inFlight) ReservationSettled() { m.n.Add(-1) }

type countingTx struct {
	n      atomic.Int32
	stores store.Stores
}

func (c *countingTx) WithinTx(ctx context.Context, fn func(context.Context, store.Stores) error) error {
	c.n.Add(1)
	return fn(ctx, c.stores)
}

// With SettleApart a successful call is settled by SucceedMany, outside
// any transaction (one transaction in all: the reservation); FinishMany is
// never used (the strict mock would fail).
func TestSettleApartSettlesSuccessOutsideTheBatch(t *testing.T) {
	f := newFixture(t)
	tx := f.apart(t)
	f.expectReserve(t, "1.23")
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"id":"x"}`)}, nil).Once()
	f.hits.EXPECT().SucceedMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		h := hs[0]
		return len(hs) == 1 && h.ID == 99 && h.Status == hitlog.StatusSuccess && h.ChargeAmount.Equal(dec("1.23")) &&
			*h.ResponsePayload == `{"id":"x"}` && h.CostAmount.Equal(dec("0.4"))
	})).Return([]bool{true}, nil).Once()
	res, err := f.app.CallService(context.Background(), f.input(`{}`))
	if err != nil || !res.BalanceLeft.Equal(dec("8.77")) {
		t.Fatalf("%+v, %v", res, err)
	}
	if n := tx.n.Load(); n != 1 {
		t.Fatalf("%d transactions, want 1 (the reservation)", n)
	}
}

// A failed call still settles in the reservation writer's transaction,
// with its refund under the user's lock.
func TestSettleApartKeepsFailuresWithTheRefund(t *testing.T) {
	f := newFixture(t)
	tx := f.apart(t)
	f.expectReserve(t, "1.23")
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 502, Body: []byte(`bad`)}, nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Once()
	f.hits.EXPECT().FinishMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		return len(hs) == 1 && hs[0].Status == hitlog.StatusFailed
	})).Return([]bool{true}, nil).Once()
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
		return len(es) == 1 && es[0].Type == ledger.Refund && es[0].Amount.Equal(dec("1.23")) && *es[0].ReferenceID == 99
	})).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Balance.Equal(dec("10.00")) && u.PlanCalls == 0
	})).Return(nil).Once()
	if _, err := f.app.CallService(context.Background(), f.input(`{}`)); err == nil {
		t.Fatal("failed upstream answered success")
	}
	if n := tx.n.Load(); n != 2 {
		t.Fatalf("%d transactions, want 2 (reservation, refund)", n)
	}
}

// settleCalls reserves n successful calls in one batch (writers held),
// then lets them settle through hits' SucceedMany.
func settleCalls(t *testing.T, f *fixture, n int) ([]*metering.CallResult, []error) {
	t.Helper()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Once()
	f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", n, mock.Anything).Return(n, nil).Once()
	f.hits.EXPECT().InsertMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error {
		for i, h := range hs {
			h.ID = uint64(100 + i)
		}
		return nil
	}).Once()
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).Return(nil).Once()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Times(n)
	var ins []metering.CallInput
	for i := 0; i < n; i++ {
		in := f.input(`{}`)
		in.RequestID = "req_" + string(rune('a'+i))
		ins = append(ins, in)
	}
	return queue(t, f.app, ins...)()
}

// settleAnswered is settleCalls, failing unless every call had its answer.
func settleAnswered(t *testing.T, f *fixture, n int) {
	t.Helper()
	res, errList := settleCalls(t, f, n)
	for i, err := range errList {
		if err != nil || res[i] == nil {
			t.Fatalf("call %d: %+v, %v", i, res[i], err)
		}
	}
}

// A failed attempt is retried for the hits it did not report moved; the
// moved ones are not written again.
func TestSettleApartRetriesOnlyUnmovedHits(t *testing.T) {
	f := newFixture(t)
	f.apart(t)
	var (
		mu       sync.Mutex
		attempts = map[uint64]int{}
		movedAt  = map[uint64]bool{}
		rewrote  []uint64
	)
	f.hits.EXPECT().SucceedMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) ([]bool, error) {
		mu.Lock()
		defer mu.Unlock()
		moved := make([]bool, len(hs))
		for i, h := range hs {
			if movedAt[h.ID] {
				rewrote = append(rewrote, h.ID)
			}
			attempts[h.ID]++
			if h.ID == 101 && attempts[h.ID] == 1 { // the first attempt loses its connection at hit 101
				return moved[:i], errors.New("connection reset")
			}
			moved[i] = true
			movedAt[h.ID] = true
		}
		return moved, nil
	})
	settleAnswered(t, f, 3)
	f.app.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(rewrote) > 0 || attempts[101] != 2 {
		t.Fatalf("moved hits written again: %v; attempts %v", rewrote, attempts)
	}
}

// Successful calls answer before their settlement is written: while the
// database refuses it (both attempts of a batch fail) it is queued again
// until it moves, then the reservation leaves the in-flight gauge; a hit
// that recovery took (not moved, no error) is left as it is, never written
// success.
func TestSettleApartRetriesAfterTheAnswer(t *testing.T) {
	f := newFixture(t)
	m := &inFlight{}
	f.apartWith(t, m, 0)
	var (
		mu       sync.Mutex
		attempts = map[uint64]int{}
		moved101 bool
	)
	f.hits.EXPECT().SucceedMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) ([]bool, error) {
		mu.Lock()
		defer mu.Unlock()
		moved := make([]bool, len(hs))
		var err error
		for i, h := range hs {
			attempts[h.ID]++
			switch {
			case h.ID == 100:
				moved[i] = true // its statement committed
			case h.ID == 101 && attempts[101] <= 3:
				err = errors.New("connection refused") // the database is away for 3 attempts
			case h.ID == 101:
				moved[i], moved101 = true, true
			}
		}
		return moved, err // 102: taken by recovery
	})
	settleAnswered(t, f, 3)
	f.app.Wait()
	mu.Lock()
	defer mu.Unlock()
	if !moved101 || attempts[101] != 4 || attempts[100] != 1 {
		t.Fatalf("attempts %v, 101 moved %v; want 101 written on its 4th attempt, 100 once", attempts, moved101)
	}
	if n := m.n.Load(); n != 0 {
		t.Fatalf("%d reservations still in flight after every settlement ended", n)
	}
}

// A settlement the database keeps refusing is given up after the retry
// window: the hit stays pending (crash recovery refunds it), the call had
// its answer, and App.Wait returns.
func TestSettleApartGivesUpAfterTheWindow(t *testing.T) {
	f := newFixture(t)
	m := &inFlight{}
	f.apartWith(t, m, 600*time.Millisecond)
	var tries atomic.Int32
	f.hits.EXPECT().SucceedMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) ([]bool, error) {
		tries.Add(1)
		return make([]bool, len(hs)), errors.New("connection refused")
	})
	res, errList := settleCalls(t, f, 1)
	if errList[0] != nil || res[0] == nil {
		t.Fatalf("%+v, %v", res[0], errList[0])
	}
	start := time.Now()
	f.app.Wait()
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("Wait took %v", took)
	}
	if n := tries.Load(); n < 4 { // two per attempt: at 0, 250 ms and 750 ms
		t.Fatalf("%d statements tried, want the settlement retried in its window", n)
	}
	if n := m.n.Load(); n != 0 {
		t.Fatalf("%d reservations in flight after the settlement was given up", n)
	}
}

// The settlement writer gathers the successful settlements queued within
// SettleLinger and writes them with one SucceedMany.
func TestSettleApartGathersSettlementsForTheLinger(t *testing.T) {
	f := newFixture(t)
	f.apartConfig(t, nil, metering.Config{SettleLinger: 400 * time.Millisecond})
	var calls, hits atomic.Int32
	f.hits.EXPECT().SucceedMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) ([]bool, error) {
		calls.Add(1)
		hits.Add(int32(len(hs)))
		moved := make([]bool, len(hs))
		for i := range moved {
			moved[i] = true
		}
		return moved, nil
	})
	settleAnswered(t, f, 4)
	f.app.Wait()
	if c, h := calls.Load(), hits.Load(); c != 1 || h != 4 {
		t.Fatalf("%d SucceedMany calls with %d hits, want 1 with 4", c, h)
	}
}

// A read that must see this instance's calls settled (the fence) does not
// wait for the linger: the settlement queued before it is written at once.
func TestSettleApartFenceEndsTheLinger(t *testing.T) {
	f := newFixture(t)
	f.apartConfig(t, nil, metering.Config{SettleLinger: time.Minute})
	var written atomic.Bool
	f.hits.EXPECT().SucceedMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) ([]bool, error) {
		written.Store(true)
		return []bool{true}, nil
	}).Once()
	res, errList := settleCalls(t, f, 1)
	if errList[0] != nil || res[0] == nil {
		t.Fatalf("%+v, %v", res[0], errList[0])
	}
	if written.Load() {
		t.Fatal("settlement written before the linger or a fence")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := f.app.AwaitSettlements(ctx); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second || !written.Load() {
		t.Fatalf("fence returned after %v, settlement written %v", took, written.Load())
	}
	f.app.Wait()
}
