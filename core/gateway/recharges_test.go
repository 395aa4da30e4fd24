package gateway_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/gateway"
	"paygate/core/gateway/recharge"
	"paygate/core/metering"
	"paygate/core/money/ledger"
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

// rechargeRow is the stored recharge id.
func (f *gwFixture) rechargeRow(t *testing.T, id uint64) recharge.Recharge {
	t.Helper()
	for _, r := range f.db.Recharges() {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no recharge %d", id)
	return recharge.Recharge{}
}

// TestRechargeRequestLeavesGraceThenMarksSubmitted: the row is created due
// only after the grace (longer than the provider timeout), and the
// provider's pending answer marks it submitted with its first check 15 s on.
func TestRechargeRequestLeavesGraceThenMarksSubmitted(t *testing.T) {
	f := newGatewayFixture(t)
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, r recharge.Recharge) (recharge.Outcome, error) {
		providerDeadline(t, ctx)
		// As created, before the answer: due only after the grace.
		if row := f.rechargeRow(t, r.ID); row.SubmittedAt != nil || !row.NextCheckAt.Equal(f.now.Add(45*time.Second)) ||
			recharge.SubmitGrace(15*time.Second) <= 15*time.Second {
			t.Errorf("created %+v", row)
		}
		return recharge.Outcome{Status: recharge.StatusPending}, nil
	}).Once()

	res, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if err != nil || res.Recharge.Status != recharge.StatusPending || res.Recharge.SubmittedAt == nil {
		t.Fatalf("%+v %v", res, err)
	}
	r := f.rechargeRow(t, res.Recharge.ID)
	if r.Status != recharge.StatusPending || r.SubmittedAt == nil || !r.SubmittedAt.Equal(f.now) || !r.NextCheckAt.Equal(f.now.Add(15*time.Second)) {
		t.Fatalf("recharge %+v", r)
	}
	if d := f.entries(ledger.Debit); len(d) != 1 || !d[0].Amount.Equal(dec("10.00")) {
		t.Fatalf("debits %+v", d)
	}
}

// TestRechargeRequestWithoutAnswerStaysUnsubmitted: a provider error is no
// answer: nothing is marked or finished.
func TestRechargeRequestWithoutAnswerStaysUnsubmitted(t *testing.T) {
	f := newGatewayFixture(t)
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).Return(recharge.Outcome{}, context.DeadlineExceeded).Once()
	res, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if err != nil || res.Recharge.Status != recharge.StatusPending || res.Recharge.SubmittedAt != nil {
		t.Fatalf("%+v %v", res, err)
	}
	if r := f.rechargeRow(t, res.Recharge.ID); r.Status != recharge.StatusPending || r.SubmittedAt != nil {
		t.Fatalf("recharge %+v", r)
	}
	if es := f.db.Entries(); len(es) != 1 || es[0].Type != ledger.Debit {
		t.Fatalf("ledger %+v, want the debit alone", es)
	}
}

// TestCheckRechargesClaimsWithBackoffBeforeAsking: the claim carries the
// next attempt's time (4th attempt: 15 s × 2³ = 2 min) and comes before the
// provider is asked; no answer leaves the row to that time.
func TestCheckRechargesClaimsWithBackoffBeforeAsking(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-10 * time.Minute)
	f.db.Put(pendingRecharge(7, f.now.Add(-11*time.Minute), &sub, 3))
	claimed := func(r recharge.Recharge) bool {
		return r.Attempts == 4 && r.NextCheckAt.Equal(f.now.Add(2*time.Minute)) && r.ReconcileAt == nil
	}
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, r recharge.Recharge) (recharge.Outcome, error) {
		if !claimed(f.rechargeRow(t, 7)) {
			t.Errorf("provider asked before the claim: %+v", f.rechargeRow(t, 7))
		}
		providerDeadline(t, ctx)
		return recharge.Outcome{}, context.DeadlineExceeded
	}).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	if r := f.rechargeRow(t, 7); !claimed(r) || r.Status != recharge.StatusPending {
		t.Fatalf("recharge %+v", r)
	}
}

// TestCheckRechargesOneBadRowDoesNotStopTheRound: a provider timeout on the
// first row and a store error claiming the second do not keep the third
// from being finished; the store error is reported after the round.
func TestCheckRechargesOneBadRowDoesNotStopTheRound(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-time.Hour)
	f.db.Put(pendingRecharge(1, sub, &sub, 0), pendingRecharge(2, sub, &sub, 0), pendingRecharge(3, sub, &sub, 0))
	dbDown := errors.New("db down")
	f.db.Fail("Recharges.Claim", nil, dbDown, nil)
	f.recharger.EXPECT().Check(mock.Anything, mock.MatchedBy(func(r recharge.Recharge) bool { return r.ID == 1 })).
		Return(recharge.Outcome{}, context.DeadlineExceeded).Once()
	f.recharger.EXPECT().Check(mock.Anything, mock.MatchedBy(func(r recharge.Recharge) bool { return r.ID == 3 })).
		Return(recharge.Outcome{Status: recharge.StatusSuccess, OperatorRef: "OPR1"}, nil).Once()
	n, err := f.app.CheckRecharges(context.Background(), 100)
	if n != 1 || !errors.Is(err, dbDown) {
		t.Fatalf("n %d err %v", n, err)
	}
	if r1, r2, r3 := f.rechargeRow(t, 1), f.rechargeRow(t, 2), f.rechargeRow(t, 3); r1.Status != recharge.StatusPending ||
		r2.Status != recharge.StatusPending || r2.Attempts != 0 || r3.Status != recharge.StatusSuccess {
		t.Fatalf("recharges %+v", f.db.Recharges())
	}
}

