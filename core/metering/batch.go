package metering

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/apikey"
	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/store"
	"paygate/core/user"
)

// Group commit of metered service calls (decisions: "Metering group
// commit"). Calls hand their reservation (daily counter, plan and balance
// checks, pending hit, debit) and later their settlement (success, or
// failure with its refund) to one writer, which applies everything queued
// in ONE database transaction and releases each call only after that
// transaction committed. Durability is the same as one transaction per
// call; the commits (fsyncs) are shared. While a batch commits, the next
// one queues, so batches grow with the load and no timer is needed.
//
// Every decision stays exact and in the database: the users' rows are
// locked (SELECT … FOR UPDATE, in id order) and the calls' debits applied
// in queue order, each ledger row with its own balance_before/after; a
// key's daily counter is read and raised under its row lock in the same
// transaction; settlement moves only hits still pending.

// DefaultBatchSize is the most calls one metering transaction carries.
const DefaultBatchSize = 256

// batchAttemptTimeout bounds one attempt at writing a batch.
const batchAttemptTimeout = 15 * time.Second

// ErrMeteringUnavailable answers a call whose batch could not be written
// (database down): nothing of it was charged or logged.
var ErrMeteringUnavailable = errs.ErrUnavailable

type batchKind uint8

const (
	batchReserve batchKind = iota + 1
	batchSettle
	// batchCapture writes a hold call's hit, final, and its charge from
	// the hold (holds.go).
	batchCapture
)

// batchOp is one call's part of a batch.
type batchOp struct {
	kind batchKind
	hit  *hitlog.Hit

	// reservation
	keyID   uint64
	day     string
	charge  decimal.Decimal
	invalid error     // the call's parameters were refused: counted, then logged failed
	start   time.Time // the call's start (response_time_ms of a refusal)

	month string // plan month of the call (reservation, refund and capture)

	hold    *liveHold   // capture: the hold the call took from (charge: its price)
	written *hitlog.Hit // capture: its hit as the committed batch wrote it

	// results, set by the writer once the batch committed (or failed)
	err     error           // reservation: the refusal (ErrDailyLimit, ErrPlanLimit, …) or a write failure
	balance decimal.Decimal // reservation: the balance after this call's debit
	counted bool            // reservation: the key's daily counter took the call
	moved   bool            // settlement: this batch moved the hit out of pending
	done    chan struct{}

	// after, when set, runs in the writer once the batch holding the op
	// was handled: the op's caller did not wait (a success settled after
	// the answer, settleLater). firstTry is when its first attempt queued.
	after    func(*batchOp)
	firstTry time.Time
	tries    uint
	// fence marks a read barrier (batcher.fence): nothing to write, done
	// once every op queued before it was handled.
	fence bool
}

// DefaultSettleLinger is Config.SettleLinger's default. A metered call
// settling 20 ms later costs nothing to its caller, who has the answer;
// on the bench the settlement statements grew from ~26 to ~130 hits and
// the database's CPU per call fell by a tenth (decisions: "Successful
// settlements are gathered").
const DefaultSettleLinger = 20 * time.Millisecond

// batcher queues calls for the writer; at most one writer goroutine runs,
// and it ends when the queue is empty (no goroutine outlives the load).
type batcher struct {
	mu      sync.Mutex
	queue   []*batchOp
	running bool
	size    int // at most this many calls per batch (Config.BatchSize)
	wg      sync.WaitGroup

	// linger > 0: before each batch the writer waits up to linger for the
	// queue to fill (size ops), unless a fence is queued (urgent).
	linger time.Duration
	urgent bool
	wake   chan struct{} // cap 1: the queue filled up or a fence came
}

// submit queues op for its writer (writerOf) and waits until the batch
// holding it has committed or failed.
func (a *Metering) submit(op *batchOp) {
	b, write := a.writerOf(op)
	b.submit(op, write)
}

// writerOf is the queue that writes op and its write function: the
// metering writer's, or successWriter's for a successful settlement.
func (a *Metering) writerOf(op *batchOp) (*batcher, func([]*batchOp)) {
	if op.kind == batchSettle && op.hit.Status == hitlog.StatusSuccess {
		return a.successWriter()
	}
	return &a.batch, a.writeBatch
}

