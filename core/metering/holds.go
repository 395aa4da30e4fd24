package metering

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/metering/hold"
	"paygate/core/platform/errs"
)

// Metered calls run on holds (decisions: "Metered calls run on holds").
//
// A hold sets aside, in one transaction under the user's row lock, the
// money and the key's daily count of a number of calls at one charge
// (acquireHold). The calls then take from it in memory and call upstream
// at once; each is charged afterwards, with its hit log row, by the
// capture writer (batch.go, batchCapture), which gathers many calls into
// one transaction. A hold serves calls until it expires
// (Config.HoldLifetime) or runs out; once its last call is charged it is
// released (releaseHold): its money not charged goes back to the balance
// a debit may take, its calls not made back to the key's daily count.
// Another hold for the same key is fetched before one runs out.
//
// Money never moves outside the database: the held money is in
// users.held_amount, which no debit may take (newEntry; a CHECK keeps it
// within the balance), and every charge is a ledger row written with its
// hit. A call whose charge cannot be written (the database went away for
// longer than Config.SettleRetryWindow, or the instance died) is never
// charged; recovery (RecoverPendingHits) releases holds left open by a
// dead instance after Config.PendingHitGrace.

// DefaultHoldLifetime is Config.HoldLifetime's default: how long a hold
// serves calls. It bounds how long money and daily calls stay set aside
// for calls that do not come, so how long a call on another instance may
// wait for them (awaitHolds).
const DefaultHoldLifetime = time.Second

// Hold sizes, in calls: the first hold of a key and charge asks for
// minHoldCalls; a hold used up before it expired doubles the next one, up
// to maxHoldCalls; a hold released with more than half unused halves it.
const (
	minHoldCalls = 8
	maxHoldCalls = 1024
)

// holdKey is one key's holds at one charge.
type holdKey struct {
	keyID uint64
	unit  string // the charge, decimal text
}

// holdSlot is one key's holds at one charge in this instance.
type holdSlot struct {
	mu    sync.Mutex
	live  []*liveHold // open holds, oldest first
	fetch *holdFetch  // the fetch under way, nil when none
	size  int         // calls the next fetch asks for
	// emptyUntil: the last fetch granted nothing (no money or daily calls
	// left); until then calls go the per-call way without fetching.
	emptyUntil time.Time
}

// holdFetch is one acquireHold under way; done is closed when it ended.
type holdFetch struct {
	done    chan struct{}
	err     error
	granted bool
}

// liveHold is an open hold in this instance's memory.
type liveHold struct {
	slot      *holdSlot
	h         hold.Hold
	left      int             // calls not taken yet
	inflight  int             // calls taken whose charge is not written yet
	spendable decimal.Decimal // the owner's available balance after the hold was taken, without it
	released  bool
}

// holdRegistry holds every slot of this instance.
type holdRegistry struct {
	mu    sync.Mutex
	slots map[holdKey]*holdSlot
	// downUntil (unix nanoseconds): a hold fetch or a charge failed on an
	// unavailable database; until then no call takes from a hold (they go
	// the per-call way, which answers 503 while the database is away).
	downUntil atomic.Int64
	// downSince (unix nanoseconds): when the last such failure was seen; a
	// call that took from a hold before it answers 503 (holdsFailedSince).
	downSince atomic.Int64
	// fetches are the hold fetches under way (App.Wait lets them end
	// before it releases every hold).
	fetches sync.WaitGroup
	// watch wakes calls waiting on a user's holds (awaitHolds).
	watch holdWatch
}

// holdWatch wakes the calls waiting on a user's holds (awaitHolds) when
// this instance releases one, instead of their polling the database, and
// knows which open holds are this instance's (their release will wake the
// waiters; another instance's cannot).
type holdWatch struct {
	mu      sync.Mutex
	waiters map[uint64]chan struct{} // user id → closed at the user's next release here
	local   map[uint64]bool          // ids of the holds this instance holds open
}

// wait is closed at this instance's next release of a hold of userID.
// Take it before reading the holds, so a release in between is not missed.
func (w *holdWatch) wait(userID uint64) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waiters == nil {
		w.waiters = map[uint64]chan struct{}{}
	}
	ch := w.waiters[userID]
	if ch == nil {
		ch = make(chan struct{})
		w.waiters[userID] = ch
	}
	return ch
}

// opened records hold id of userID as this instance's and wakes the calls
// waiting on userID's holds: the new hold may serve them.
func (w *holdWatch) opened(userID, id uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.local == nil {
		w.local = map[uint64]bool{}
	}
	w.local[id] = true
	w.wake(userID)
}

