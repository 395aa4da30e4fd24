package metering_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

// apart rebuilds the fixture's app on a store that settles apart, a
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
// set here).
func (f *fixture) apartConfig(t *testing.T, m metering.Metrics, cfg metering.Config) *countingTx {
	t.Helper()
	return f.apartHits(t, m, cfg, nil)
}

// apartHits is apartConfig with SucceedMany answered by succeed (nil: the
// store's): see succeedHook.
func (f *fixture) apartHits(t *testing.T, m metering.Metrics, cfg metering.Config, succeed func([]*hitlog.Hit) ([]bool, error)) *countingTx {
	t.Helper()
	stores := f.db.Stores()
	if succeed != nil {
		stores.Hits = succeedHook{Repository: stores.Hits, fn: succeed}
	}
	tx := &countingTx{db: f.db}
	cfg.Location, _ = time.LoadLocation("Asia/Kolkata")
	f.app = metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Metrics: m, Config: cfg})
	return tx
}

// succeedHook is the store's hits with SucceedMany decided by fn (the
// faults of a statement that moves some hits and then fails): the hits fn
// reports moved are moved in the store.
type succeedHook struct {
	hitlog.Repository
	fn func([]*hitlog.Hit) ([]bool, error)
}

func (h succeedHook) SucceedMany(ctx context.Context, hs []*hitlog.Hit) ([]bool, error) {
	moved, err := h.fn(hs)
	var write []*hitlog.Hit
	for i, ok := range moved {
		if ok {
			write = append(write, hs[i])
		}
	}
	if len(write) > 0 {
		if _, err := h.Repository.SucceedMany(ctx, write); err != nil {
			return nil, err
		}
	}
	return moved, err
}

// inFlight counts reservations in flight (metering.Metrics).
type inFlight struct {
	metering.NopMetrics
	n atomic.Int32
}

func (m *inFlight) ReservationStarted() { m.n.Add(1) }
func (m *inFlight) ReservationSettled() { m.n.Add(-1) }

type countingTx struct {
	n  atomic.Int32
	db *storetest.DB
}

// SettlesApart: the store settles successes apart (metering.ApartSettler).
func (c *countingTx) SettlesApart() bool { return true }

func (c *countingTx) WithinTx(ctx context.Context, fn func(context.Context, store.Stores) error) error {
	c.n.Add(1)
	return c.db.WithinTx(ctx, fn)
}

