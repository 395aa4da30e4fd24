package gateway_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/gateway"
	"paygate/core/ledger"
	"paygate/core/metering"
	"paygate/core/recharge"
	"paygate/core/store"
)

// pendingRecharge is user 11's pending recharge id, submitted at sub (nil: never answered).
func pendingRecharge(id uint64, created time.Time, sub *time.Time, attempts int) recharge.Recharge {
	return recharge.Recharge{ID: id, UserID: 11, ReferenceID: "r", Mobile: "9876543210", Operator: "jio", Circle: "delhi",
		Amount: dec("10.00"), Status: recharge.StatusPending, CreatedAt: created, SubmittedAt: sub, Attempts: attempts, NextCheckAt: created}
}

// providerDeadline fails the test unless ctx carries the provider timeout.
func providerDeadline(t *testing.T, ctx context.Context) {
	t.Helper()
	dl, ok := ctx.Deadline()
	if !ok || time.Until(dl) > 15*time.Second {
		t.Errorf("provider call without the 15 s bound (deadline %v, %v)", dl, ok)
	}
}

// TestRechargeRequestLeavesGraceThenMarksSubmitted: the row is created due
// only after the grace (longer than the provider timeout), and the
// provider's pending answer marks it submitted with its first check 15 s on.
func TestRechargeRequestLeavesGraceThenMarksSubmitted(t *testing.T) {
	f := newGatewayFixture(t)
	f.recharges.EXPECT().ByReference(mock.Anything, uint64(11), "r-1").Return(nil, recharge.ErrNotFound).Once()
	f.expectPendingHit("0")
	f.recharges.EXPECT().Create(mock.Anything, mock.MatchedBy(func(r *recharge.Recharge) bool {
		return r.SubmittedAt == nil && r.NextCheckAt.Equal(f.now.Add(45*time.Second)) && recharge.SubmitGrace(15*time.Second) > 15*time.Second
	})).RunAndReturn(func(_ context.Context, r *recharge.Recharge) error { r.ID = 7; return nil }).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.Anything).Return(nil).Once()
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, r recharge.Recharge) (recharge.Outcome, error) {
		providerDeadline(t, ctx)
		return recharge.Outcome{Status: recharge.StatusPending}, nil
	}).Once()
	f.recharges.EXPECT().MarkSubmitted(mock.Anything, mock.MatchedBy(func(r *recharge.Recharge) bool {
		return r.ID == 7 && r.SubmittedAt != nil && r.SubmittedAt.Equal(f.now) && r.NextCheckAt.Equal(f.now.Add(15*time.Second))
	})).Return(true, nil).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.Anything).Return(nil).Once()

	res, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if err != nil || res.Recharge.Status != recharge.StatusPending || res.Recharge.SubmittedAt == nil {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestRechargeRequestWithoutAnswerStaysUnsubmitted: a provider error is no
// answer: nothing is marked (the mock fails on MarkSubmitted or Finish).
func TestRechargeRequestWithoutAnswerStaysUnsubmitted(t *testing.T) {
	f := newGatewayFixture(t)
	f.recharges.EXPECT().ByReference(mock.Anything, uint64(11), "r-1").Return(nil, recharge.ErrNotFound).Once()
	f.expectPendingHit("0")
	f.recharges.EXPECT().Create(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, r *recharge.Recharge) error { r.ID = 7; return nil }).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.Anything).Return(nil).Once()
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).Return(recharge.Outcome{}, context.DeadlineExceeded).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.Anything).Return(nil).Once()
	res, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if err != nil || res.Recharge.Status != recharge.StatusPending || res.Recharge.SubmittedAt != nil {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestCheckRechargesClaimsWithBackoffBeforeAsking: the claim carries the
// next attempt's time (4th attempt: 15 s × 2³ = 2 min) and comes before the
// provider is asked; no answer leaves the row to that time.
func TestCheckRechargesClaimsWithBackoffBeforeAsking(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-10 * time.Minute)
	r := pendingRecharge(7, f.now.Add(-11*time.Minute), &sub, 3)
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return([]recharge.Recharge{r}, nil).Once()
	claimed := false
	f.recharges.EXPECT().Claim(mock.Anything, mock.MatchedBy(func(o *recharge.Recharge) bool { return o.Attempts == 3 }),
		mock.MatchedBy(func(n *recharge.Recharge) bool {
			return n.Attempts == 4 && n.NextCheckAt.Equal(f.now.Add(2*time.Minute)) && n.ReconcileAt == nil
		}), f.now).RunAndReturn(func(context.Context, *recharge.Recharge, *recharge.Recharge, time.Time) (bool, error) {
		claimed = true
		return true, nil
	}).Once()
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, r recharge.Recharge) (recharge.Outcome, error) {
		if !claimed {
			t.Error("provider asked before the claim")
		}
		providerDeadline(t, ctx)
		return recharge.Outcome{}, context.DeadlineExceeded
	}).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
}

