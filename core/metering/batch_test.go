package metering_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/apikey"
	"paygate/core/catalog"
	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/metering"
	"paygate/core/pricing"
	"paygate/core/store"
	"paygate/core/user"
)

// queue starts calls one after the other while the writer is held, each
// queued before the next starts, and returns their results in that order.
func queue(t *testing.T, a *metering.Metering, inputs ...metering.CallInput) (wait func() ([]*metering.CallResult, []error)) {
	t.Helper()
	release := metering.HoldBatches(a)
	res := make([]*metering.CallResult, len(inputs))
	errs := make([]error, len(inputs))
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i], errs[i] = a.CallService(context.Background(), in)
		}()
		deadline := time.Now().Add(5 * time.Second)
		for metering.QueuedCalls(a) < i+1 {
			if time.Now().After(deadline) {
				t.Fatalf("call %d never queued", i)
			}
			time.Sleep(time.Millisecond)
		}
	}
	release()
	return func() ([]*metering.CallResult, []error) { wg.Wait(); return res, errs }
}

// cheapService adds the service "cheap" (id 8), sold to user 11 at 0.50.
func (f *fixture) cheapService() {
	cheap := &catalog.Service{ID: 8, Slug: "cheap", Method: "POST", ProviderURL: "https://up.example/cheap", Status: catalog.StatusActive}
	f.services.EXPECT().BySlug(mock.Anything, "cheap").Return(cheap, nil).Maybe()
	f.services.EXPECT().Doc(mock.Anything, uint64(8)).Return(nil, catalog.ErrDocNotFound).Maybe()
	f.prices.EXPECT().Applicable(mock.Anything, uint64(8), uint64(11)).Return(&pricing.Price{
		UserPrice: dec("0.50"), ResellerPrice: dec("0.50"), AdminCost: dec("0.10"), MinimumHitCharge: dec("0"), Status: pricing.StatusActive}, nil).Maybe()
}