// wake closes userID's waiters' channel; w.mu held.
func (w *holdWatch) wake(userID uint64) {
	if ch := w.waiters[userID]; ch != nil {
		close(ch)
		delete(w.waiters, userID)
	}
}

// isLocal reports whether hold id is open in this instance.
func (w *holdWatch) isLocal(id uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.local[id]
}

// released wakes every call waiting on userID's holds: hold id was
// released (or this instance gave up releasing it).
func (w *holdWatch) released(userID, id uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.local, id)
	w.wake(userID)
}

func (r *holdRegistry) slot(k holdKey) *holdSlot {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.slots == nil {
		r.slots = map[holdKey]*holdSlot{}
	}
	s := r.slots[k]
	if s == nil {
		s = &holdSlot{size: minHoldCalls}
		r.slots[k] = s
	}
	return s
}

// holdDownFor is how long calls stay off holds after the database failed.
const holdDownFor = time.Second

// databaseFailed records a failure of a hold fetch or a charge on an
// unavailable database.
func (a *Metering) databaseFailed(err error) {
	if errs.KindOf(err) != errs.Unavailable && !errors.Is(err, ErrMeteringUnavailable) {
		return
	}
	now := time.Now()
	a.holds.downSince.Store(now.UnixNano())
	a.holds.downUntil.Store(now.Add(holdDownFor).UnixNano())
}

// holdsFailedSince reports a database failure seen after start.
func (a *Metering) holdsFailedSince(start time.Time) bool {
	return a.holds.downSince.Load() >= start.UnixNano()
}

// holdCall is a call's place in a hold.
type holdCall struct {
	lh          *liveHold
	balanceLeft decimal.Decimal
}

// takeHold takes one call at charge from a hold of the key, fetching one
// when none has calls left. ok is false when the call must go the
// per-call way: holds are off, the owner's plan counts calls, the
// database just failed, or no hold could be granted (no money or daily
// calls left outside other holds: then exhausted is true, and the call
// waits for open holds before it is decided, awaitHolds).
func (a *Metering) takeHold(ctx context.Context, owner *user.User, keyID uint64, charge decimal.Decimal, day string) (hc holdCall, ok, exhausted bool, err error) {
	if a.cfg.HoldLifetime < 0 || owner.PlanLimited() || time.Now().UnixNano() < a.holds.downUntil.Load() {
		return holdCall{}, false, false, nil
	}
	slot := a.holds.slot(holdKey{keyID, charge.String()})
	for {
		now := a.now()
		slot.mu.Lock()
		if lh := slot.usable(now, day); lh != nil {
			lh.left--
			lh.inflight++
			hc := holdCall{lh: lh, balanceLeft: lh.spendable.Add(lh.h.Unit.Mul(decimal.NewFromInt(int64(lh.left))))}
			if slot.fetch == nil && slot.callsLeft(now, day) < slot.size/2 && !now.Before(slot.emptyUntil) {
				a.startFetch(slot, owner.ID, keyID, charge, day)
			}
			slot.mu.Unlock()
			return hc, true, false, nil
		}
		if now.Before(slot.emptyUntil) {
			slot.mu.Unlock()
			return holdCall{}, false, true, nil
		}
		f := slot.fetch
		if f == nil {
			f = a.startFetch(slot, owner.ID, keyID, charge, day)
		}
		slot.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			return holdCall{}, false, false, ctx.Err()
		}
		if f.err != nil {
			if errs.KindOf(f.err) == errs.Unavailable {
				return holdCall{}, false, false, fmt.Errorf("%w: %v", ErrMeteringUnavailable, f.err)
			}
			return holdCall{}, false, false, f.err
		}
		// Granted or not, look again: a fetch that granted nothing
		// (every rupee held) leaves the slot empty for emptyHoldPause,
		// but a hold with calls left is still taken first.
	}
}

// usable is the oldest hold with a call left that still serves calls of
// day; slot.mu held.
func (s *holdSlot) usable(now time.Time, day string) *liveHold {
	for _, lh := range s.live {
		if lh.left > 0 && now.Before(lh.h.ExpiresAt) && lh.h.Day == day {
			return lh
		}
	}
	return nil
}

// callsLeft counts the calls the slot's holds can still serve; slot.mu held.
func (s *holdSlot) callsLeft(now time.Time, day string) int {
	n := 0
	for _, lh := range s.live {
		if now.Before(lh.h.ExpiresAt) && lh.h.Day == day {
			n += lh.left
		}
	}
	return n
}