// TestCheckRechargesOneBadRowDoesNotStopTheRound: a provider timeout on the
// first row and a store error claiming the second do not keep the third
// from being finished; the store error is reported after the round.
func TestCheckRechargesOneBadRowDoesNotStopTheRound(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-time.Hour)
	rows := []recharge.Recharge{pendingRecharge(1, sub, &sub, 0), pendingRecharge(2, sub, &sub, 0), pendingRecharge(3, sub, &sub, 0)}
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return(rows, nil).Once()
	dbDown := errors.New("db down")
	f.recharges.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything, f.now).RunAndReturn(
		func(_ context.Context, o *recharge.Recharge, _ *recharge.Recharge, _ time.Time) (bool, error) {
			if o.ID == 2 {
				return false, dbDown
			}
			return true, nil
		}).Times(3)
	f.recharger.EXPECT().Check(mock.Anything, mock.MatchedBy(func(r recharge.Recharge) bool { return r.ID == 1 })).
		Return(recharge.Outcome{}, context.DeadlineExceeded).Once()
	f.recharger.EXPECT().Check(mock.Anything, mock.MatchedBy(func(r recharge.Recharge) bool { return r.ID == 3 })).
		Return(recharge.Outcome{Status: recharge.StatusSuccess, OperatorRef: "OPR1"}, nil).Once()
	f.recharges.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(r *recharge.Recharge) bool {
		return r.ID == 3 && r.Status == recharge.StatusSuccess
	})).Return(true, nil).Once()
	n, err := f.app.CheckRecharges(context.Background(), 100)
	if n != 1 || !errors.Is(err, dbDown) {
		t.Fatalf("n %d err %v", n, err)
	}
}

// TestCheckRechargesResubmitsUnsubmittedAndNeverChecksThem: a recharge
// whose Submit never answered (a crash after the reservation) is submitted
// again, never checked (the mock fails on Check); the pending answer marks
// it submitted, keeping the claimed next time.
func TestCheckRechargesResubmitsUnsubmittedAndNeverChecksThem(t *testing.T) {
	f := newGatewayFixture(t)
	r := pendingRecharge(7, f.now.Add(-5*time.Minute), nil, 0)
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return([]recharge.Recharge{r}, nil).Once()
	f.recharges.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything, f.now).Return(true, nil).Once()
	f.recharger.EXPECT().Submit(mock.Anything, mock.MatchedBy(func(r recharge.Recharge) bool {
		return r.ID == 7 && r.ProviderReference() == "rch_7"
	})).RunAndReturn(func(ctx context.Context, _ recharge.Recharge) (recharge.Outcome, error) {
		providerDeadline(t, ctx)
		return recharge.Outcome{Status: recharge.StatusPending}, nil
	}).Once()
	f.recharges.EXPECT().MarkSubmitted(mock.Anything, mock.MatchedBy(func(r *recharge.Recharge) bool {
		return r.ID == 7 && r.SubmittedAt != nil && r.Attempts == 1 && r.NextCheckAt.Equal(f.now.Add(15*time.Second))
	})).Return(true, nil).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
}