// successWriter writes successful settlements: a writer of their own when
// Config.SettleApart, else the metering writer.
func (a *Metering) successWriter() (*batcher, func([]*batchOp)) {
	if a.cfg.SettleApart {
		return &a.settled, a.writeSettled
	}
	return &a.batch, a.writeBatch
}

// submit queues op and waits until write has handled the batch holding it.
func (b *batcher) submit(op *batchOp, write func([]*batchOp)) {
	b.enqueue(op, write)
	<-op.done
}

// fence returns a channel closed once every op queued before the call has
// been handled (at once when nothing is queued or being written).
func (b *batcher) fence(write func([]*batchOp)) <-chan struct{} {
	b.mu.Lock()
	idle := !b.running
	b.mu.Unlock()
	if idle {
		return closedChan
	}
	op := &batchOp{fence: true}
	b.enqueue(op, write)
	return op.done
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// enqueue queues op for write without waiting; the writer goroutine starts
// with the first queued op.
func (b *batcher) enqueue(op *batchOp, write func([]*batchOp)) {
	op.done = make(chan struct{})
	b.mu.Lock()
	b.queue = append(b.queue, op)
	if op.fence {
		b.urgent = true
	}
	wake := b.linger > 0 && (op.fence || len(b.queue) == b.size)
	start := !b.running
	if start {
		b.running = true
		b.wg.Add(1)
	}
	b.mu.Unlock()
	if wake {
		select {
		case b.wake <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
	if start {
		go b.run(write)
	}
}

// gather waits, before a batch, until the queue holds size ops, a fence is
// queued or linger has passed (batcher.linger); not at all when the queue
// is empty (the writer ends).
func (b *batcher) gather() {
	b.mu.Lock()
	ready := b.urgent || len(b.queue) == 0 || len(b.queue) >= b.size
	b.mu.Unlock()
	if ready {
		return
	}
	t := time.NewTimer(b.linger)
	defer t.Stop()
	select {
	case <-t.C:
	case <-b.wake:
	}
}

// run hands write up to BatchSize queued calls at a time until the queue is
// empty, then ends.
func (b *batcher) run(write func([]*batchOp)) {
	defer b.wg.Done()
	for {
		if b.linger > 0 {
			b.gather()
		}
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.running = false
			b.mu.Unlock()
			return
		}
		n := min(len(b.queue), b.size)
		ops := b.queue[:n:n]
		b.queue = append([]*batchOp(nil), b.queue[n:]...)
		b.urgent = slices.ContainsFunc(b.queue, func(op *batchOp) bool { return op.fence })
		b.mu.Unlock()

		work := ops
		if slices.ContainsFunc(ops, func(op *batchOp) bool { return op.fence }) {
			work = slices.DeleteFunc(slices.Clone(ops), func(op *batchOp) bool { return op.fence })
		}
		if len(work) > 0 {
			write(work)
		}
		for _, op := range ops {
			close(op.done)
		}
		for _, op := range work {
			if op.after != nil {
				op.after(op)
			}
		}
	}
}

// writeBatch applies ops in one transaction, tried twice (a deadlock or a
// lost connection aborts the first); if both fail, every call of the batch
// fails with 503 and nothing of it is written. The ops get their results
// only from the plan of the transaction that committed: a store may run
// the transaction's function more than once (an optimistic batch whose
// snapshot was stale, batchsnap.go), and each run plans from the same ops.
func (a *Metering) writeBatch(ops []*batchOp) {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		// A bounded attempt: a statement stuck on a cut-off database must
		// not hold every call queued behind it.
		ctx, cancel := context.WithTimeout(context.Background(), batchAttemptTimeout)
		var plan *batchPlan
		err = a.batchTx.WithinBatchTx(ctx, func(ctx context.Context, s BatchStores) error {
			var err error
			plan, err = a.applyBatch(ctx, s, ops)
			return err
		})
		cancel()
		if err == nil {
			a.batchDone(ops, plan)
			return
		}
	}
	if len(ops) > 1 && errs.KindOf(err) != errs.Unavailable {
		// Not the database being away: one call's data may be what the
		// database refuses. Apply the calls one by one, so only that call
		// fails and the others of the batch go through.
		a.log.Warn("metering batch refused; applying its calls one by one", "calls", len(ops), "err", err)
		for _, op := range ops {
			a.writeBatch([]*batchOp{op})
		}
		return
	}
	a.log.Error("metering batch failed", "calls", len(ops), "err", err)
	for _, op := range ops {
		op.err = fmt.Errorf("%w: %v", ErrMeteringUnavailable, err)
		op.moved, op.counted = false, false
	}
}

// batchDone gives each op of a committed batch its result: a reservation
// or capture its hit as written (id, status, charges), its refusal, its
// balance and whether the daily counter took it.
func (a *Metering) batchDone(ops []*batchOp, p *batchPlan) {
	for i, op := range ops {
		r := p.results[i]
		op.err, op.balance, op.counted = r.err, r.balance, r.counted
		switch {
		case r.hit == nil:
		case op.kind == batchCapture:
			// Its call has answered and may still read its hit: the row
			// as written is kept apart.
			op.written = r.hit
		default:
			*op.hit = *r.hit // the reservation's caller waits for it
		}
	}
	for _, id := range p.uncharged {
		a.log.Error("hold call not charged: its hold was released and the balance does not pay for it", "request_id", id)
	}
}

// writeSettled writes a batch of successful settlements (Config.SettleApart)
// outside any transaction: Hits.SucceedMany's statements each commit by
// themselves, and a hit moves only if still pending, so these need neither
// the users' nor the keys' locks and overlap the reservation batches (which
// only insert hit rows; failed settlements, which refund under the user's
// lock, stay there). A failed attempt is tried once more for the hits it
// did not report moved (one whose statement committed before its
// connection was lost reads success and counts as moved); what is still
// unsettled then gets the error, and settleLater queues it again (crash
// recovery refunds what never settles).
func (a *Metering) writeSettled(ops []*batchOp) {
	ctx := context.Background()
	todo := ops
	var err error
	for attempt := 0; attempt < 2 && len(todo) > 0; attempt++ {
		hits := make([]*hitlog.Hit, len(todo))
		for i, op := range todo {
			op.err, op.moved = nil, false
			hits[i] = op.hit
		}
		var moved []bool
		moved, err = a.st.Hits.SucceedMany(ctx, hits)
		if err == nil {
			for i, op := range todo {
				op.moved = moved[i]
			}
			return
		}
		left := todo[:0:0]
		for i, op := range todo {
			if i < len(moved) && moved[i] {
				op.moved = true
				continue
			}
			left = append(left, op)
		}
		todo = left
	}
	a.log.Error("metering settlement batch failed", "calls", len(todo), "err", err)
	for _, op := range todo {
		op.err = fmt.Errorf("%w: %v", ErrMeteringUnavailable, err)
	}
}

// applyBatch is the batch's transaction. Order: users' rows locked (id
// order), keys' counters raised (id order), settlements, reservations in
// queue order, then the multi-row inserts and the balances. It returns the
// plan it wrote; the ops are left as they were, but for the settlements'
// moved flags.
func (a *Metering) applyBatch(ctx context.Context, s BatchStores, ops []*batchOp) (*batchPlan, error) {
	userIDs := make([]uint64, 0, 4)
	perKey := map[keyDay]int{}
	var settle []*hitlog.Hit
	for _, op := range ops {
		op.moved = false
		switch op.kind {
		case batchReserve:
			perKey[keyDay{op.keyID, op.day}]++
			userIDs = append(userIDs, op.hit.UserID)
		case batchSettle:
			settle = append(settle, op.hit)
			if op.hit.Status != hitlog.StatusSuccess {
				userIDs = append(userIDs, op.hit.UserID)
			}
		case batchCapture:
			userIDs = append(userIDs, op.hit.UserID)
		}
	}
	slices.Sort(userIDs)
	userIDs = slices.Compact(userIDs)
	keys := make([]keyDay, 0, len(perKey))
	for k := range perKey {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y keyDay) int {
		if x.id != y.id {
			return cmp.Compare(x.id, y.id)
		}
		return cmp.Compare(x.day, y.day)
	})
	users, granted, err := a.lockAndCount(ctx, s, userIDs, keys, perKey)
	if err != nil {
		return nil, err
	}

	if len(settle) > 0 {
		moved, err := s.Hits.FinishMany(ctx, settle)
		if err != nil {
			return nil, fmt.Errorf("settle hits: %w", err)
		}
		i := 0
		for _, op := range ops {
			if op.kind == batchSettle {
				op.moved = moved[i]
				i++
			}
		}
	}
	now := a.now()
	plan, err := planBatch(ops, users, granted, now)
	if err != nil {
		return nil, err
	}
	for _, u := range plan.holdUses {
		if err := s.Holds.Use(ctx, u.id, u.calls, u.money); err != nil {
			return nil, fmt.Errorf("use hold %d: %w", u.id, err)
		}
	}
	if err := insertBatch(ctx, s, plan.inserts, plan.entries, plan.hitOf); err != nil {
		return nil, err
	}
	if len(plan.entries) > 0 {
		if err := store.AlertLowBalance(ctx, s.Stores, now, a.cfg.Livemode, plan.users, plan.entries); err != nil {
			return nil, err
		}
	}
	for _, id := range userIDs {
		if plan.touched[id] {
			if err := s.Users.SaveBalance(ctx, plan.users[id]); err != nil {
				return nil, fmt.Errorf("save balance: %w", err)
			}
		}
	}
	return plan, nil
}

