package metering_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
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
			res[i], _, errs[i] = a.CallService(context.Background(), in)
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
	f.db.Put(catalog.Service{ID: 8, Slug: "cheap", Method: "POST", ProviderURL: "https://up.example/cheap", Status: catalog.StatusActive},
		pricing.Price{ServiceID: 8, UserPrice: dec("0.50"), ResellerPrice: dec("0.50"), AdminCost: dec("0.10"), MinimumHitCharge: dec("0"), Status: pricing.StatusActive})
}

// hitOf is the stored hit of request id.
func hitOf(t *testing.T, db *storetest.DB, requestID string) hitlog.Hit {
	t.Helper()
	for _, h := range db.Hits() {
		if h.RequestID == requestID {
			return h
		}
	}
	t.Fatalf("no hit of %s", requestID)
	return hitlog.Hit{}
}

// Three calls in one batch: the second cannot pay, the third (a cheaper
// service) can. Each gets its own outcome, each ledger row its exact
// balance before and after, in queue order, and one transaction holds all.
func TestBatchDecidesEachCallInOrder(t *testing.T) {
	f := newFixture(t)
	f.user.Balance = dec("2.00")
	f.save()
	f.cheapService()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"ok":true}`)}, nil).Twice()

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
	f.app.Wait()
	h1, h2, h3 := hitOf(t, f.db, "req_1"), hitOf(t, f.db, "req_2"), hitOf(t, f.db, "req_3")
	if h1.Status != hitlog.StatusSuccess || !h1.Reserved.Equal(dec("1.23")) ||
		h2.Status != hitlog.StatusInsufficientBalance || !h2.Reserved.IsZero() ||
		h3.Status != hitlog.StatusSuccess || !h3.Reserved.Equal(dec("0.50")) {
		t.Fatalf("hits %+v", f.db.Hits())
	}
	if !(h1.ID < h2.ID && h2.ID < h3.ID) {
		t.Fatalf("hits not written in queue order: %d %d %d", h1.ID, h2.ID, h3.ID)
	}
	es := f.db.Entries()
	if len(es) != 2 {
		t.Fatalf("ledger %+v, want two debits", es)
	}
	checkEntry(t, es[0], ledger.Debit, "1.23", "2.00", "0.77", h1.ID)
	checkEntry(t, es[1], ledger.Debit, "0.50", "0.77", "0.27", h3.ID)
	if u := f.stored(); !u.Balance.Equal(dec("0.27")) || u.PlanCalls != 2 {
		t.Fatalf("user %+v", u)
	}
	// One reservation for the three: the user locked and the key counted once.
	if n, m := f.db.Calls("Users.LockByID"), f.db.Calls("Keys.CountHits"); n != 1 || m != 1 {
		t.Fatalf("%d locks and %d counts of the key, want one batch", n, m)
	}
	f.checkReserved(t, 3)
}

// A batch whose transaction fails twice fails every call in it with 503:
// nothing is charged, no upstream is called (the strict mock would fail).
func TestBatchFailureAnswers503(t *testing.T) {
	f := newFixture(t)
	away := fmt.Errorf("begin transaction: %w", errs.ErrUnavailable)
	f.db.Fail("WithinTx", away, away)
	in1, in2 := f.input(`{}`), f.input(`{}`)
	in2.RequestID = "req_2"
	_, errList := queue(t, f.app, in1, in2)()
	for i, err := range errList {
		if errs.KindOf(err) != errs.Unavailable {
			t.Fatalf("call %d: %v, want 503", i, err)
		}
	}
	if n := f.db.Calls("WithinTx"); n != 2 {
		t.Fatalf("%d transactions, want the batch tried twice", n)
	}
	if hs, es := f.db.Hits(), f.db.Entries(); len(hs) != 0 || len(es) != 0 || !f.stored().Balance.Equal(dec("10.00")) {
		t.Fatalf("hits %+v, ledger %+v, balance %s: want nothing written", hs, es, f.stored().Balance)
	}
}

// A failed first attempt is retried: the calls succeed with one charge each.
func TestBatchRetriesOnce(t *testing.T) {
	f := newFixture(t)
	f.db.Fail("WithinTx", fmt.Errorf("begin transaction: %w", errs.ErrUnavailable))
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Once()
	res, _, err := f.app.CallService(context.Background(), f.input(`{}`))
	if err != nil || !res.BalanceLeft.Equal(dec("8.77")) {
		t.Fatalf("%+v, %v", res, err)
	}
	f.app.Wait()
	if h := oneHit(t, f.db); h.Status != hitlog.StatusSuccess || len(f.db.Entries()) != 1 || !f.stored().Balance.Equal(dec("8.77")) {
		t.Fatalf("hit %+v, ledger %+v, balance %s: want one charge", h, f.db.Entries(), f.stored().Balance)
	}
}

// A batch the database refuses for a reason other than being away (one
// call's data, say) is applied call by call: only the refused call fails.
func TestRefusedBatchIsAppliedCallByCall(t *testing.T) {
	f := newFixture(t)
	// The batch of two fails twice, then the first call alone twice; the
	// second call alone goes through.
	refusal := errors.New("Error 1366: Incorrect string value")
	f.db.Fail("WithinTx", refusal, refusal, refusal, refusal)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Once()
	refused, ok := f.input(`{}`), f.input(`{}`)
	refused.RequestID = "req_refused"
	res, errList := queue(t, f.app, refused, ok)()
	if errs.KindOf(errList[0]) != errs.Unavailable {
		t.Fatalf("refused call: %v, want 503", errList[0])
	}
	if errList[1] != nil || !res[1].BalanceLeft.Equal(dec("8.77")) {
		t.Fatalf("the other call: %+v, %v", res[1], errList[1])
	}
	f.app.Wait()
	if h := oneHit(t, f.db); h.RequestID != "req_TEST" || h.Status != hitlog.StatusSuccess {
		t.Fatalf("hit %+v, want the other call's alone", h)
	}
}

// Shutdown: Wait returns only once every queued call has been written.
func TestWaitDrainsTheBatchWriter(t *testing.T) {
	f := newFixture(t)
	f.user.Balance = dec("0.00") // every call is refused for its balance: one insert, no upstream
	f.save()
	f.db.OnCall("Hits.InsertMany", func() error {
		time.Sleep(50 * time.Millisecond) // a slow commit
		return nil
	})
	var ins []metering.CallInput
	for i := 0; i < 5; i++ {
		in := f.input(`{}`)
		in.RequestID = "req_" + string(rune('a'+i))
		ins = append(ins, in)
	}
	wait := queue(t, f.app, ins...)
	f.app.Wait()
	if inserted := len(f.db.Hits()); inserted != 5 || metering.QueuedCalls(f.app) != 0 {
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
	db      *storetest.DB
	locks   *fakeLocks
	inserts metering.BatchInserts // nil: none offered
	batch   atomic.Int32          // WithinBatchTx calls
}

func (t *batchTx) WithinTx(ctx context.Context, fn func(context.Context, store.Stores) error) error {
	return t.db.WithinTx(ctx, fn)
}

func (t *batchTx) WithinBatchTx(ctx context.Context, fn func(context.Context, metering.BatchStores) error) error {
	t.batch.Add(1)
	return t.db.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		bs := metering.Statements(metering.TxStoresOf(s))
		if t.locks != nil {
			bs.Locks = t.locks
		}
		if t.inserts != nil {
			bs.Inserts = t.inserts
		}
		return fn(ctx, bs)
	})
}

// fakeLocks does what the port says over the store's rows: the users as
// stored, and each key's count granted up to grant.
type fakeLocks struct {
	db      *storetest.DB
	grant   int
	userIDs []uint64
	counts  []metering.KeyCount
}

func (l *fakeLocks) LockAndCount(_ context.Context, userIDs []uint64, counts []metering.KeyCount, _ time.Time) (map[uint64]*user.User, []int, error) {
	l.userIDs, l.counts = userIDs, counts
	users := map[uint64]*user.User{}
	for _, id := range userIDs {
		u := l.db.User(id)
		users[id] = &u
	}
	granted := make([]int, len(counts))
	for i := range counts {
		granted[i] = min(counts[i].N, l.grant)
	}
	return users, granted, nil
}

// withBatchTx rebuilds the fixture's app on tx.
func (f *fixture) withBatchTx(tx *batchTx) {
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app = metering.New(metering.Deps{Tx: tx, Stores: f.db.Stores(), Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})
}

// With a store that offers BatchLocks, the writer takes the batch's locks
// through it (no LockByID, no CountHits) and honours what it granted: the
// second call of a batch granted one call is refused with the daily limit.
func TestBatchTakesLocksThroughBatchLocks(t *testing.T) {
	f := newFixture(t)
	tx := &batchTx{db: f.db, locks: &fakeLocks{db: f.db, grant: 1}}
	f.withBatchTx(tx)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"ok":true}`)}, nil).Once()

	first, second := f.input(`{}`), f.input(`{}`)
	first.RequestID, second.RequestID = "req_1", "req_2"
	_, errList := queue(t, f.app, first, second)()
	f.app.Wait() // the first call's settlement, written after its answer
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
	if tx.batch.Load() == 0 {
		t.Fatal("the writer did not use WithinBatchTx")
	}
	if n, m := f.db.Calls("Users.LockByID"), f.db.Calls("Keys.CountHits"); n != 0 || m != 0 {
		t.Fatalf("%d LockByID and %d CountHits beside BatchLocks", n, m)
	}
	h1, h2 := hitOf(t, f.db, "req_1"), hitOf(t, f.db, "req_2")
	if h1.Status != hitlog.StatusSuccess || h2.Status != hitlog.StatusFailed {
		t.Fatalf("hits %+v", f.db.Hits())
	}
	es := f.db.Entries()
	if len(es) != 1 {
		t.Fatalf("ledger %+v, want one debit", es)
	}
	checkEntry(t, es[0], ledger.Debit, "1.23", "10.00", "8.77", h1.ID)
	if u := f.stored(); !u.Balance.Equal(dec("8.77")) {
		t.Fatalf("balance %s", u.Balance)
	}
}

