package metering_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/user"
)

// pendingHit is a hit whose call started long ago and never settled.
func (f *fixture) pendingHit(id uint64, reserved string) hitlog.Hit {
	return hitlog.Hit{ID: id, UserID: 11, ServiceID: 7, APIKeyID: 3, RequestID: "req_OLD" + string(rune('A'+id%26)),
		Status: hitlog.StatusPending, Reserved: dec(reserved), ChargeAmount: decimal.Zero, CostAmount: decimal.Zero,
		CreatedAt: f.now.Add(-10 * time.Minute)}
}

func TestRecoverPendingHitsRefundsInterruptedCalls(t *testing.T) {
	f := newFixture(t)
	f.user.PlanMonth, f.user.PlanCalls = "2026-11", 5
	// The cut-off is the default grace: upstream timeout (15 s) + 1 minute.
	f.hits.EXPECT().Pending(mock.Anything, f.now.Add(-75*time.Second), 50).
		Return([]hitlog.Hit{f.pendingHit(41, "1.25")}, nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.ID == 41 && h.Status == hitlog.StatusFailed && h.ChargeAmount.IsZero() && h.CostAmount.IsZero() &&
			h.ResponsePayload != nil && strings.Contains(*h.ResponsePayload, `"error":"interrupted"`)
	})).Return(nil).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool {
		return e.Type == ledger.Refund && e.Amount.Equal(dec("1.25")) && e.ReferenceType == ledger.RefAPIHit &&
			*e.ReferenceID == 41 && e.BalanceBefore.Equal(dec("10.00")) && e.BalanceAfter.Equal(dec("11.25"))
	})).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		// The refunded call no longer counts against the monthly plan.
		return u.Balance.Equal(dec("11.25")) && u.TotalSpent.IsZero() && u.PlanCalls == 4
	})).Return(nil).Once()

	n, err := f.app.RecoverPendingHits(context.Background(), 50)
	if err != nil || n != 1 {
		t.Fatalf("RecoverPendingHits = %d, %v; want 1 hit settled", n, err)
	}
}

// A hit settled meanwhile (by its own call, or by another instance's
// recovery) is left alone: no refund, no balance write.
func TestRecoverPendingHitsSkipsHitsSettledMeanwhile(t *testing.T) {
	f := newFixture(t)
	f.hits.EXPECT().Pending(mock.Anything, mock.Anything, 10).Return([]hitlog.Hit{f.pendingHit(41, "1.25")}, nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(&user.User{ID: 11, Balance: dec("10.00")}, nil).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.Anything).Return(hitlog.ErrNotPending).Once()

	n, err := f.app.RecoverPendingHits(context.Background(), 10)
	if err != nil || n != 0 {
		t.Fatalf("RecoverPendingHits = %d, %v; want 0 and no error", n, err)
	}
	f.ledger.AssertNotCalled(t, "Insert", mock.Anything, mock.Anything)
	f.users.AssertNotCalled(t, "SaveBalance", mock.Anything, mock.Anything)
}

// A free call (nothing reserved) is marked failed without a ledger row; a
// hit whose settlement fails does not keep the next one from being settled,
// and the round reports the failure.
func TestRecoverPendingHitsGoesOnAfterAFailure(t *testing.T) {
	f := newFixture(t)
	f.hits.EXPECT().Pending(mock.Anything, mock.Anything, 10).
		Return([]hitlog.Hit{f.pendingHit(41, "1.00"), f.pendingHit(42, "0")}, nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(nil, errors.New("connection lost")).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(&user.User{ID: 11, Balance: dec("10.00")}, nil).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool { return h.ID == 42 })).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool { return u.Balance.Equal(dec("10.00")) })).Return(nil).Once()

	n, err := f.app.RecoverPendingHits(context.Background(), 10)
	if n != 1 || err == nil || !strings.Contains(err.Error(), "connection lost") {
		t.Fatalf("RecoverPendingHits = %d, %v; want 1 settled and hit 41's error", n, err)
	}
	f.ledger.AssertNotCalled(t, "Insert", mock.Anything, mock.Anything)
}