// With SettleApart a successful call is settled by SucceedMany, outside
// any transaction (one transaction in all: the reservation); FinishMany is
// never used.
func TestSettleApartSettlesSuccessOutsideTheBatch(t *testing.T) {
	f := newFixture(t)
	tx := f.apart(t)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"id":"x"}`)}, nil).Once()
	res, _, err := f.app.CallService(context.Background(), f.input(`{}`))
	if err != nil || !res.BalanceLeft.Equal(dec("8.77")) {
		t.Fatalf("%+v, %v", res, err)
	}
	f.app.Wait()
	if n := tx.n.Load(); n != 1 {
		t.Fatalf("%d transactions, want 1 (the reservation)", n)
	}
	h := oneHit(t, f.db)
	if h.Status != hitlog.StatusSuccess || !h.ChargeAmount.Equal(dec("1.23")) || h.ResponsePayload == nil ||
		*h.ResponsePayload != `{"id":"x"}` || !h.CostAmount.Equal(dec("0.4")) {
		t.Fatalf("hit %+v", h)
	}
	if n, m := f.db.Calls("Hits.SucceedMany"), f.db.Calls("Hits.FinishMany"); n != 1 || m != 0 {
		t.Fatalf("%d SucceedMany, %d FinishMany; want the settlement by SucceedMany", n, m)
	}
}

// A failed call still settles in the reservation writer's transaction,
// with its refund under the user's lock.
func TestSettleApartKeepsFailuresWithTheRefund(t *testing.T) {
	f := newFixture(t)
	tx := f.apart(t)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 502, Body: []byte(`bad`)}, nil).Once()
	if _, _, err := f.app.CallService(context.Background(), f.input(`{}`)); err == nil {
		t.Fatal("failed upstream answered success")
	}
	if n := tx.n.Load(); n != 2 {
		t.Fatalf("%d transactions, want 2 (reservation, refund)", n)
	}
	h := oneHit(t, f.db)
	if h.Status != hitlog.StatusFailed {
		t.Fatalf("hit %+v", h)
	}
	es := f.db.Entries()
	if len(es) != 2 {
		t.Fatalf("ledger %+v, want debit and refund", es)
	}
	checkEntry(t, es[1], ledger.Refund, "1.23", "8.77", "10.00", h.ID)
	if u := f.stored(); !u.Balance.Equal(dec("10.00")) || u.PlanCalls != 0 {
		t.Fatalf("user %+v", u)
	}
	if n := f.db.Calls("Users.LockByID"); n != 2 {
		t.Fatalf("%d user locks, want the refund under one of its own", n)
	}
}

// settleCalls reserves n successful calls in one batch (writers held),
// then lets them settle through hits' SucceedMany.
func settleCalls(t *testing.T, f *fixture, n int) ([]*metering.CallResult, []error) {
	t.Helper()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Times(n)
	var ins []metering.CallInput
	for i := 0; i < n; i++ {
		in := f.input(`{}`)
		in.RequestID = "req_" + string(rune('a'+i))
		ins = append(ins, in)
	}
	res, errList := queue(t, f.app, ins...)()
	if c := f.db.Calls("Keys.CountHits"); c != 1 {
		t.Fatalf("%d reservations, want one batch", c)
	}
	return res, errList
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
	var (
		mu       sync.Mutex
		attempts = map[string]int{}
		movedAt  = map[string]bool{}
		rewrote  []string
	)
	f.apartHits(t, nil, metering.Config{}, func(hs []*hitlog.Hit) ([]bool, error) {
		mu.Lock()
		defer mu.Unlock()
		moved := make([]bool, len(hs))
		for i, h := range hs {
			if movedAt[h.RequestID] {
				rewrote = append(rewrote, h.RequestID)
			}
			attempts[h.RequestID]++
			if h.RequestID == "req_b" && attempts[h.RequestID] == 1 { // the first attempt loses its connection at the second hit
				return moved[:i], errors.New("connection reset")
			}
			moved[i] = true
			movedAt[h.RequestID] = true
		}
		return moved, nil
	})
	settleAnswered(t, f, 3)
	f.app.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(rewrote) > 0 || attempts["req_b"] != 2 {
		t.Fatalf("moved hits written again: %v; attempts %v", rewrote, attempts)
	}
	for _, h := range f.db.Hits() {
		if h.Status != hitlog.StatusSuccess {
			t.Fatalf("hit %+v not settled", h)
		}
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
	var (
		mu       sync.Mutex
		attempts = map[string]int{}
		movedB   bool
	)
	f.apartHits(t, m, metering.Config{}, func(hs []*hitlog.Hit) ([]bool, error) {
		mu.Lock()
		defer mu.Unlock()
		moved := make([]bool, len(hs))
		var err error
		for i, h := range hs {
			attempts[h.RequestID]++
			switch {
			case h.RequestID == "req_a":
				moved[i] = true // its statement committed
			case h.RequestID == "req_b" && attempts["req_b"] <= 3:
				err = errors.New("connection refused") // the database is away for 3 attempts
			case h.RequestID == "req_b":
				moved[i], movedB = true, true
			}
		}
		return moved, err // req_c: taken by recovery
	})
	settleAnswered(t, f, 3)
	f.app.Wait()
	mu.Lock()
	defer mu.Unlock()
	if !movedB || attempts["req_b"] != 4 || attempts["req_a"] != 1 {
		t.Fatalf("attempts %v, req_b moved %v; want req_b written on its 4th attempt, req_a once", attempts, movedB)
	}
	if n := m.n.Load(); n != 0 {
		t.Fatalf("%d reservations still in flight after every settlement ended", n)
	}
	if h := hitOf(t, f.db, "req_c"); h.Status != hitlog.StatusPending {
		t.Fatalf("the hit recovery took was written: %+v", h)
	}
}

// A settlement the database keeps refusing is given up after the retry
// window: the hit stays pending (crash recovery refunds it), the call had
// its answer, and App.Wait returns.
func TestSettleApartGivesUpAfterTheWindow(t *testing.T) {
	f := newFixture(t)
	m := &inFlight{}
	f.apartHits(t, m, metering.Config{SettleRetryWindow: 600 * time.Millisecond}, nil)
	f.db.OnCall("Hits.SucceedMany", func() error { return errors.New("connection refused") })
	res, errList := settleCalls(t, f, 1)
	if errList[0] != nil || res[0] == nil {
		t.Fatalf("%+v, %v", res[0], errList[0])
	}
	start := time.Now()
	f.app.Wait()
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("Wait took %v", took)
	}
	if n := f.db.Calls("Hits.SucceedMany"); n < 4 { // two per attempt: at 0, 250 ms and 750 ms
		t.Fatalf("%d statements tried, want the settlement retried in its window", n)
	}
	if n := m.n.Load(); n != 0 {
		t.Fatalf("%d reservations in flight after the settlement was given up", n)
	}
	if h := oneHit(t, f.db); h.Status != hitlog.StatusPending {
		t.Fatalf("hit %+v, want it left pending for recovery", h)
	}
}

// The settlement writer gathers the successful settlements queued within
// SettleLinger and writes them with one SucceedMany.
func TestSettleApartGathersSettlementsForTheLinger(t *testing.T) {
	f := newFixture(t)
	f.apartConfig(t, nil, metering.Config{SettleLinger: 400 * time.Millisecond})
	settleAnswered(t, f, 4)
	f.app.Wait()
	if c := f.db.Calls("Hits.SucceedMany"); c != 1 {
		t.Fatalf("%d SucceedMany calls, want 1", c)
	}
	for _, h := range f.db.Hits() {
		if h.Status != hitlog.StatusSuccess {
			t.Fatalf("hit %+v not settled", h)
		}
	}
}

// A read that must see this instance's calls settled (the fence) does not
// wait for the linger: the settlement queued before it is written at once.
func TestSettleApartFenceEndsTheLinger(t *testing.T) {
	f := newFixture(t)
	f.apartConfig(t, nil, metering.Config{SettleLinger: time.Minute})
	res, errList := settleCalls(t, f, 1)
	if errList[0] != nil || res[0] == nil {
		t.Fatalf("%+v, %v", res[0], errList[0])
	}
	written := func() bool { return oneHit(t, f.db).Status == hitlog.StatusSuccess }
	if written() {
		t.Fatal("settlement written before the linger or a fence")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if err := f.app.AwaitSettlements(ctx); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second || !written() {
		t.Fatalf("fence returned after %v, settlement written %v", took, written())
	}
	f.app.Wait()
}