// fakeInserts records what the writer hands BatchInserts and writes it as
// the port says: the hits, then the entries, each entry with hitOf[i] >= 0
// referencing its hit's new id.
type fakeInserts struct {
	mu    sync.Mutex
	calls []insertCall
}

type insertCall struct {
	hits    []string // request ids
	entries []ledger.Type
	hitOf   []int
}

func (f *fakeInserts) Insert(ctx context.Context, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int, s store.Stores) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := insertCall{hitOf: hitOf}
	if err := s.Hits.InsertMany(ctx, hits); err != nil {
		return err
	}
	for _, h := range hits {
		c.hits = append(c.hits, h.RequestID)
	}
	for i, e := range entries {
		c.entries = append(c.entries, e.Type)
		if k := hitOf[i]; k >= 0 {
			id := hits[k].ID
			e.ReferenceID = &id
		}
	}
	if err := s.Ledger.InsertMany(ctx, entries); err != nil {
		return err
	}
	f.calls = append(f.calls, c)
	return nil
}

// boundInserts is fakeInserts on one transaction's stores.
type boundInserts struct {
	f *fakeInserts
	s store.Stores
}

func (b boundInserts) Insert(ctx context.Context, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error {
	return b.f.Insert(ctx, hits, entries, hitOf, b.s)
}

// With a store that offers BatchInserts the writer hands it the batch's
// hits and ledger rows together, each debit with the index of its hit (a
// refused call in between has none) and each refund with -1 (it references
// a hit of an earlier batch by id); the settlements refund the hits the
// store numbered.
func TestBatchWritesRowsThroughBatchInserts(t *testing.T) {
	f := newFixture(t)
	f.user.Balance = dec("2.00")
	f.save()
	f.cheapService()
	inserts := &fakeInserts{}
	tx := &batchTx{db: f.db, locks: &fakeLocks{db: f.db, grant: 3}, inserts: boundInserts{f: inserts, s: f.db.Stores()}}
	f.withBatchTx(tx)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 502, Body: []byte(`{}`)}, nil).Twice()

	first, second, third := f.input(`{}`), f.input(`{}`), f.input(`{}`)
	first.RequestID, second.RequestID, third.RequestID = "req_1", "req_2", "req_3"
	third.Slug = "cheap"
	_, errList := queue(t, f.app, first, second, third)()
	if !errors.Is(errList[1], ledger.ErrInsufficientBalance) || errs.KindOf(errList[0]) != errs.Upstream || errs.KindOf(errList[2]) != errs.Upstream {
		t.Fatalf("errors %v", errList)
	}
	if n := f.db.Calls("Hits.InsertMany"); n != len(inserts.calls) || n == 0 {
		t.Fatalf("%d hit inserts outside BatchInserts' %d", n, len(inserts.calls))
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
	h1, h3 := hitOf(t, f.db, "req_1"), hitOf(t, f.db, "req_3")
	var refunded []uint64
	for _, e := range f.db.Entries() {
		if e.Type == ledger.Refund {
			refunded = append(refunded, *e.ReferenceID)
		}
	}
	slices.Sort(refunded)
	if refunds != 2 || fmt.Sprint(refunded) != fmt.Sprint([]uint64{h1.ID, h3.ID}) || h1.Status != hitlog.StatusFailed || h3.Status != hitlog.StatusFailed {
		t.Fatalf("%d refunds of hits %v; hits %+v", refunds, refunded, f.db.Hits())
	}
	if u := f.stored(); !u.Balance.Equal(dec("2.00")) {
		t.Fatalf("balance %s, want 2.00 after the refunds", u.Balance)
	}
}