// batchPlan is what one batch writes, decided from the rows it locked.
type batchPlan struct {
	results   []opResult            // results[i] is what the batch decided for ops[i]
	users     map[uint64]*user.User // the users' rows as the batch leaves them
	inserts   []*hitlog.Hit         // new hit rows: reservations and captures, in queue order
	entries   []*ledger.Entry       // new ledger rows
	hitOf     []int                 // entries[i] references inserts[hitOf[i]] when >= 0
	touched   map[uint64]bool       // users whose row changed (balance, held money, plan count)
	holdUses  []holdUse             // calls and money each hold gave, in first-use order
	uncharged []string              // request ids of captures nobody's money paid for
}

// opResult is what a batch decided for one op.
type opResult struct {
	hit     *hitlog.Hit     // reservation or capture: its row as written (a copy of the op's hit)
	err     error           // reservation: its refusal (ErrDailyLimit, ErrPlanLimit, …)
	balance decimal.Decimal // reservation: the balance after its debit
	counted bool            // reservation: the key's daily counter took it
}

// holdUse is what the batch's captures took from one hold.
type holdUse struct {
	id    uint64
	calls int
	money decimal.Decimal
}

// planBatch decides a batch from the users' locked rows and the keys'
// granted daily counts, with the settlements' moved flags already set: the
// refund of each failed settlement that moved, each reservation's
// admission (Admit, in queue order) and debit, each capture's charge from
// its hold. It is pure: it changes neither ops, their hits, users nor
// granted, and returns the hit rows to write (copies), each op's result
// and the users' rows as the batch leaves them, so a batch planned again
// (a stale snapshot, a retry) starts from the same inputs.
func planBatch(ops []*batchOp, locked map[uint64]*user.User, granted map[keyDay]int, now time.Time) (*batchPlan, error) {
	p := &batchPlan{results: make([]opResult, len(ops)), users: make(map[uint64]*user.User, len(locked)), touched: map[uint64]bool{}}
	for id, u := range locked {
		c := *u
		p.users[id] = &c
	}
	left := maps.Clone(granted)
	users := p.users
	entry := func(u *user.User, t ledger.Type, h *hitlog.Hit, amount decimal.Decimal, desc string, ref *uint64) (*ledger.Entry, error) {
		return ledger.NewEntry(u, t, amount, ledger.RefAPIHit, ref, desc+h.RequestID, now)
	}
	for _, op := range ops {
		if op.kind != batchSettle || !op.moved || op.hit.Status == hitlog.StatusSuccess {
			continue
		}
		u := users[op.hit.UserID]
		if op.hit.Reserved.IsPositive() {
			id := op.hit.ID
			e, err := entry(u, ledger.Refund, op.hit, op.hit.Reserved, "Refund of failed API call ", &id)
			if err != nil {
				return nil, err
			}
			p.entries = append(p.entries, e)
		}
		u.UncountPlanCall(op.month)
		p.touched[u.ID] = true
	}
	p.hitOf = slices.Repeat([]int{-1}, len(p.entries)) // the refunds carry their own reference
	for i, op := range ops {
		if op.kind != batchReserve {
			continue
		}
		h := newRow(op.hit)
		r := &p.results[i]
		r.hit = h
		p.inserts = append(p.inserts, h)
		kd := keyDay{op.keyID, op.day}
		u := users[h.UserID]
		r.err = Admit(Standing{DailyLeft: left[kd], Invalid: op.invalid, Owner: u, Month: op.month, Charge: op.charge})
		if left[kd] > 0 {
			left[kd]--
			r.counted = true
		}
		if r.err != nil {
			refused(h, r.err, op.start, now)
			continue
		}
		h.Status, h.Reserved, h.Admitted = hitlog.StatusPending, op.charge, admitted(op.charge)
		if op.charge.IsPositive() {
			e, err := entry(u, ledger.Debit, h, op.charge, "API call ", nil)
			if err != nil {
				return nil, err
			}
			p.entries = append(p.entries, e)
			p.hitOf = append(p.hitOf, len(p.inserts)-1)
		}
		u.CountPlanCall(op.month)
		p.touched[u.ID] = true
		r.balance = u.Balance
	}
	uses := map[uint64]int{} // hold id → index in p.holdUses
	for i, op := range ops {
		if op.kind != batchCapture {
			continue
		}
		h := newRow(op.hit)
		p.results[i].hit = h
		u := users[h.UserID]
		p.inserts = append(p.inserts, h)
		charge := op.charge
		h.Reserved, h.Admitted = charge, admitted(charge)
		if charge.IsPositive() {
			// The charge leaves the hold: normally the hold's money; if the
			// hold was released meanwhile (recovery took the instance for
			// dead), it comes from the balance a debit may take, if it has
			// it. A failed call's charge is debited and refunded at once, so
			// the ledger reads as for a call reserved the per-call way.
			if u.HeldAmount.GreaterThanOrEqual(charge) {
				u.HeldAmount = u.HeldAmount.Sub(charge)
			}
			e, err := entry(u, ledger.Debit, h, charge, "API call ", nil)
			switch {
			case errors.Is(err, ledger.ErrInsufficientBalance):
				p.uncharged = append(p.uncharged, h.RequestID)
				h.ChargeAmount, h.Reserved = decimal.Zero, decimal.Zero
				if h.Status == hitlog.StatusSuccess {
					h.Uncharged = hitlog.UnchargedHoldReleased
				}
			case err != nil:
				return nil, err
			default:
				p.entries = append(p.entries, e)
				p.hitOf = append(p.hitOf, len(p.inserts)-1)
				if h.Status != hitlog.StatusSuccess {
					r, err := entry(u, ledger.Refund, h, charge, "Refund of failed API call ", nil)
					if err != nil {
						return nil, err
					}
					p.entries = append(p.entries, r)
					p.hitOf = append(p.hitOf, len(p.inserts)-1)
				}
			}
		}
		if h.Status == hitlog.StatusSuccess {
			u.CountPlanCall(op.month)
		}
		p.touched[u.ID] = true
		k, ok := uses[op.hold.h.ID]
		if !ok {
			k = len(p.holdUses)
			uses[op.hold.h.ID] = k
			p.holdUses = append(p.holdUses, holdUse{id: op.hold.h.ID, money: decimal.Zero})
		}
		p.holdUses[k].calls++
		p.holdUses[k].money = p.holdUses[k].money.Add(h.Reserved)
	}
	return p, nil
}

