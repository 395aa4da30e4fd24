package metering_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/hold"
	"paygate/core/ledger"
	"paygate/core/metering"
	"paygate/core/user"
)

// holdFixture is the metering fixture with an Enterprise owner, whose calls
// run on holds: 10.00 of balance, 1.23 a call (the reseller price).
func holdFixture(t *testing.T) *fixture {
	f := newFixture(t)
	f.user.Plan = user.PlanEnterprise
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	})
	return f
}

// expectHold expects the first hold of the key: 8 calls counted on the
// local day and 9.84 held, in one transaction; the hold gets id 5.
func (f *fixture) expectHold(t *testing.T) *hold.Hold {
	var taken hold.Hold
	f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 8, mock.Anything).Return(8, nil).Once()
	f.holds.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(h *hold.Hold) bool {
		return h.UserID == 11 && h.KeyID == 3 && h.Day == "2026-11-22" && h.Unit.Equal(dec("1.23")) && h.Calls == 8 && h.UsedCalls == 0
	})).RunAndReturn(func(_ context.Context, h *hold.Hold) error { h.ID = 5; taken = *h; return nil }).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Balance.Equal(dec("10.00")) && u.HeldAmount.Equal(dec("9.84"))
	})).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
	return &taken
}

// expectRelease expects the hold's release once its calls are charged:
// read from its row, the unused money leaves the held amount, the calls
// not made go back to the key's day, the row goes.
func (f *fixture) expectRelease(t *testing.T, taken *hold.Hold, used int, usedMoney, heldAfter string) {
	f.holds.EXPECT().Get(mock.Anything, uint64(5)).RunAndReturn(func(context.Context, uint64) (hold.Hold, bool, error) {
		h := *taken
		h.UsedCalls, h.UsedMoney = used, dec(usedMoney)
		return h, true, nil
	}).Once()
	f.keys.EXPECT().UncountHits(mock.Anything, uint64(3), "2026-11-22", 8-used).Return(nil).Once()
	f.holds.EXPECT().Delete(mock.Anything, uint64(5)).Return(true, nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.HeldAmount.Equal(dec(heldAfter))
	})).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
}