// Three calls in one batch: the second cannot pay, the third (a cheaper
// service) can. Each gets its own outcome, each ledger row its exact
// balance before and after, in queue order, and one transaction holds all.
func TestBatchDecidesEachCallInOrder(t *testing.T) {
	f := newFixture(t)
	f.user.Balance = dec("2.00")
	f.cheapService()

	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Once()
	f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 3, mock.Anything).Return(3, nil).Once()
	f.hits.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		return len(hs) == 3 && hs[0].Status == hitlog.StatusPending && hs[0].Reserved.Equal(dec("1.23")) &&
			hs[1].Status == hitlog.StatusInsufficientBalance && hs[1].Reserved.IsZero() &&
			hs[2].Status == hitlog.StatusPending && hs[2].Reserved.Equal(dec("0.50"))
	})).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error {
		for i, h := range hs {
			h.ID = uint64(100 + i)
		}
		return nil
	}).Once()
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
		return len(es) == 2 &&
			es[0].Type == ledger.Debit && es[0].BalanceBefore.Equal(dec("2.00")) && es[0].BalanceAfter.Equal(dec("0.77")) && *es[0].ReferenceID == 100 &&
			es[1].Type == ledger.Debit && es[1].BalanceBefore.Equal(dec("0.77")) && es[1].BalanceAfter.Equal(dec("0.27")) && *es[1].ReferenceID == 102
	})).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Balance.Equal(dec("0.27")) && u.PlanCalls == 2
	})).Return(nil).Once()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"ok":true}`)}, nil).Twice()
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) ([]bool, error) {
		out := make([]bool, len(hs))
		for i, h := range hs {
			out[i] = h.Status == hitlog.StatusSuccess && (h.ID == 100 || h.ID == 102)
		}
		return out, nil
	})

	first, second, third := f.input(`{}`), f.input(`{}`), f.input(`{}`)
	first.RequestID, second.RequestID, third.RequestID = "req_1", "req_2", "req_3"
	third.Slug = "cheap"
	res, errs := queue(t, f.app, first, second, third)()
	if errs[0] != nil || !res[0].BalanceLeft.Equal(dec("0.77")) || !res[0].Charged.Equal(dec("1.23")) {
		t.Fatalf("first: %+v, %v", res[0], errs[0])
	}
	if !errors.Is(errs[1], ledger.ErrInsufficientBalance) {
		t.Fatalf("second: %v, want insufficient balance", errs[1])
	}
	if errs[2] != nil || !res[2].BalanceLeft.Equal(dec("0.27")) || !res[2].Charged.Equal(dec("0.50")) {
		t.Fatalf("third: %+v, %v", res[2], errs[2])
	}
}

// A batch whose transaction fails twice fails every call in it with 503:
// nothing is charged, no upstream is called (the strict mocks would fail on
// any write or upstream call).
func TestBatchFailureAnswers503(t *testing.T) {
	f := newFixture(t)
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits}
	tx := &flakyTx{fails: 2, stores: stores}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	a := metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})
	t.Cleanup(a.Wait) // before the mocks' checks: successful calls settle after their answer
	in1, in2 := f.input(`{}`), f.input(`{}`)
	in2.RequestID = "req_2"
	_, errList := queue(t, a, in1, in2)()
	for i, err := range errList {
		if errs.KindOf(err) != errs.Unavailable {
			t.Fatalf("call %d: %v, want 503", i, err)
		}
	}
	if tx.calls != 2 {
		t.Fatalf("%d transactions, want the batch tried twice", tx.calls)
	}
}

// A failed first attempt is retried: the calls succeed with one charge each.
func TestBatchRetriesOnce(t *testing.T) {
	f := newFixture(t)
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits}
	tx := &flakyTx{fails: 1, stores: stores}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	a := metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})
	t.Cleanup(a.Wait) // before the mocks' checks: successful calls settle after their answer
	f.expectReserve(t, "1.23")
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Once()
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).Return([]bool{true}, nil).Once()
	res, err := a.CallService(context.Background(), f.input(`{}`))
	if err != nil || !res.BalanceLeft.Equal(dec("8.77")) {
		t.Fatalf("%+v, %v", res, err)
	}
}

// flakyTx fails its first `fails` transactions before running them.
// flakyTx fails its first `fails` transactions with err (default: the
// database away, as the store reports a refused connection).
type flakyTx struct {
	mu     sync.Mutex
	fails  int
	calls  int
	err    error
	stores store.Stores
}

func (t *flakyTx) WithinTx(ctx context.Context, fn func(context.Context, store.Stores) error) error {
	t.mu.Lock()
	t.calls++
	fail := t.calls <= t.fails
	t.mu.Unlock()
	if fail {
		if t.err != nil {
			return t.err
		}
		return fmt.Errorf("begin transaction: %w", errs.ErrUnavailable)
	}
	return fn(ctx, t.stores)
}

// A batch the database refuses for a reason other than being away (one
// call's data, say) is applied call by call: only the refused call fails.
func TestRefusedBatchIsAppliedCallByCall(t *testing.T) {
	f := newFixture(t)
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits}
	// The batch of two fails twice, then the first call alone twice; the
	// second call alone goes through.
	tx := &flakyTx{fails: 4, err: errors.New("Error 1366: Incorrect string value"), stores: stores}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	a := metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})
	t.Cleanup(a.Wait) // before the mocks' checks: successful calls settle after their answer
	f.expectReserve(t, "1.23")
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Once()
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).Return([]bool{true}, nil).Once()
	refused, ok := f.input(`{}`), f.input(`{}`)
	refused.RequestID = "req_refused"
	res, errList := queue(t, a, refused, ok)()
	if errs.KindOf(errList[0]) != errs.Unavailable {
		t.Fatalf("refused call: %v, want 503", errList[0])
	}
	if errList[1] != nil || !res[1].BalanceLeft.Equal(dec("8.77")) {
		t.Fatalf("the other call: %+v, %v", res[1], errList[1])
	}
}

// Shutdown: Wait returns only once every queued call has been written.
func TestWaitDrainsTheBatchWriter(t *testing.T) {
	f := newFixture(t)
	f.user.Balance = dec("0.00") // every call is refused for its balance: one insert, no upstream
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Once()
	f.keys.EXPECT().CountHits(mock.Anything, uint64(3), mock.Anything, 5, mock.Anything).Return(5, nil).Once()
	var inserted int
	f.hits.EXPECT().InsertMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error {
		time.Sleep(50 * time.Millisecond) // a slow commit
		inserted += len(hs)
		return nil
	}).Once()
	var ins []metering.CallInput
	for i := 0; i < 5; i++ {
		in := f.input(`{}`)
		in.RequestID = "req_" + string(rune('a'+i))
		ins = append(ins, in)
	}
	wait := queue(t, f.app, ins...)
	f.app.Wait()
	if inserted != 5 || metering.QueuedCalls(f.app) != 0 {
		t.Fatalf("after Wait: %d inserted, %d queued", inserted, metering.QueuedCalls(f.app))
	}
	_, errList := wait()
	for _, err := range errList {
		if !errors.Is(err, ledger.ErrInsufficientBalance) {
			t.Fatal(err)
		}
	}
}

// batchTx is a store whose metering transactions (WithinBatchTx) hand the
// writer Stores with BatchLocks; other transactions go to WithinTx.
type batchTx struct {
	stores  store.Stores
	locks   *fakeLocks
	inserts metering.BatchInserts // nil: none offered
	batch   int                   // WithinBatchTx calls
}

func (t *batchTx) WithinTx(ctx context.Context, fn func(context.Context, store.Stores) error) error {
	return fn(ctx, t.stores)
}

func (t *batchTx) WithinBatchTx(ctx context.Context, fn func(context.Context, metering.BatchStores) error) error {
	t.batch++
	return fn(ctx, metering.BatchStores{Stores: t.stores, Locks: t.locks, Inserts: t.inserts})
}

type fakeLocks struct {
	user    user.User
	grant   int
	userIDs []uint64
	counts  []metering.KeyCount
}

func (l *fakeLocks) LockAndCount(_ context.Context, userIDs []uint64, counts []metering.KeyCount, _ time.Time) (map[uint64]*user.User, []int, error) {
	l.userIDs, l.counts = userIDs, counts
	u := l.user
	granted := make([]int, len(counts))
	for i := range counts {
		granted[i] = min(counts[i].N, l.grant)
	}
	return map[uint64]*user.User{u.ID: &u}, granted, nil
}

// With a store that offers BatchLocks, the writer takes the batch's locks
// through it (no LockByID, no CountHits: the strict mocks would fail) and
// honours what it granted: the second call of a batch granted one call is
// refused with the daily limit.
func TestBatchTakesLocksThroughBatchLocks(t *testing.T) {
	f := newFixture(t)
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits}
	tx := &batchTx{stores: stores, locks: &fakeLocks{user: *f.user, grant: 1}}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	a := metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})
	t.Cleanup(a.Wait) // before the mocks' checks: successful calls settle after their answer

	f.hits.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		return len(hs) == 2 && hs[0].Status == hitlog.StatusPending && hs[1].Status == hitlog.StatusFailed
	})).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error { hs[0].ID, hs[1].ID = 100, 101; return nil }).Once()
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
		return len(es) == 1 && *es[0].ReferenceID == 100
	})).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).Return(nil).Once()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"ok":true}`)}, nil).Once()
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).Return([]bool{true}, nil).Once()

	first, second := f.input(`{}`), f.input(`{}`)
	first.RequestID, second.RequestID = "req_1", "req_2"
	_, errList := queue(t, a, first, second)()
	a.Wait() // the first call's settlement, written after its answer
	if errList[0] != nil {
		t.Fatalf("first call: %v", errList[0])
	}
	if !errors.Is(errList[1], apikey.ErrDailyLimit) {
		t.Fatalf("second call: %v, want the daily limit", errList[1])
	}
	l := tx.locks
	if fmt.Sprint(l.userIDs) != "[11]" || len(l.counts) != 1 || l.counts[0] != (metering.KeyCount{KeyID: 3, Day: "2026-11-22", N: 2}) {
		t.Fatalf("LockAndCount(%v, %+v)", l.userIDs, l.counts)
	}
	if tx.batch == 0 {
		t.Fatal("the writer did not use WithinBatchTx")
	}
}