// newRow is a copy of h to insert as a new row: no id yet.
func newRow(h *hitlog.Hit) *hitlog.Hit {
	c := *h
	c.ID = 0
	return &c
}

// admitted is the Admitted field of a call admitted at charge.
func admitted(charge decimal.Decimal) *decimal.Decimal { return &charge }

// insertBatch writes the batch's hit rows and then its ledger rows, entry
// i referencing hits[hitOf[i]] when hitOf[i] >= 0: in one go when the
// store offers BatchStores.Inserts (the ids are then taken in the
// database), else the hits first, for their ids.
func insertBatch(ctx context.Context, s BatchStores, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error {
	if s.Inserts != nil {
		if len(hits)+len(entries) == 0 {
			return nil
		}
		if err := s.Inserts.Insert(ctx, hits, entries, hitOf); err != nil {
			return fmt.Errorf("insert hits and ledger entries: %w", err)
		}
		return nil
	}
	if len(hits) > 0 {
		if err := s.Hits.InsertMany(ctx, hits); err != nil {
			return fmt.Errorf("insert hits: %w", err)
		}
	}
	for i, k := range hitOf {
		if k >= 0 {
			id := hits[k].ID
			entries[i].ReferenceID = &id
		}
	}
	if len(entries) > 0 {
		if err := s.Ledger.InsertMany(ctx, entries); err != nil {
			return fmt.Errorf("insert ledger entries: %w", err)
		}
	}
	return nil
}

// lockAndCount locks the users' rows (id order), then raises the keys'
// daily counters (id order) under their row locks: in one exchange when the
// store offers BatchStores.Locks, else statement by statement.
func (a *Metering) lockAndCount(ctx context.Context, s BatchStores, userIDs []uint64, keys []keyDay, perKey map[keyDay]int) (map[uint64]*user.User, map[keyDay]int, error) {
	granted := make(map[keyDay]int, len(keys))
	if s.Locks != nil && len(userIDs)+len(keys) > 0 {
		counts := make([]KeyCount, len(keys))
		for i, k := range keys {
			counts[i] = KeyCount{KeyID: k.id, Day: k.day, N: perKey[k]}
		}
		users, g, err := s.Locks.LockAndCount(ctx, userIDs, counts, a.now().UTC())
		if err != nil {
			return nil, nil, fmt.Errorf("lock users and count hits: %w", err)
		}
		for i, k := range keys {
			granted[k] = g[i]
		}
		return users, granted, nil
	}
	users := make(map[uint64]*user.User, len(userIDs))
	for _, id := range userIDs {
		u, err := s.Users.LockByID(ctx, id)
		if err != nil {
			return nil, nil, fmt.Errorf("lock user %d: %w", id, err)
		}
		users[id] = u
	}
	for _, k := range keys {
		g, err := s.Keys.CountHits(ctx, k.id, k.day, perKey[k], a.now().UTC())
		if err != nil && !errors.Is(err, apikey.ErrNotFound) {
			return nil, nil, fmt.Errorf("count hits: %w", err)
		}
		granted[k] = g
	}
	return users, granted, nil
}

// plainBatches runs the metering writer's transactions with WithinTx, for
// a store that is no BatchTransactor: BatchStores without batch-only ports.
type plainBatches struct{ tx store.Transactor }

func (t plainBatches) WithinBatchTx(ctx context.Context, fn func(ctx context.Context, s BatchStores) error) error {
	return t.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error { return fn(ctx, BatchStores{Stores: s}) })
}

// keyDay is a key's daily counter for one local day.
type keyDay struct {
	id  uint64
	day string
}

// refused fills the hit log row of a call refused before any charge.
func refused(h *hitlog.Hit, cause error, start, now time.Time) {
	body := errorPayload(cause)
	h.Status = hitlog.StatusFailed
	if errors.Is(cause, ledger.ErrInsufficientBalance) {
		h.Status = hitlog.StatusInsufficientBalance
	}
	h.ChargeAmount, h.Reserved = decimal.Zero, decimal.Zero
	h.ResponsePayload = &body
	h.ResponseTimeMs = int(now.Sub(start) / time.Millisecond)
}
