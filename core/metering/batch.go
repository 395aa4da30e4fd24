package metering

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/sensitive"
	"paygate/core/platform/store"
)

// The writer's transactions (writer.go): group commit of metered calls
// (decisions: "Metering group commit"). Calls hand their reservation
// (daily counter, plan and balance checks, pending hit, debit) and later
// their settlement (success, or failure with its refund) to the writer,
// which applies everything queued in ONE database transaction and releases each call only after that
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
	// counted: the key's daily counter took the call before (a gateway
	// operation's, counted with its key checks); the batch does not count it.
	precounted bool
	// alsoLock is another user whose row the reservation locks with the
	// caller's, in id order (Op.LockReseller).
	alsoLock *uint64
	// note is the description of a refund's ledger row before the request
	// id: "Refund of failed API call " when empty.
	note string

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
	// was handled: the op's caller did not wait (SettleLater, Capture). firstTry is when its first attempt queued.
	after    func(*batchOp)
	firstTry time.Time
	tries    uint
	// fence marks a read barrier (batcher.fence): nothing to write, done
	// once every op queued before it was handled.
	fence bool
}

// writeBatch applies ops in one transaction, tried twice (a deadlock or a
// lost connection aborts the first); if both fail, every call of the batch
// fails with 503 and nothing of it is written. The ops get their results
// only from the plan of the transaction that committed: a store may run
// the transaction's function more than once (an optimistic batch whose
// snapshot was stale, batchsnap.go), and each run plans from the same ops.
func (w *writer) writeBatch(ops []*batchOp) {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		// A bounded attempt: a statement stuck on a cut-off database must
		// not hold every call queued behind it.
		ctx, cancel := context.WithTimeout(context.Background(), batchAttemptTimeout)
		var plan *batchPlan
		err = w.batches.WithinBatchTx(ctx, func(ctx context.Context, s BatchStores) error {
			var err error
			plan, err = w.applyBatch(ctx, s, ops)
			return err
		})
		cancel()
		if err == nil {
			w.batchDone(ops, plan)
			return
		}
	}
	if len(ops) > 1 && errs.KindOf(err) != errs.Unavailable {
		// Not the database being away: one call's data may be what the
		// database refuses. Apply the calls one by one, so only that call
		// fails and the others of the batch go through.
		w.log.Warn("metering batch refused; applying its calls one by one", "calls", len(ops), "err", err)
		for _, op := range ops {
			w.writeBatch([]*batchOp{op})
		}
		return
	}
	w.log.Error("metering batch failed", "calls", len(ops), "err", err)
	for _, op := range ops {
		op.err = fmt.Errorf("%w: %v", ErrMeteringUnavailable, err)
		op.moved, op.counted = false, false
	}
}

// Reserve writes the operation's reservation in the caller's transaction
// s, whose other writes are the operation's own rows: the caller's row
// locked (and its reseller's, Op.LockReseller), the call admitted (Admit),
// its pending hit and its debit, the balance saved. It returns the
// caller's row as s leaves it (a debit of the operation's own changes it,
// and the operation saves it) and the pending hit. u nil: the call was
// refused and its hit written in s, which should commit. A store may run
// s's function again: each run reserves again. (The batch's steps for one
// call, in the operation's transaction: Bill is operations.go's.)
func (b *Bill) Reserve(ctx context.Context, s TxStores) (u *user.User, hit *hitlog.Hit, err error) {
	b.plan, b.u = nil, nil
	plan, err := b.a.w.applyBatch(ctx, Statements(s), []*batchOp{b.r})
	if err != nil {
		return nil, nil, err
	}
	b.plan = plan
	if res := plan.results[0]; res.err == nil {
		b.u = plan.users[b.hit.UserID]
		return b.u, res.hit, nil
	}
	return nil, nil, nil
}