// fakeInserts records what the writer hands BatchInserts and gives the
// hits ids from 100 on (as the store does once the rows are written).
type fakeInserts struct {
	mu    sync.Mutex
	next  uint64
	calls []insertCall
}

type insertCall struct {
	hits    []string // request ids
	entries []ledger.Type
	hitOf   []int
}

func (f *fakeInserts) Insert(_ context.Context, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := insertCall{hitOf: hitOf}
	for _, h := range hits {
		f.next++
		h.ID = 99 + f.next
		c.hits = append(c.hits, h.RequestID)
	}
	for i, e := range entries {
		c.entries = append(c.entries, e.Type)
		if k := hitOf[i]; k >= 0 {
			id := hits[k].ID
			e.ReferenceID = &id
		}
	}
	f.calls = append(f.calls, c)
	return nil
}

// With a store that offers BatchInserts the writer hands it the batch's
// hits and ledger rows together (no Hits.InsertMany, no Ledger.InsertMany:
// the strict mocks would fail), each debit with the index of its hit (a
// refused call in between has none) and each refund with -1 (it references
// a hit of an earlier batch by id); the settlements refund the hits the
// store numbered.
func TestBatchWritesRowsThroughBatchInserts(t *testing.T) {
	f := newFixture(t)
	f.user.Balance = dec("2.00")
	f.cheapService()
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits}
	inserts := &fakeInserts{}
	tx := &batchTx{stores: stores, locks: &fakeLocks{user: *f.user, grant: 3}, inserts: inserts}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	a := metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})

	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).Return(nil)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 502, Body: []byte(`{}`)}, nil).Twice()
	var refunded []uint64
	var mu sync.Mutex
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) ([]bool, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, h := range hs {
			refunded = append(refunded, h.ID)
		}
		return slices.Repeat([]bool{true}, len(hs)), nil
	})

	first, second, third := f.input(`{}`), f.input(`{}`), f.input(`{}`)
	first.RequestID, second.RequestID, third.RequestID = "req_1", "req_2", "req_3"
	third.Slug = "cheap"
	_, errList := queue(t, a, first, second, third)()
	if !errors.Is(errList[1], ledger.ErrInsufficientBalance) || errs.KindOf(errList[0]) != errs.Upstream || errs.KindOf(errList[2]) != errs.Upstream {
		t.Fatalf("errors %v", errList)
	}
	reserve := inserts.calls[0]
	if fmt.Sprint(reserve.hits) != "[req_1 req_2 req_3]" || fmt.Sprint(reserve.entries) != "[debit debit]" || fmt.Sprint(reserve.hitOf) != "[0 2]" {
		t.Fatalf("reservation: %+v", reserve)
	}
	var refunds int
	for _, c := range inserts.calls[1:] {
		if len(c.hits) != 0 || slices.ContainsFunc(c.hitOf, func(k int) bool { return k != -1 }) {
			t.Fatalf("settlement: %+v", c)
		}
		refunds += len(c.entries)
	}
	slices.Sort(refunded)
	if refunds != 2 || fmt.Sprint(refunded) != "[100 102]" {
		t.Fatalf("%d refunds of hits %v", refunds, refunded)
	}
}