// startFetch starts acquiring a hold for the slot; slot.mu held.
func (a *Metering) startFetch(slot *holdSlot, userID, keyID uint64, charge decimal.Decimal, day string) *holdFetch {
	f := &holdFetch{done: make(chan struct{})}
	slot.fetch = f
	calls := slot.size
	a.holds.fetches.Add(1)
	go func() {
		defer a.holds.fetches.Done()
		ctx, cancel := context.WithTimeout(context.Background(), batchAttemptTimeout)
		defer cancel()
		lh, err := a.acquireHold(ctx, userID, keyID, charge, day, calls)
		if err != nil {
			a.databaseFailed(err)
			a.log.Warn("hold of metered calls not taken", "user_id", userID, "api_key_id", keyID, "err", err)
		}
		slot.mu.Lock()
		defer slot.mu.Unlock()
		f.err, f.granted = err, lh != nil
		slot.fetch = nil
		switch {
		case lh != nil:
			lh.slot = slot
			slot.live = append(slot.live, lh)
			a.holds.watch.opened(userID, lh.h.ID)
			time.AfterFunc(a.cfg.HoldLifetime, func() { a.maybeRelease(lh) })
		case err == nil:
			slot.emptyUntil = a.now().Add(emptyHoldPause)
		}
		close(f.done)
	}()
	return f
}

// awaitEmptyPause waits until the slot's empty pause (a fetch granted
// nothing) is over at now, or ctx ends.
func (s *holdSlot) awaitEmptyPause(ctx context.Context, now time.Time) error {
	s.mu.Lock()
	wait := s.emptyUntil.Sub(now)
	s.mu.Unlock()
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// emptyHoldPause is how long a key and charge whose hold fetch granted
// nothing go the per-call way before fetching again.
const emptyHoldPause = 100 * time.Millisecond

// acquireHold takes a hold of up to calls calls at charge for the key
// (the writer's Hold); nil when not one call fits.
func (a *Metering) acquireHold(ctx context.Context, userID, keyID uint64, charge decimal.Decimal, day string, calls int) (*liveHold, error) {
	now := a.now().UTC()
	h, available, ok, err := a.w.Hold(ctx, hold.Hold{UserID: userID, KeyID: keyID, Day: day, Unit: charge, Calls: calls,
		ExpiresAt: now.Add(a.cfg.HoldLifetime), CreatedAt: now}, a.month(now))
	if err != nil || !ok {
		return nil, err
	}
	a.usage.add(keyID, day, h.Calls)
	return &liveHold{h: h, left: h.Calls, spendable: available}, nil
}

// callDone ends a call taken from lh once its hit and charge are written
// (money: what it charged), or given up (written false: never charged).
func (a *Metering) callDone(lh *liveHold, written bool, money decimal.Decimal) {
	slot := lh.slot
	slot.mu.Lock()
	lh.inflight--
	if written {
		lh.h.UsedCalls++
		lh.h.UsedMoney = lh.h.UsedMoney.Add(money)
	}
	slot.mu.Unlock()
	a.maybeRelease(lh)
}

// maybeRelease releases lh once it serves no more calls (expired or used
// up) and every call taken from it has its charge written.
func (a *Metering) maybeRelease(lh *liveHold) {
	slot := lh.slot
	slot.mu.Lock()
	now := a.now()
	done := !lh.released && lh.inflight == 0 && (lh.left == 0 || !now.Before(lh.h.ExpiresAt))
	if done {
		lh.released = true
		for i, x := range slot.live {
			if x == lh {
				slot.live = append(slot.live[:i:i], slot.live[i+1:]...)
				break
			}
		}
		switch {
		case lh.left == 0 && now.Before(lh.h.ExpiresAt):
			slot.size = min(slot.size*2, maxHoldCalls)
		case lh.left*2 > lh.h.Calls:
			slot.size = max(slot.size/2, minHoldCalls)
		}
	}
	slot.mu.Unlock()
	if !done {
		return
	}
	a.bgMu.Lock()
	defer a.bgMu.Unlock()
	if a.bgDone {
		return // shutting down (Wait): recovery releases it after PendingHitGrace
	}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		first := time.Now()
		for try := uint(0); ; try++ {
			ctx, cancel := context.WithTimeout(context.Background(), batchAttemptTimeout)
			_, err := a.releaseHold(ctx, lh.h.ID, lh.h.UserID)
			cancel()
			if err == nil {
				return
			}
			a.databaseFailed(err)
			if time.Since(first) >= a.w.retryWindow {
				// Left open: recovery releases it after PendingHitGrace.
				a.log.Error("hold not released; recovery will release it", "hold_id", lh.h.ID, "err", err)
				a.holds.watch.released(lh.h.UserID, lh.h.ID) // no longer this instance's to release
				return
			}
			time.Sleep(retryWait(try))
		}
	}()
}

