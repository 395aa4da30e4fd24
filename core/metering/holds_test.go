package metering_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/user"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

// holdFixture is the metering fixture with an Enterprise owner, whose calls
// run on holds: 10.00 of balance, 1.23 a call (the reseller price).
func holdFixture(t *testing.T) *fixture {
	f := newFixture(t)
	f.user.Plan, f.user.MonthlyCalls = user.PlanEnterprise, nil
	f.save()
	return f
}

// checkHeld checks, while a call is at its upstream, the first hold of the
// key: 8 calls counted on the local day and 9.84 held.
func (f *fixture) checkHeld(t *testing.T) {
	t.Helper()
	hs := f.db.Holds()
	if len(hs) != 1 {
		t.Fatalf("holds %+v, want one", hs)
	}
	h := hs[0]
	if h.UserID != 11 || h.KeyID != 3 || h.Day != "2026-11-22" || !h.Unit.Equal(dec("1.23")) || h.Calls != 8 || h.UsedCalls != 0 {
		t.Fatalf("hold %+v", h)
	}
	if u := f.stored(); !u.Balance.Equal(dec("10.00")) || !u.HeldAmount.Equal(dec("9.84")) {
		t.Fatalf("while held: balance %s, held %s", u.Balance, u.HeldAmount)
	}
	f.checkReserved(t, 8)
}

// released records each hold as it was when released (deleted).
func (f *fixture) released() *[]hold.Hold {
	var out []hold.Hold
	f.db.OnCall("Holds.Delete", func() error {
		out = append(out, f.db.Holds()...)
		return nil
	})
	return &out
}

// checkReleased checks a single hold released after used calls charged
// usedMoney: nothing held any more, the calls not made back to the key.
func (f *fixture) checkReleased(t *testing.T, rel []hold.Hold, used int, usedMoney string) {
	t.Helper()
	if len(rel) != 1 || rel[0].UsedCalls != used || !rel[0].UsedMoney.Equal(dec(usedMoney)) {
		t.Fatalf("released %+v, want one hold with %d calls used for %s", rel, used, usedMoney)
	}
	if hs := f.db.Holds(); len(hs) != 0 {
		t.Fatalf("holds left open: %+v", hs)
	}
	if u := f.stored(); !u.HeldAmount.IsZero() {
		t.Fatalf("held %s after the release", u.HeldAmount)
	}
	f.checkReserved(t, used)
}

// A call on a hold answers before anything of it is written: the hold was
// taken first (money and the daily count set aside), the hit and its debit
// are written afterwards, the debit from the held money, and the hold is
// released when the instance stops (App.Wait): its unused money and calls
// come back.
func TestHoldCallIsChargedAfterItsAnswer(t *testing.T) {
	f := holdFixture(t)
	rel := f.released()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).RunAndReturn(func(context.Context, metering.UpstreamRequest) (metering.UpstreamResponse, error) {
		f.checkHeld(t)
		return metering.UpstreamResponse{Status: 200, Body: []byte(`{"id":"x"}`)}, nil
	}).Once()

	res, _, err := f.app.CallService(context.Background(), f.input(`{"phone":"9876543210"}`))
	if err != nil {
		t.Fatal(err)
	}
	// 10.00 less the 9.84 held is 0.16 spendable, plus the hold's 7 calls
	// left at 1.23: the balance once this call is charged.
	if !res.Charged.Equal(dec("1.23")) || !res.BalanceLeft.Equal(dec("8.77")) || string(res.Data) != `{"id":"x"}` {
		t.Fatalf("%+v", res)
	}
	f.app.Wait()
	h := oneHit(t, f.db)
	if h.Status != hitlog.StatusSuccess || !h.ChargeAmount.Equal(dec("1.23")) || !h.Reserved.Equal(dec("1.23")) ||
		!h.CostAmount.Equal(dec("0.4")) || h.ResponsePayload == nil || *h.ResponsePayload != `{"id":"x"}` || h.RequestID != "req_TEST" {
		t.Fatalf("hit %+v", h)
	}
	es := f.db.Entries()
	if len(es) != 1 {
		t.Fatalf("ledger %+v, want one debit", es)
	}
	checkEntry(t, es[0], ledger.Debit, "1.23", "10.00", "8.77", h.ID)
	if u := f.stored(); !u.Balance.Equal(dec("8.77")) || !u.TotalSpent.Equal(dec("2.23")) || u.PlanCalls != 1 {
		t.Fatalf("after the release: %+v", u)
	}
	f.checkReleased(t, *rel, 1, "1.23")
}

// A failed call on a hold is written as a call reserved the per-call way
// would be: hit failed with no charge, its charge debited and refunded, the
// balance unchanged; the hold's money it took is no longer held.
func TestHoldCallFailureIsDebitedAndRefunded(t *testing.T) {
	f := holdFixture(t)
	rel := f.released()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).RunAndReturn(func(context.Context, metering.UpstreamRequest) (metering.UpstreamResponse, error) {
		f.checkHeld(t)
		return metering.UpstreamResponse{Status: 502, Body: []byte(`{"message":"down"}`)}, nil
	}).Once()

	_, _, err := f.app.CallService(context.Background(), f.input(`{}`))
	if errs.KindOf(err) != errs.Upstream {
		t.Fatalf("error %v", err)
	}
	f.app.Wait()
	h := oneHit(t, f.db)
	if h.Status != hitlog.StatusFailed || !h.ChargeAmount.IsZero() || !h.CostAmount.IsZero() || !h.Reserved.Equal(dec("1.23")) {
		t.Fatalf("hit %+v", h)
	}
	es := f.db.Entries()
	if len(es) != 2 {
		t.Fatalf("ledger %+v, want debit and refund", es)
	}
	checkEntry(t, es[0], ledger.Debit, "1.23", "10.00", "8.77", h.ID)
	checkEntry(t, es[1], ledger.Refund, "1.23", "8.77", "10.00", h.ID)
	if u := f.stored(); !u.Balance.Equal(dec("10.00")) || !u.TotalSpent.Equal(dec("1.00")) || u.PlanCalls != 0 {
		t.Fatalf("after the release: %+v", u)
	}
	f.checkReleased(t, *rel, 1, "1.23")
}

