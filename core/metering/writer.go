package metering

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
)

// The writer is the one way a metered call's money moves, whatever the
// mode (a hold or per call), the caller (a service call, a gateway
// operation, recovery) and the database:
//
//   - Reserve: before the upstream call, admit it and debit its charge
//     with its pending hit (a gateway operation with rows of its own does
//     the same steps in its own transaction: Bill.Reserve);
//   - Settle, SettleLater: after a successful call, its hit success;
//   - Refund: after a failed or interrupted call, its hit failed and its
//     charge back;
//   - Hold, Release: set aside money and daily calls for many calls of a
//     key, and give back what they did not use;
//   - Capture: write a call taken from a hold, with its charge.
//
// Reserve, Settle and Refund wait for their write; SettleLater and Capture
// return at once and are retried while the database refuses them. All of
// them but Hold and Release go through the
// writer's queues, which batch.go writes in group commits. Where the
// database differs, the store says so (BatchTransactor, ApartSettler);
// nothing here asks which database it is.
type writer struct {
	tx      store.TransactorOf[TxStores] // transactions of one write: holds
	batches BatchTransactor              // the queues' transactions (no cached row is written there: nothing to flush)
	hits    hitStore                     // successful settlements written apart (SucceedMany)
	now     func() time.Time
	log     *slog.Logger
	metrics Metrics
	live    bool // the livemode of the balance.low events written
	// retryWindow is how long SettleLater and Capture retry (retryLater).
	retryWindow time.Duration
	// failed is told of each write after an answer that the database
	// refused (holds.go keeps calls off holds for a while);
	// captured of each capture once final (holds.go's accounting).
	failed   func(error)
	captured func(lh *liveHold, written bool, money decimal.Decimal)

	batch    batcher        // reservations, refunds, settlements unless apart
	settled  batcher        // successful settlements, when the store settles apart
	captures batcher        // calls taken from holds
	apart    bool           // the store settles successes apart (ApartSettler)
	pending  sync.WaitGroup // SettleLater and Capture writes not final yet
}

// ApartSettler may be implemented by the BatchTransactor: SettlesApart
// true gives successful settlements a writer of their own, outside any
// transaction (Hits.SucceedMany), overlapping the reservation batches: for
// a database that runs writers in parallel (MySQL), not one with a single
// writer (SQLite).
type ApartSettler interface {
	SettlesApart() bool
}

// Reserve admits op's call and, if admitted, writes its pending hit and
// debit in the queue's next batch, waiting until they are committed or
// refused: op.err is the refusal (written as the call's hit) or the
// failure (nothing written), op.balance the balance after it. (A gateway
// operation with rows of its own reserves in its own transaction instead:
// Bill.Reserve, operations.go.)
func (w *writer) Reserve(op *batchOp) {
	op.kind = batchReserve
	w.batch.submit(op, w.writeBatch)
}

// Settle writes a successful call's hit (success, payload, charge, cost)
// and waits for it.
func (w *writer) Settle(op *batchOp) error {
	op.kind = batchSettle
	b, write := w.settler(op)
	b.submit(op, write)
	return op.settled()
}

// Refund writes a failed call's hit (failed, charge 0) and gives its
// reserved charge and plan call back, in one transaction under the user's
// lock, and waits for it. A hit no longer pending (settled or recovered
// meanwhile) is left alone: ErrHitNotPending.
func (w *writer) Refund(op *batchOp) error {
	op.kind = batchSettle
	w.batch.submit(op, w.writeBatch)
	return op.settled()
}

// settled is the result of a settlement or refund.
func (op *batchOp) settled() error {
	if op.err != nil {
		return fmt.Errorf("settle hit %s: %w", op.hit.RequestID, op.err)
	}
	if !op.moved {
		return fmt.Errorf("settle hit %s: %w", op.hit.RequestID, ErrHitNotPending)
	}
	return nil
}

// ErrHitNotPending is a settlement that found its hit already settled or
// refunded (crash recovery of another instance took it).
var ErrHitNotPending = errs.E(errs.Conflict, "hit_not_pending", "The call was already settled")