// releaseHold releases a hold (the writer's Release) and gives its calls
// not made back to this instance's view of the key's day. False when it
// was already released (by another instance's recovery).
func (a *Metering) releaseHold(ctx context.Context, id, userID uint64) (bool, error) {
	released, given, err := a.w.Release(ctx, id, userID)
	if err != nil {
		return false, err
	}
	if released {
		a.usage.add(given.KeyID, given.Day, -given.Calls)
	}
	a.holds.watch.released(userID, id)
	return released, nil
}

// releaseHolds releases every hold this instance still has open (on
// shutdown, once every call's charge is written and no fetch is under
// way).
func (a *Metering) releaseHolds() {
	a.holds.fetches.Wait()
	a.holds.mu.Lock()
	var all []*liveHold
	for _, slot := range a.holds.slots {
		slot.mu.Lock()
		for _, lh := range slot.live {
			lh.h.ExpiresAt = time.Time{} // serves no more calls
			all = append(all, lh)
		}
		slot.mu.Unlock()
	}
	a.holds.mu.Unlock()
	for _, lh := range all {
		a.maybeRelease(lh)
	}
}

// RecoverHolds releases up to limit holds that expired more than
// Config.PendingHitGrace ago: their instance died or lost the database
// before releasing them (a live instance releases its holds right after
// their last charge). It returns how many this call released.
func (a *Metering) RecoverHolds(ctx context.Context, limit int) (int, error) {
	expired, err := a.reads.Holds.Expired(ctx, a.now().Add(-a.cfg.PendingHitGrace).UTC(), limit)
	if err != nil {
		return 0, fmt.Errorf("list expired holds: %w", err)
	}
	n := 0
	var failed []error
	for _, h := range expired {
		done, err := a.releaseHold(ctx, h.ID, h.UserID)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		if done {
			n++
			money, calls := h.Unused()
			a.log.Info("hold left open released", "hold_id", h.ID, "user_id", h.UserID, "money", money.StringFixed(2), "calls", calls)
		}
	}
	return n, errors.Join(failed...)
}

// awaitHolds waits, before a call whose hold could not be granted is
// decided the per-call way, until no open hold keeps what the call may
// need: the key's holds (daily calls) and, when the user's available
// balance does not pay for the call, every hold of the user (money). It
// waits at most two hold lifetimes and a second (the last charges'
// writing), so a call is refused only when nothing it needs is held.
//
// It does not poll: it reads the holds, then sleeps until this instance
// releases one of the user's holds (holdWatch), or until the earliest
// expiry of another instance's hold (which that instance releases once
// expired and charged; past its expiry it is read again after 50 ms,
// doubling up to 1 s), the deadline, or the context's end. It returns at
// once when a hold with calls left for the key opens here. Otherwise it
// then outlasts the slot's empty pause, so that the caller fetches a hold
// again rather than go the per-call way: a per-call reservation would
// compete with the holds fetched meanwhile and be refused while their
// calls went unused.
func (a *Metering) awaitHolds(ctx context.Context, userID, keyID uint64, charge decimal.Decimal, day string) error {
	deadline := time.Now().Add(2*max(a.cfg.HoldLifetime, 0) + time.Second)
	recheck := holdRecheck
	slot := a.holds.slot(holdKey{keyID, charge.String()})
	for {
		released := a.holds.watch.wait(userID)
		slot.mu.Lock()
		left := slot.callsLeft(a.now(), day)
		slot.mu.Unlock()
		if left > 0 {
			return nil // a hold opened here meanwhile serves the call
		}
		open, err := a.reads.Holds.ByUser(ctx, userID)
		if err != nil {
			return fmt.Errorf("list holds: %w", err)
		}
		blocking := slices.ContainsFunc(open, func(h hold.Hold) bool { return h.KeyID == keyID })
		if !blocking && len(open) > 0 {
			u, err := a.reads.Users.ByID(ctx, userID)
			if err != nil {
				return fmt.Errorf("read user %d: %w", userID, err)
			}
			blocking = u.Available().LessThan(charge)
		}
		if !blocking || !time.Now().Before(deadline) {
			return slot.awaitEmptyPause(ctx, a.now())
		}
		sleep, overdue := time.Until(deadline), false
		now := a.now()
		for _, h := range open {
			if a.holds.watch.isLocal(h.ID) {
				continue // its release here closes released
			}
			d := h.ExpiresAt.Sub(now)
			if d <= 0 {
				d, overdue = recheck, true
			}
			sleep = min(sleep, d)
		}
		if overdue {
			recheck = min(2*recheck, time.Second)
		}
		t := time.NewTimer(sleep)
		select {
		case <-released:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
		t.Stop()
	}
}

// holdRecheck is how soon awaitHolds reads again another instance's hold
// that is past its expiry but not released yet (its last charges being
// written); it doubles on each read, up to a second.
const holdRecheck = 50 * time.Millisecond