// TestCheckRechargesResubmitsUnsubmittedAndNeverChecksThem: a recharge
// whose Submit never answered (a crash after the reservation) is submitted
// again, never checked (the mock fails on Check); the pending answer marks
// it submitted, keeping the claimed next time.
func TestCheckRechargesResubmitsUnsubmittedAndNeverChecksThem(t *testing.T) {
	f := newGatewayFixture(t)
	f.db.Put(pendingRecharge(7, f.now.Add(-5*time.Minute), nil, 0))
	f.recharger.EXPECT().Submit(mock.Anything, mock.MatchedBy(func(r recharge.Recharge) bool {
		return r.ID == 7 && r.ProviderReference() == "rch_7"
	})).RunAndReturn(func(ctx context.Context, _ recharge.Recharge) (recharge.Outcome, error) {
		providerDeadline(t, ctx)
		return recharge.Outcome{Status: recharge.StatusPending}, nil
	}).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	if r := f.rechargeRow(t, 7); r.SubmittedAt == nil || r.Attempts != 1 || !r.NextCheckAt.Equal(f.now.Add(15*time.Second)) || r.Status != recharge.StatusPending {
		t.Fatalf("recharge %+v", r)
	}
}

// TestCheckRechargesResubmitFailureRefundsOnce: the re-submission's final
// answer finishes the recharge (and refunds it) like the request would.
func TestCheckRechargesResubmitFailureRefundsOnce(t *testing.T) {
	f := newGatewayFixture(t)
	f.db.Put(pendingRecharge(7, f.now.Add(-5*time.Minute), nil, 2))
	u := f.stored()
	u.Balance = dec("0.00")
	f.db.Put(u)
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).Return(recharge.Outcome{Status: recharge.StatusFailed, Reason: "Invalid mobile number"}, nil).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 1 || err != nil || !f.stored().Balance.Equal(dec("10.00")) {
		t.Fatalf("n %d err %v balance %s", n, err, f.stored().Balance)
	}
	if r := f.rechargeRow(t, 7); r.Status != recharge.StatusFailed || r.SubmittedAt == nil {
		t.Fatalf("recharge %+v", r)
	}
	if es := f.db.Entries(); len(es) != 1 || es[0].Type != ledger.Refund || !es[0].Amount.Equal(dec("10.00")) || *es[0].ReferenceID != 7 {
		t.Fatalf("ledger %+v, want one refund", es)
	}
}

// TestCheckRechargesLostClaimAsksNobody: another worker claimed the row
// first, so this one neither submits nor checks it (the mocks fail on
// either).
func TestCheckRechargesLostClaimAsksNobody(t *testing.T) {
	f := newGatewayFixture(t)
	r := pendingRecharge(7, f.now.Add(-5*time.Minute), nil, 0)
	f.db.Put(r)
	f.db.OnCall("Recharges.Claim", func() error {
		if row := f.rechargeRow(t, 7); row.Attempts == 0 { // the other worker's claim lands first
			next := row.Claim(f.now)
			f.db.Put(next)
		}
		return nil
	})
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	if row := f.rechargeRow(t, 7); row.Attempts != 1 {
		t.Fatalf("recharge %+v, want the other worker's claim alone", row)
	}
}

// TestCheckRechargesFlagsLongPendingWithoutRefund: past 48 h without an
// answer the claim flags the recharge for reconciliation; it stays pending
// and nothing is refunded.
func TestCheckRechargesFlagsLongPendingWithoutRefund(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-49 * time.Hour)
	f.db.Put(pendingRecharge(7, sub, &sub, 40))
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).Return(recharge.Outcome{}, errors.New("operator silent")).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	r := f.rechargeRow(t, 7)
	if r.ReconcileAt == nil || !r.ReconcileAt.Equal(f.now) || !r.NeedsReconciliation() || !r.NextCheckAt.Equal(f.now.Add(time.Hour)) {
		t.Fatalf("recharge %+v", r)
	}
	if es := f.db.Entries(); len(es) != 0 {
		t.Fatalf("ledger %+v, want no refund", es)
	}
}

// TestCheckRechargesRoundStopsClaimingAfterItsBudget: with a provider that
// takes its time, a round claims no more rows once its budget is spent;
// they stay due for the next one.
func TestCheckRechargesRoundStopsClaimingAfterItsBudget(t *testing.T) {
	f := newGatewayFixtureWith(t, gateway.Config{RechargeRoundBudget: 20 * time.Millisecond})
	sub := f.now.Add(-time.Hour)
	f.db.Put(pendingRecharge(1, sub, &sub, 0), pendingRecharge(2, sub, &sub, 0))
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).RunAndReturn(func(context.Context, recharge.Recharge) (recharge.Outcome, error) {
		time.Sleep(30 * time.Millisecond)
		return recharge.Outcome{Status: recharge.StatusPending}, nil
	}).Once()
	if n, err := f.app.CheckRecharges(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("n %d err %v", n, err)
	}
	if r1, r2 := f.rechargeRow(t, 1), f.rechargeRow(t, 2); r1.Attempts != 1 || r2.Attempts != 0 {
		t.Fatalf("recharges %+v, want the first claimed alone", f.db.Recharges())
	}
}
