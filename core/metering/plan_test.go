package metering

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/money/ledger"
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
	for i, r := range p.results {
		if r.err != wantErr[i] {
			t.Errorf("op %d: err %v, want %v", i, r.err, wantErr[i])
		}
	}
	res := p.results
	if res[2].hit.Status != hitlog.StatusInsufficientBalance || res[3].hit.Status != hitlog.StatusFailed || res[0].hit.Status != hitlog.StatusPending {
		t.Errorf("statuses %s %s %s", res[0].hit.Status, res[2].hit.Status, res[3].hit.Status)
	}
	if res[0].hit.Admitted == nil || !res[0].hit.Admitted.Equal(d("2.00")) || res[2].hit.Admitted != nil {
		t.Errorf("admitted %v, %v", res[0].hit.Admitted, res[2].hit.Admitted)
	}
	if len(p.inserts) != 4 || len(p.entries) != 2 || p.hitOf[0] != 0 || p.hitOf[1] != 1 {
		t.Fatalf("inserts %d entries %d hitOf %v", len(p.inserts), len(p.entries), p.hitOf)
	}
	after := p.users[11]
	if !after.Balance.Equal(d("1.00")) || !res[1].balance.Equal(d("1.00")) || !p.touched[11] || after.PlanCalls != 2 {
		t.Errorf("balance %s, op balance %s, touched %v, plan calls %d", after.Balance, res[1].balance, p.touched, after.PlanCalls)
	}
	if !u.Balance.Equal(d("5.00")) || u.PlanCalls != 0 || ops[0].hit.Status != "" || ops[0].err != nil || ops[0].counted {
		t.Errorf("the plan changed its inputs: balance %s, plan calls %d, hit %+v", u.Balance, u.PlanCalls, ops[0].hit)
	}
}

// A failed settlement that moved its hit refunds its reserve and gives its
// plan call back; one that did not move (recovery took it) writes nothing.
func TestPlanBatchFailedSettlements(t *testing.T) {
	u := &user.User{ID: 11, Plan: user.PlanStarter, MonthlyCalls: user.Allowance(user.StarterMonthlyCalls), Balance: d("1.00"), PlanMonth: "2026-11", PlanCalls: 5}
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
	if after := p.users[11]; !after.Balance.Equal(d("3.00")) || after.PlanCalls != 4 || len(p.inserts) != 0 {
		t.Errorf("balance %s plan calls %d inserts %d", after.Balance, after.PlanCalls, len(p.inserts))
	}
}

// Captures take their charge from the hold's money; a failed call is
// debited and refunded; a capture whose hold was released and whose
// balance cannot pay is written uncharged.
func TestPlanBatchCaptures(t *testing.T) {
	u := &user.User{ID: 11, Plan: user.PlanEnterprise, Balance: d("3.00"), HeldAmount: d("2.00")}
	lh := &liveHold{h: hold.Hold{ID: 5}}
	capture := func(id string, status hitlog.Status) *batchOp {
		return &batchOp{kind: batchCapture, month: "2026-11", hold: lh, charge: d("1.00"),
			hit: &hitlog.Hit{UserID: 11, RequestID: id, Status: status, Reserved: d("1.00"), ChargeAmount: d("1.00")}}
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
	after := p.users[11]
	none := p.results[4].hit
	if !after.Balance.IsZero() || !after.HeldAmount.IsZero() || len(p.uncharged) != 1 || p.uncharged[0] != "none" || !none.ChargeAmount.IsZero() ||
		none.Uncharged != hitlog.UnchargedHoldReleased || !none.Admitted.Equal(d("1.00")) {
		t.Errorf("balance %s held %s uncharged %v, last hit %+v", after.Balance, after.HeldAmount, p.uncharged, none)
	}
	if !ops[4].hit.ChargeAmount.Equal(d("1.00")) || ops[4].hit.Uncharged != "" {
		t.Errorf("the plan changed the capture it was given: %+v", ops[4].hit)
	}
	if len(p.holdUses) != 1 || p.holdUses[0].id != 5 || p.holdUses[0].calls != 5 || !p.holdUses[0].money.Equal(d("4.00")) {
		t.Errorf("hold uses %+v", p.holdUses)
	}
	if after.PlanCalls != 4 {
		t.Errorf("plan calls %d, want 4 (the failed call is not counted)", after.PlanCalls)
	}
}

// A batch planned against a stale row (an optimistic batch's snapshot from
// before a credit made outside the metering path) and then, after the
// snapshot check failed, against the fresh row gets the fresh row's result:
// the first plan leaves nothing behind in the ops it was given.
func TestPlanBatchAgainAfterStaleRow(t *testing.T) {
	lh := &liveHold{h: hold.Hold{ID: 5}}
	stale := &user.User{ID: 11, Plan: user.PlanEnterprise, Balance: d("0.00")}
	fresh := &user.User{ID: 11, Plan: user.PlanEnterprise, Balance: d("500.00"), HeldAmount: d("1.00")}
	capture := func(id string) *batchOp {
		return &batchOp{kind: batchCapture, month: "2026-11", hold: lh, charge: d("0.50"),
			hit: &hitlog.Hit{UserID: 11, RequestID: id, Status: hitlog.StatusSuccess, Reserved: d("0.50"), ChargeAmount: d("0.50")}}
	}
	cases := []struct {
		name  string
		ops   []*batchOp
		check func(t *testing.T, p *batchPlan)
	}{
		{"captures", []*batchOp{capture("c1"), capture("c2"), capture("c3")}, func(t *testing.T, p *batchPlan) {
			if len(p.uncharged) != 0 || len(p.entries) != 3 {
				t.Fatalf("uncharged %v, %d entries", p.uncharged, len(p.entries))
			}
			for i, r := range p.results {
				if !r.hit.ChargeAmount.Equal(d("0.50")) || !r.hit.Reserved.Equal(d("0.50")) || r.hit.Uncharged != "" {
					t.Errorf("capture %d: %+v", i, r.hit)
				}
			}
			if !p.users[11].Balance.Equal(d("498.50")) || !p.users[11].HeldAmount.IsZero() || !p.holdUses[0].money.Equal(d("1.50")) {
				t.Errorf("balance %s held %s hold use %+v", p.users[11].Balance, p.users[11].HeldAmount, p.holdUses)
			}
		}},
		{"reservations", []*batchOp{reservation("r1", "0.50"), reservation("r2", "0.50")}, func(t *testing.T, p *batchPlan) {
			for i, r := range p.results {
				if r.err != nil || r.hit.Status != hitlog.StatusPending || r.hit.ResponsePayload != nil || !r.hit.Reserved.Equal(d("0.50")) {
					t.Errorf("reservation %d: err %v, hit %+v", i, r.err, r.hit)
				}
			}
			if !p.results[1].balance.Equal(d("499.00")) {
				t.Errorf("balance after %s", p.results[1].balance)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			granted := map[keyDay]int{{3, "2026-11-21"}: 10}
			first, err := planBatch(c.ops, map[uint64]*user.User{11: stale}, granted, planNow)
			if err != nil {
				t.Fatal(err)
			}
			if len(first.entries) != 0 {
				t.Fatalf("the stale plan charged %d entries", len(first.entries))
			}
			again, err := planBatch(c.ops, map[uint64]*user.User{11: fresh}, granted, planNow)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, again)
			if granted[keyDay{3, "2026-11-21"}] != 10 || !fresh.Balance.Equal(d("500.00")) || !stale.Balance.IsZero() {
				t.Errorf("the plans changed their inputs: granted %v, balances %s %s", granted, fresh.Balance, stale.Balance)
			}
		})
	}
}