// SettleLater queues a successful call's settlement and returns at once:
// the charge committed with the reservation, so the answer need not wait
// for the hit's row to read success. It is retried while the database
// refuses it, for up to retryWindow; Wait waits for it, and Fence lets a
// read see it written.
func (w *writer) SettleLater(op *batchOp) {
	op.kind = batchSettle
	w.pending.Add(1)
	op.firstTry = time.Now()
	op.after = w.afterSettle
	w.enqueueSettlement(op)
}

// Capture queues a call taken from a hold: its hit, final, and its charge
// from the hold; it returns at once. It is retried while the database
// refuses it, for up to retryWindow; then the call stays uncharged and its
// hold is released by recovery.
func (w *writer) Capture(op *batchOp) {
	op.kind = batchCapture
	w.pending.Add(1)
	op.firstTry = time.Now()
	op.after = w.afterCapture
	w.enqueueCapture(op)
}

// Hold sets aside up to calls calls at charge for the key, in one
// transaction under the user's row lock: as many as the money the user
// may spend (Available) pays for, the plan allows (HoldCalls) and the
// key's daily limit leaves. ok is false when not one call fits; available
// is the user's available balance once the hold is taken.
func (w *writer) Hold(ctx context.Context, h hold.Hold, month string) (taken hold.Hold, available decimal.Decimal, ok bool, err error) {
	err = w.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		// A store may run this again after a failed commit (a cluster's
		// certification conflict): nothing of an earlier attempt is kept.
		taken, available, ok = hold.Hold{}, decimal.Zero, false
		u, err := s.Users.LockByID(ctx, h.UserID)
		if err != nil {
			return fmt.Errorf("lock user %d: %w", h.UserID, err)
		}
		n := HoldCalls(u, month, h.Unit, h.Calls)
		if n <= 0 {
			return nil
		}
		n, err = s.Keys.CountHits(ctx, h.KeyID, h.Day, n, h.CreatedAt)
		if err != nil {
			return fmt.Errorf("count hits: %w", err)
		}
		if n <= 0 {
			return nil
		}
		taken = h
		taken.Calls, taken.UsedMoney = n, decimal.Zero
		if err := s.Holds.Insert(ctx, &taken); err != nil {
			return err
		}
		u.HeldAmount = u.HeldAmount.Add(taken.Amount())
		if err := s.Users.SaveBalance(ctx, u); err != nil {
			return fmt.Errorf("save balance: %w", err)
		}
		available, ok = u.Available(), true
		return nil
	})
	if err != nil {
		return hold.Hold{}, decimal.Zero, false, fmt.Errorf("take hold: %w", err)
	}
	return taken, available, ok, nil
}

// Release releases a hold in one transaction under its user's row lock,
// from its row: the money not charged leaves the held amount and the calls
// not made go back to the key's day (given). released is false when the
// hold was already released (by another instance's recovery).
func (w *writer) Release(ctx context.Context, id, userID uint64) (released bool, given hold.Hold, err error) {
	err = w.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		released, given = false, hold.Hold{} // nothing of an earlier attempt is kept
		u, err := s.Users.LockByID(ctx, userID)
		if err != nil {
			return fmt.Errorf("lock user %d: %w", userID, err)
		}
		h, found, err := s.Holds.Get(ctx, id)
		if err != nil || !found {
			return err
		}
		// The row's deletion decides which release gives the money and
		// the calls back: nothing else is written when it was gone.
		if released, err = s.Holds.Delete(ctx, id); err != nil || !released {
			return err
		}
		money, calls := h.Unused()
		if money.GreaterThan(u.HeldAmount) {
			// Never below zero; the ledger check reports the mismatch.
			w.log.Error("hold returns more money than is held", "hold_id", id, "user_id", userID,
				"unused", money.StringFixed(2), "held", u.HeldAmount.StringFixed(2))
			money = u.HeldAmount
		}
		u.HeldAmount = u.HeldAmount.Sub(money)
		if err := s.Keys.UncountHits(ctx, h.KeyID, h.Day, calls); err != nil {
			return err
		}
		given = hold.Hold{KeyID: h.KeyID, Day: h.Day, Calls: calls}
		return s.Users.SaveBalance(ctx, u)
	})
	if err != nil {
		return false, hold.Hold{}, fmt.Errorf("release hold %d: %w", id, err)
	}
	return released, given, nil
}