// batchDone gives each op of a committed batch its result: a reservation
// or capture its hit as written (id, status, charges), its refusal, its
// balance and whether the daily counter took it.
func (w *writer) batchDone(ops []*batchOp, p *batchPlan) {
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
		w.log.Error("hold call not charged: its hold was released and the balance does not pay for it", "request_id", id)
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
func (w *writer) writeSettled(ops []*batchOp) {
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
		moved, err = w.hits.SucceedMany(ctx, hits)
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
	w.log.Error("metering settlement batch failed", "calls", len(todo), "err", err)
	for _, op := range todo {
		op.err = fmt.Errorf("%w: %v", ErrMeteringUnavailable, err)
	}
}

// applyBatch is the batch's transaction. Order: users' rows locked (id
// order), keys' counters raised (id order), settlements, reservations in
// queue order, then the multi-row inserts and the balances. It returns the
// plan it wrote; the ops are left as they were, but for the settlements'
// moved flags.
func (w *writer) applyBatch(ctx context.Context, s BatchStores, ops []*batchOp) (*batchPlan, error) {
	userIDs := make([]uint64, 0, 4)
	perKey := map[keyDay]int{}
	var settle []*hitlog.Hit
	for _, op := range ops {
		op.moved = false
		switch op.kind {
		case batchReserve:
			if !op.precounted {
				perKey[keyDay{op.keyID, op.day}]++
			}
			userIDs = append(userIDs, op.hit.UserID)
			if op.alsoLock != nil {
				userIDs = append(userIDs, *op.alsoLock)
			}
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
	users, granted, err := w.lockAndCount(ctx, s, userIDs, keys, perKey)
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
	now := w.now()
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
		if err := store.AlertLowBalance(ctx, s.Books, now, w.live, plan.users, plan.entries); err != nil {
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
			e, err := entry(u, ledger.Refund, op.hit, op.hit.Reserved, cmp.Or(op.note, "Refund of failed API call "), &id)
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
		daily := left[kd]
		if op.precounted {
			daily = 1
		}
		r.err = Admit(Standing{DailyLeft: daily, Invalid: op.invalid, Owner: u, Month: op.month, Charge: op.charge})
		if !op.precounted && left[kd] > 0 {
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
				h.ChargeAmount, h.Reserved, h.Commission = decimal.Zero, decimal.Zero, decimal.Zero
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
// i referencing hits[hitOf[i]] when hitOf[i] >= 0.
func insertBatch(ctx context.Context, s BatchStores, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error {
	if len(hits)+len(entries) == 0 {
		return nil
	}
	if err := s.Inserts.Insert(ctx, hits, entries, hitOf); err != nil {
		return fmt.Errorf("insert hits and ledger entries: %w", err)
	}
	return nil
}

// lockAndCount locks the users' rows (id order), then raises the keys'
// daily counters (id order) under their row locks.
func (w *writer) lockAndCount(ctx context.Context, s BatchStores, userIDs []uint64, keys []keyDay, perKey map[keyDay]int) (map[uint64]*user.User, map[keyDay]int, error) {
	granted := make(map[keyDay]int, len(keys))
	if len(userIDs)+len(keys) == 0 {
		return map[uint64]*user.User{}, granted, nil
	}
	counts := make([]KeyCount, len(keys))
	for i, k := range keys {
		counts[i] = KeyCount{KeyID: k.id, Day: k.day, N: perKey[k]}
	}
	users, g, err := s.Locks.LockAndCount(ctx, userIDs, counts, w.now().UTC())
	if err != nil {
		return nil, nil, fmt.Errorf("lock users and count hits: %w", err)
	}
	for i, k := range keys {
		granted[k] = g[i]
	}
	return users, granted, nil
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
	h.ChargeAmount, h.Reserved, h.Commission = decimal.Zero, decimal.Zero, decimal.Zero
	h.ResponsePayload = &body
	h.ResponseTimeMs = int(now.Sub(start) / time.Millisecond)
}

// errorPayload is the response payload a failed or refused call's hit
// keeps: the error body the caller got, with the names a scrubbedError
// carries masked.
func errorPayload(err error) string {
	out := map[string]any{"error": "internal_error", "message": "Internal error"}
	if e, ok := errs.As(err); ok {
		out["error"], out["message"] = e.Code, e.Message
		if len(e.Fields) > 0 {
			out["errors"] = e.Fields
		}
	}
	b, _ := json.Marshal(out)
	var se *scrubbedError
	if errors.As(err, &se) {
		return scrubNames(string(b), se.names)
	}
	return string(b)
}

// scrubNames masks names in a JSON text, as they are and as JSON escapes
// them.
func scrubNames(text string, names []string) string {
	all := make([]string, 0, 2*len(names))
	for _, n := range names {
		q, _ := json.Marshal(n)
		all = append(all, n, string(q[1:len(q)-1]))
	}
	return sensitive.Scrub(text, all)
}