// When no hold can be granted (the balance does not pay for one call
// outside what other holds keep), the call waits until the user has no
// open hold and is then decided the per-call way: here, refused for its
// balance, with its hit log row.
func TestNoHoldGrantedIsDecidedPerCall(t *testing.T) {
	f := holdFixture(t)
	f.user.Balance = dec("0.40")
	f.save()

	_, _, err := f.app.CallService(context.Background(), f.input(`{}`))
	if !errors.Is(err, ledger.ErrInsufficientBalance) {
		t.Fatalf("error %v", err)
	}
	if h := oneHit(t, f.db); h.Status != hitlog.StatusInsufficientBalance {
		t.Fatalf("hit %+v", h)
	}
	if hs, es := f.db.Holds(), f.db.Entries(); len(hs) != 0 || len(es) != 0 {
		t.Fatalf("holds %+v, ledger %+v: want none", hs, es)
	}
	f.checkReserved(t, 1)
}

// A hold that cannot be taken because the database is away answers 503,
// and for a second after it no call tries a hold: they go the per-call
// way, which answers 503 too while the database is away.
func TestHoldFetchOnALostDatabaseAnswers503(t *testing.T) {
	f := newFixture(t)
	f.user.Plan, f.user.MonthlyCalls = user.PlanEnterprise, nil
	f.save()
	lost := errs.E(errs.Unavailable, "unavailable", "database unavailable")
	f.db.OnCall("Users.LockByID", func() error { return lost })

	for i := range 2 {
		_, _, err := f.app.CallService(context.Background(), f.input(`{}`))
		if errs.KindOf(err) != errs.Unavailable {
			t.Fatalf("call %d: error %v", i+1, err)
		}
	}
	// The hold, then the per-call reservation (tried twice by the writer);
	// no second hold.
	if n := f.db.Calls("Users.LockByID"); n != 3 {
		t.Fatalf("%d locks tried, want 3", n)
	}
}

// A hold fetched ahead (fewer than half a hold's calls left) is released
// with the one in use when the instance stops: nothing stays held, and
// the balance is the calls' charges less.
func TestStopReleasesAHoldFetchedAhead(t *testing.T) {
	f := holdFixture(t)
	f.user.Balance = dec("100.00")
	f.save()
	f.db.OnCall("Holds.Insert", func() error {
		if f.db.Calls("Holds.Insert") == 2 {
			time.Sleep(100 * time.Millisecond) // the fetch ahead overlaps the last calls' charges
		}
		return nil
	})
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Times(5)

	for i := range 5 { // the fifth leaves 3 calls, fewer than half of 8: the next hold is fetched
		if _, _, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	f.app.Wait()
	if u := f.stored(); !u.HeldAmount.IsZero() || !u.Balance.Equal(dec("93.85")) {
		t.Fatalf("after the stop: balance %s, held %s; want 93.85, nothing held", u.Balance, u.HeldAmount)
	}
	if n, m := f.db.Calls("Holds.Insert"), f.db.Calls("Holds.Delete"); n != 2 || m != 2 {
		t.Fatalf("%d holds taken, %d released; want 2 and 2", n, m)
	}
	if hs := f.db.Holds(); len(hs) != 0 {
		t.Fatalf("holds left open: %+v", hs)
	}
	f.checkReserved(t, 5) // 16 counted, 3 + 8 given back
}

// Two instances recovering the same expired hold: the one whose delete
// finds the row gone gives nothing back and does not count it released.
func TestRecoveringAReleasedHoldWritesNothing(t *testing.T) {
	f := holdFixture(t)
	f.user.HeldAmount = dec("9.84")
	f.key.HitsToday, f.key.HitsDate = 8, "2026-11-22"
	f.save()
	f.db.Put(hold.Hold{ID: 5, UserID: 11, KeyID: 3, Day: "2026-11-22", Unit: dec("1.23"), Calls: 8, UsedMoney: decimal.Zero,
		ExpiresAt: f.now.Add(-time.Hour)})
	var other bool
	f.db.OnCall("Holds.Delete", func() error {
		if !other { // the other instance deletes it first
			other = true
			if ok, err := f.db.Stores().Holds.Delete(context.Background(), 5); !ok || err != nil {
				t.Errorf("the other instance's delete: %v, %v", ok, err)
			}
		}
		return nil
	})
	if n, err := f.app.RecoverHolds(context.Background(), 50); err != nil || n != 0 {
		t.Fatalf("released %d, %v; want none", n, err)
	}
	if u := f.stored(); !u.HeldAmount.Equal(dec("9.84")) || !u.Balance.Equal(dec("10.00")) {
		t.Fatalf("user %+v, want nothing given back", u)
	}
	if es := f.db.Entries(); len(es) != 0 {
		t.Fatalf("ledger %+v", es)
	}
	f.checkReserved(t, 8)
}