// TestCheckRechargesResubmitFailureRefundsOnce: the re-submission's final
// answer finishes the recharge (and refunds it) like the request would.
func TestCheckRechargesResubmitFailureRefundsOnce(t *testing.T) {
	f := newGatewayFixture(t)
	r := pendingRecharge(7, f.now.Add(-5*time.Minute), nil, 2)
	f.user.Balance = dec("0.00")
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return([]recharge.Recharge{r}, nil).Once()
	f.recharges.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything, f.now).Return(true, nil).Once()
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).Return(recharge.Outcome{Status: recharge.StatusFailed, Reason: "Invalid mobile number"}, nil).Once()
	f.recharges.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(r *recharge.Recharge) bool {
		return r.Status == recharge.StatusFailed && r.SubmittedAt != nil
	})).Return(true, nil).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool {
		return e.Type == ledger.Refund && e.Amount.Equal(dec("10.00")) && *e.ReferenceID == 7
	})).Return(nil).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 1 || err != nil || !f.user.Balance.Equal(dec("10.00")) {
		t.Fatalf("n %d err %v balance %s", n, err, f.user.Balance)
	}
}

// TestCheckRechargesLostClaimAsksNobody: another worker claimed the row
// first, so this one neither submits nor checks it.
func TestCheckRechargesLostClaimAsksNobody(t *testing.T) {
	f := newGatewayFixture(t)
	r := pendingRecharge(7, f.now.Add(-5*time.Minute), nil, 0)
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return([]recharge.Recharge{r}, nil).Once()
	f.recharges.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything, f.now).Return(false, nil).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
}

// TestCheckRechargesFlagsLongPendingWithoutRefund: past 48 h without an
// answer the claim flags the recharge for reconciliation; it stays pending
// and nothing is refunded (the mock fails on Finish or a ledger row).
func TestCheckRechargesFlagsLongPendingWithoutRefund(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-49 * time.Hour)
	r := pendingRecharge(7, sub, &sub, 40)
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return([]recharge.Recharge{r}, nil).Once()
	f.recharges.EXPECT().Claim(mock.Anything, mock.Anything, mock.MatchedBy(func(n *recharge.Recharge) bool {
		return n.ReconcileAt != nil && n.ReconcileAt.Equal(f.now) && n.NeedsReconciliation() && n.NextCheckAt.Equal(f.now.Add(time.Hour))
	}), f.now).Return(true, nil).Once()
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).Return(recharge.Outcome{}, errors.New("operator silent")).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
}

// TestCheckRechargesRoundStopsClaimingAfterItsBudget: with a provider that
// takes its time, a round claims no more rows once its budget is spent (the
// mock fails if the second row is claimed); they stay due for the next one.
func TestCheckRechargesRoundStopsClaimingAfterItsBudget(t *testing.T) {
	f := newGatewayFixture(t)
	f.app, f.meter = wire(t, gateway.Deps{Tx: f.tx, Stores: store.Stores{Users: f.users, Ledger: f.ledger, Recharges: f.recharges},
		Now: func() time.Time { return f.now }, Recharger: f.recharger, Config: gateway.Config{RechargeRoundBudget: 20 * time.Millisecond}}, nil)
	sub := f.now.Add(-time.Hour)
	rows := []recharge.Recharge{pendingRecharge(1, sub, &sub, 0), pendingRecharge(2, sub, &sub, 0)}
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return(rows, nil).Once()
	f.recharges.EXPECT().Claim(mock.Anything, mock.MatchedBy(func(r *recharge.Recharge) bool { return r.ID == 1 }), mock.Anything, f.now).Return(true, nil).Once()
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).RunAndReturn(func(context.Context, recharge.Recharge) (recharge.Outcome, error) {
		time.Sleep(30 * time.Millisecond)
		return recharge.Outcome{Status: recharge.StatusPending}, nil
	}).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
}