// A call on a hold answers before anything of it is written: the hold was
// taken first (money and the daily count set aside), the hit and its debit
// are written afterwards, the debit from the held money, and the hold is
// released when the instance stops (App.Wait): its unused money and calls
// come back.
func TestHoldCallIsChargedAfterItsAnswer(t *testing.T) {
	f := holdFixture(t)
	taken := f.expectHold(t)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"id":"x"}`)}, nil).Once()
	f.hits.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		h := hs[0]
		return len(hs) == 1 && h.Status == hitlog.StatusSuccess && h.ChargeAmount.Equal(dec("1.23")) && h.Reserved.Equal(dec("1.23")) &&
			h.CostAmount.Equal(dec("0.4")) && *h.ResponsePayload == `{"id":"x"}` && h.RequestID == "req_TEST"
	})).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error { hs[0].ID = 99; return nil }).Once()
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
		e := es[0]
		return len(es) == 1 && e.Type == ledger.Debit && e.Amount.Equal(dec("1.23")) && e.BalanceBefore.Equal(dec("10.00")) &&
			e.BalanceAfter.Equal(dec("8.77")) && *e.ReferenceID == 99
	})).Return(nil).Once()
	f.holds.EXPECT().Use(mock.Anything, uint64(5), 1, mock.MatchedBy(func(d decimal.Decimal) bool { return d.Equal(dec("1.23")) })).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Balance.Equal(dec("8.77")) && u.HeldAmount.Equal(dec("8.61")) && u.TotalSpent.Equal(dec("2.23")) && u.PlanCalls == 1
	})).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
	f.expectRelease(t, taken, 1, "1.23", "0.00")

	res, err := f.app.CallService(context.Background(), f.input(`{"phone":"9876543210"}`))
	if err != nil {
		t.Fatal(err)
	}
	// 10.00 less the 9.84 held is 0.16 spendable, plus the hold's 7 calls
	// left at 1.23: the balance once this call is charged.
	if !res.Charged.Equal(dec("1.23")) || !res.BalanceLeft.Equal(dec("8.77")) || string(res.Data) != `{"id":"x"}` {
		t.Fatalf("%+v", res)
	}
	f.app.Wait()
	if !f.user.Balance.Equal(dec("8.77")) || !f.user.HeldAmount.IsZero() {
		t.Fatalf("after the release: balance %s, held %s", f.user.Balance, f.user.HeldAmount)
	}
}

// A failed call on a hold is written as a call reserved the per-call way
// would be: hit failed with no charge, its charge debited and refunded, the
// balance unchanged; the hold's money it took is no longer held.
func TestHoldCallFailureIsDebitedAndRefunded(t *testing.T) {
	f := holdFixture(t)
	taken := f.expectHold(t)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 502, Body: []byte(`{"message":"down"}`)}, nil).Once()
	f.hits.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		h := hs[0]
		return len(hs) == 1 && h.Status == hitlog.StatusFailed && h.ChargeAmount.IsZero() && h.CostAmount.IsZero() && h.Reserved.Equal(dec("1.23"))
	})).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error { hs[0].ID = 99; return nil }).Once()
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
		return len(es) == 2 && es[0].Type == ledger.Debit && es[0].BalanceAfter.Equal(dec("8.77")) &&
			es[1].Type == ledger.Refund && es[1].Amount.Equal(dec("1.23")) && es[1].BalanceAfter.Equal(dec("10.00")) &&
			*es[0].ReferenceID == 99 && *es[1].ReferenceID == 99
	})).Return(nil).Once()
	f.holds.EXPECT().Use(mock.Anything, uint64(5), 1, mock.MatchedBy(func(d decimal.Decimal) bool { return d.Equal(dec("1.23")) })).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Balance.Equal(dec("10.00")) && u.HeldAmount.Equal(dec("8.61")) && u.TotalSpent.Equal(dec("1.00")) && u.PlanCalls == 0
	})).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
	f.expectRelease(t, taken, 1, "1.23", "0.00")

	_, err := f.app.CallService(context.Background(), f.input(`{}`))
	if errs.KindOf(err) != errs.Upstream {
		t.Fatalf("error %v", err)
	}
	f.app.Wait()
}

// When no hold can be granted (the balance does not pay for one call
// outside what other holds keep), the call waits until the user has no
// open hold and is then decided the per-call way: here, refused for its
// balance, with its hit log row.
func TestNoHoldGrantedIsDecidedPerCall(t *testing.T) {
	f := holdFixture(t)
	f.user.Balance = dec("0.40")
	f.holds.EXPECT().ByUser(mock.Anything, uint64(11)).Return(nil, nil).Once()
	f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 1, mock.Anything).Return(1, nil).Once()
	f.hits.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		return len(hs) == 1 && hs[0].Status == hitlog.StatusInsufficientBalance
	})).Return(nil).Once()

	_, err := f.app.CallService(context.Background(), f.input(`{}`))
	if !errors.Is(err, ledger.ErrInsufficientBalance) {
		t.Fatalf("error %v", err)
	}
}

// A hold that cannot be taken because the database is away answers 503,
// and for a second after it no call tries a hold: they go the per-call
// way, which answers 503 too while the database is away.
func TestHoldFetchOnALostDatabaseAnswers503(t *testing.T) {
	f := newFixture(t)
	f.user.Plan = user.PlanEnterprise
	lost := errs.E(errs.Unavailable, "unavailable", "database unavailable")
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(nil, lost).Times(2)

	for i := range 2 { // the hold, then the per-call reservation (tried twice by the writer)
		_, err := f.app.CallService(context.Background(), f.input(`{}`))
		if errs.KindOf(err) != errs.Unavailable {
			t.Fatalf("call %d: error %v", i+1, err)
		}
		if i == 0 {
			f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(nil, lost).Once()
		}
	}
}

// A hold fetched ahead (fewer than half a hold's calls left) is released
// with the one in use when the instance stops: nothing stays held, and
// the balance is the calls' charges less.
func TestStopReleasesAHoldFetchedAhead(t *testing.T) {
	f := holdFixture(t)
	f.user.Balance = dec("100.00")
	f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 8, mock.Anything).Return(8, nil).Times(2)
	var ids []uint64
	f.holds.EXPECT().Insert(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, h *hold.Hold) error {
		if len(ids) == 1 {
			time.Sleep(100 * time.Millisecond) // the fetch ahead overlaps the last calls' charges
		}
		h.ID = uint64(5 + len(ids))
		ids = append(ids, h.ID)
		return nil
	}).Times(2)
	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil })
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Times(5)
	f.hits.EXPECT().InsertMany(mock.Anything, mock.Anything).Return(nil)
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.Anything).Return(nil)
	f.holds.EXPECT().Use(mock.Anything, uint64(5), mock.Anything, mock.Anything).Return(nil)
	for _, id := range []uint64{5, 6} {
		f.holds.EXPECT().Get(mock.Anything, id).RunAndReturn(func(context.Context, uint64) (hold.Hold, bool, error) {
			used := map[uint64]int{5: 5, 6: 0}[id]
			return hold.Hold{ID: id, UserID: 11, KeyID: 3, Day: "2026-11-22", Unit: dec("1.23"), Calls: 8,
				UsedCalls: used, UsedMoney: dec("1.23").Mul(decimal.NewFromInt(int64(used)))}, true, nil
		}).Once()
		f.keys.EXPECT().UncountHits(mock.Anything, uint64(3), "2026-11-22", map[uint64]int{5: 3, 6: 8}[id]).Return(nil).Once()
		f.holds.EXPECT().Delete(mock.Anything, id).Return(true, nil).Once()
	}

	for i := range 5 { // the fifth leaves 3 calls, fewer than half of 8: the next hold is fetched
		if _, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	f.app.Wait()
	if !f.user.HeldAmount.IsZero() || !f.user.Balance.Equal(dec("93.85")) {
		t.Fatalf("after the stop: balance %s, held %s; want 93.85, nothing held", f.user.Balance, f.user.HeldAmount)
	}
}

// Two instances recovering the same expired hold: the one whose delete
// finds the row gone gives nothing back (the strict mocks fail on any
// other write) and does not count it released.
func TestRecoveringAReleasedHoldWritesNothing(t *testing.T) {
	f := holdFixture(t)
	h := hold.Hold{ID: 5, UserID: 11, KeyID: 3, Day: "2026-11-22", Unit: dec("1.23"), Calls: 8, UsedMoney: decimal.Zero}
	f.holds.EXPECT().Expired(mock.Anything, mock.Anything, 50).Unset() // instead of the fixture's "no hold left open"
	f.holds.EXPECT().Expired(mock.Anything, mock.Anything, 50).Return([]hold.Hold{h}, nil).Once()
	f.holds.EXPECT().Get(mock.Anything, uint64(5)).Return(h, true, nil).Once()
	f.holds.EXPECT().Delete(mock.Anything, uint64(5)).Return(false, nil).Once()
	if n, err := f.app.RecoverHolds(context.Background(), 50); err != nil || n != 0 {
		t.Fatalf("released %d, %v; want none", n, err)
	}
}