// Fence waits until the settlements and captures queued before the call
// have been written (first attempt), so a read that follows a call's
// answer on this instance sees it charged.
func (w *writer) Fence(ctx context.Context) error {
	b, write := w.settler(&batchOp{kind: batchSettle, hit: &hitlog.Hit{Status: hitlog.StatusSuccess}})
	for _, done := range []<-chan struct{}{b.fence(write), w.captures.fence(w.writeBatch)} {
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Wait blocks until every SettleLater and Capture is final.
func (w *writer) Wait() { w.pending.Wait() }

// Drain blocks until the queues' goroutines have ended.
func (w *writer) Drain() {
	w.batch.wg.Wait()
	w.settled.wg.Wait()
	w.captures.wg.Wait()
}

// settler is the queue that writes settlement op and its write function:
// the settlements' own when the store settles successes apart, else the
// batch's.
func (w *writer) settler(op *batchOp) (*batcher, func([]*batchOp)) {
	if w.apart && op.hit.Status == hitlog.StatusSuccess {
		return &w.settled, w.writeSettled
	}
	return &w.batch, w.writeBatch
}

// enqueueSettlement queues a settlement for its writer without waiting.
func (w *writer) enqueueSettlement(op *batchOp) {
	b, write := w.settler(op)
	b.enqueue(op, write)
}

// enqueueCapture queues a capture for the capture writer without waiting.
func (w *writer) enqueueCapture(op *batchOp) { w.captures.enqueue(op, w.writeBatch) }

// afterSettle ends a SettleLater, or queues it again while the database
// is away.
func (w *writer) afterSettle(op *batchOp) {
	switch {
	case op.err == nil && op.moved:
	case op.err == nil:
		w.log.Warn("settlement found its hit no longer pending (crash recovery refunded it)", "request_id", op.hit.RequestID)
	case w.retryLater(op, w.enqueueSettlement):
		return
	default:
		w.log.Error("settlement failed; the hit stays pending until crash recovery refunds it", "request_id", op.hit.RequestID, "err", op.err)
	}
	w.metrics.ReservationSettled()
	w.pending.Done()
}

// afterCapture ends a Capture, or queues it again while the database is
// away.
func (w *writer) afterCapture(op *batchOp) {
	switch {
	case op.err == nil:
		w.captured(op.hold, true, op.written.Reserved)
	case w.retryLater(op, w.enqueueCapture):
		w.failed(op.err)
		return
	default:
		w.log.Error("call's hit and charge not written; the call is not charged", "request_id", op.hit.RequestID, "err", op.err)
		w.captured(op.hold, false, decimal.Zero)
	}
	w.metrics.ReservationSettled()
	w.pending.Done()
}

// DefaultSettleRetryWindow bounds the retries of SettleLater and Capture
// (Config.SettleRetryWindow, and at most half of PendingHitGrace, so that
// the call's own write is tried well before recovery may take over); a
// hit still pending after it is refunded by crash recovery once
// PendingHitGrace has passed.
const DefaultSettleRetryWindow = 30 * time.Second

// retryWait is the pause before try number try+1 of a write retried after
// the answer (a settlement, a capture, a hold's release): 250 ms, 500 ms,
// 1 s, then every 2 s.
func retryWait(try uint) time.Duration { return 250 * time.Millisecond << min(try, 3) }

// retryLater queues op again through enqueue after retryWait, if its first
// try is within the retry window, and reports whether it did.
func (w *writer) retryLater(op *batchOp, enqueue func(*batchOp)) bool {
	if time.Since(op.firstTry) >= w.retryWindow {
		return false
	}
	wait := retryWait(op.tries)
	op.tries++
	time.AfterFunc(wait, func() { enqueue(op) })
	return true
}

// The writer's queues. Calls hand their writes to a queue and, but for
// those written after the answer, wait for them; one goroutine per queue
// writes what is queued, at most BatchSize calls at a time, and ends when
// the queue is empty (no goroutine outlives the load).

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
