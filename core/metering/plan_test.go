package metering

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/apikey"
	"paygate/core/hitlog"
	"paygate/core/hold"
	"paygate/core/ledger"
	"paygate/core/user"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var planNow = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func reservation(id string, charge string) *batchOp {
	return &batchOp{kind: batchReserve, keyID: 3, day: "2026-11-21", month: "2026-11", charge: d(charge), start: planNow,
		hit: &hitlog.Hit{UserID: 11, RequestID: id}}
}

// Reservations are admitted in queue order against the key's granted
// count and the balance as earlier calls of the batch left it; each
// admitted charge is a debit referencing its hit.
func TestPlanBatchReservations(t *testing.T) {
	u := &user.User{ID: 11, Plan: user.PlanEnterprise, Balance: d("5.00")}
	ops := []*batchOp{reservation("a", "2.00"), reservation("b", "2.00"), reservation("c", "2.00"), reservation("d", "0.50")}
	p, err := planBatch(ops, map[uint64]*user.User{11: u}, map[keyDay]int{{3, "2026-11-21"}: 3}, planNow)
	if err != nil {
		t.Fatal(err)
	}
	wantErr := []error{nil, nil, ledger.ErrInsufficientBalance, apikey.ErrDailyLimit}
	for i, op := range ops {
		if op.err != wantErr[i] {
			t.Errorf("op %d: err %v, want %v", i, op.err, wantErr[i])
		}
	}
	if ops[2].hit.Status != hitlog.StatusInsufficientBalance || ops[3].hit.Status != hitlog.StatusFailed || ops[0].hit.Status != hitlog.StatusPending {
		t.Errorf("statuses %s %s %s", ops[0].hit.Status, ops[2].hit.Status, ops[3].hit.Status)
	}
	if len(p.inserts) != 4 || len(p.entries) != 2 || p.hitOf[0] != 0 || p.hitOf[1] != 1 {
		t.Fatalf("inserts %d entries %d hitOf %v", len(p.inserts), len(p.entries), p.hitOf)
	}
	if !u.Balance.Equal(d("1.00")) || !ops[1].balance.Equal(d("1.00")) || !p.touched[11] || u.PlanCalls != 2 {
		t.Errorf("balance %s, op balance %s, touched %v, plan calls %d", u.Balance, ops[1].balance, p.touched, u.PlanCalls)
	}
}

// A failed settlement that moved its hit refunds its reserve and gives its
// plan call back; one that did not move (recovery took it) writes nothing.
func TestPlanBatchFailedSettlements(t *testing.T) {
	u := &user.User{ID: 11, Plan: user.PlanStarter, Balance: d("1.00"), PlanMonth: "2026-11", PlanCalls: 5}
	moved := &batchOp{kind: batchSettle, month: "2026-11", moved: true, hit: &hitlog.Hit{ID: 7, UserID: 11, RequestID: "m", Status: hitlog.StatusFailed, Reserved: d("2.00")}}
	stale := &batchOp{kind: batchSettle, month: "2026-11", moved: false, hit: &hitlog.Hit{ID: 8, UserID: 11, RequestID: "s", Status: hitlog.StatusFailed, Reserved: d("2.00")}}
	ok := &batchOp{kind: batchSettle, month: "2026-11", moved: true, hit: &hitlog.Hit{ID: 9, UserID: 11, RequestID: "o", Status: hitlog.StatusSuccess, Reserved: d("2.00")}}
	p, err := planBatch([]*batchOp{moved, stale, ok}, map[uint64]*user.User{11: u}, nil, planNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.entries) != 1 || p.entries[0].Type != ledger.Refund || *p.entries[0].ReferenceID != 7 || p.hitOf[0] != -1 {
		t.Fatalf("entries %+v hitOf %v", p.entries, p.hitOf)
	}
	if !u.Balance.Equal(d("3.00")) || u.PlanCalls != 4 || len(p.inserts) != 0 {
		t.Errorf("balance %s plan calls %d inserts %d", u.Balance, u.PlanCalls, len(p.inserts))
	}
}

// Captures take their charge from the hold's money; a failed call is
// debited and refunded; a capture whose hold was released and whose
// balance cannot pay is written uncharged.
func TestPlanBatchCaptures(t *testing.T) {
	u := &user.User{ID: 11, Plan: user.PlanEnterprise, Balance: d("3.00"), HeldAmount: d("2.00")}
	lh := &liveHold{h: hold.Hold{ID: 5}}
	capture := func(id string, status hitlog.Status) *batchOp {
		return &batchOp{kind: batchCapture, month: "2026-11", hold: lh, hit: &hitlog.Hit{UserID: 11, RequestID: id, Status: status, Reserved: d("1.00"), ChargeAmount: d("1.00")}}
	}
	ops := []*batchOp{capture("ok", hitlog.StatusSuccess), capture("bad", hitlog.StatusFailed), capture("late1", hitlog.StatusSuccess),
		capture("late2", hitlog.StatusSuccess), capture("none", hitlog.StatusSuccess)}
	p, err := planBatch(ops, map[uint64]*user.User{11: u}, nil, planNow)
	if err != nil {
		t.Fatal(err)
	}
	// ok: held 2→1, balance 3→2; bad: held 1→0, debit and refund; late1:
	// held money gone, the balance 2→1 pays; late2: 1→0; none: uncharged.
	if len(p.entries) != 5 || p.entries[1].Type != ledger.Debit || p.entries[2].Type != ledger.Refund || p.hitOf[2] != 1 {
		t.Fatalf("entries %d, hitOf %v", len(p.entries), p.hitOf)
	}
	if !u.Balance.IsZero() || !u.HeldAmount.IsZero() || len(p.uncharged) != 1 || p.uncharged[0] != "none" || !ops[4].hit.ChargeAmount.IsZero() {
		t.Errorf("balance %s held %s uncharged %v", u.Balance, u.HeldAmount, p.uncharged)
	}
	if len(p.holdUses) != 1 || p.holdUses[0].id != 5 || p.holdUses[0].calls != 5 || !p.holdUses[0].money.Equal(d("4.00")) {
		t.Errorf("hold uses %+v", p.holdUses)
	}
	if u.PlanCalls != 4 {
		t.Errorf("plan calls %d, want 4 (the failed call is not counted)", u.PlanCalls)
	}
}
