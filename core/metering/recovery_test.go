package metering_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
)

// pendingHit is a hit whose call started long ago and never settled.
func (f *fixture) pendingHit(id uint64, reserved string) hitlog.Hit {
	return hitlog.Hit{ID: id, UserID: 11, ServiceID: 7, APIKeyID: 3, RequestID: "req_OLD" + string(rune('A'+id%26)),
		Status: hitlog.StatusPending, Reserved: dec(reserved), ChargeAmount: decimal.Zero, CostAmount: decimal.Zero,
		CreatedAt: f.now.Add(-10 * time.Minute)}
}

// hit is the stored hit id.
func hit(t *testing.T, f *fixture, id uint64) hitlog.Hit {
	t.Helper()
	for _, h := range f.db.Hits() {
		if h.ID == id {
			return h
		}
	}
	t.Fatalf("no hit %d", id)
	return hitlog.Hit{}
}

func TestRecoverPendingHitsRefundsInterruptedCalls(t *testing.T) {
	f := newFixture(t)
	f.user.PlanMonth, f.user.PlanCalls = "2026-11", 5
	f.save()
	// The cut-off is the default grace: upstream timeout (15 s) + 1 minute.
	recent := f.pendingHit(42, "1.00")
	recent.CreatedAt = f.now.Add(-74 * time.Second)
	f.db.Put(f.pendingHit(41, "1.25"), recent)

	n, err := f.app.RecoverPendingHits(context.Background(), 50)
	if err != nil || n != 1 {
		t.Fatalf("RecoverPendingHits = %d, %v; want 1 hit settled", n, err)
	}
	h := hit(t, f, 41)
	if h.Status != hitlog.StatusFailed || !h.ChargeAmount.IsZero() || !h.CostAmount.IsZero() ||
		h.ResponsePayload == nil || !strings.Contains(*h.ResponsePayload, `"error":"interrupted"`) {
		t.Fatalf("hit %+v", h)
	}
	if h := hit(t, f, 42); h.Status != hitlog.StatusPending {
		t.Fatalf("a call within the grace was settled: %+v", h)
	}
	es := f.db.Entries()
	if len(es) != 1 {
		t.Fatalf("ledger %+v, want one refund", es)
	}
	checkEntry(t, es[0], ledger.Refund, "1.25", "10.00", "11.25", 41)
	// The refunded call no longer counts against the monthly plan.
	if u := f.stored(); !u.Balance.Equal(dec("11.25")) || !u.TotalSpent.IsZero() || u.PlanCalls != 4 {
		t.Fatalf("user %+v", u)
	}
}

// A hit settled meanwhile (by its own call, or by another instance's
// recovery) is left alone: no refund, no balance write.
func TestRecoverPendingHitsSkipsHitsSettledMeanwhile(t *testing.T) {
	f := newFixture(t)
	f.user.PlanMonth, f.user.PlanCalls = "2026-11", 5
	f.save()
	f.db.Put(f.pendingHit(41, "1.25"))
	var settled bool
	f.db.OnCall("Hits.FinishMany", func() error {
		if !settled { // its own call settles it first
			settled = true
			h := hit(t, f, 41)
			h.Status, h.ChargeAmount = hitlog.StatusSuccess, dec("1.25")
			f.db.Put(h)
		}
		return nil
	})

	n, err := f.app.RecoverPendingHits(context.Background(), 10)
	if err != nil || n != 0 {
		t.Fatalf("RecoverPendingHits = %d, %v; want 0 and no error", n, err)
	}
	if es := f.db.Entries(); len(es) != 0 {
		t.Fatalf("ledger %+v, want no refund", es)
	}
	if u := f.stored(); !u.Balance.Equal(dec("10.00")) || u.PlanCalls != 5 {
		t.Fatalf("user %+v, want it untouched", u)
	}
	if h := hit(t, f, 41); h.Status != hitlog.StatusSuccess {
		t.Fatalf("hit %+v, want its own outcome", h)
	}
}

// A free call (nothing reserved) is marked failed without a ledger row; a
// hit whose settlement fails does not keep the next one from being settled,
// and the round reports the failure.
func TestRecoverPendingHitsGoesOnAfterAFailure(t *testing.T) {
	f := newFixture(t)
	f.db.Put(f.pendingHit(41, "1.00"), f.pendingHit(42, "0"))
	// Both of the writer's attempts at hit 41's refund fail.
	f.db.Fail("Users.LockByID", errors.New("connection lost"), errors.New("connection lost"))

	n, err := f.app.RecoverPendingHits(context.Background(), 10)
	if n != 1 || err == nil || !strings.Contains(err.Error(), "connection lost") {
		t.Fatalf("RecoverPendingHits = %d, %v; want 1 settled and hit 41's error", n, err)
	}
	if h := hit(t, f, 41); h.Status != hitlog.StatusPending {
		t.Fatalf("hit 41 %+v, want it pending for the next round", h)
	}
	if h := hit(t, f, 42); h.Status != hitlog.StatusFailed {
		t.Fatalf("hit 42 %+v, want failed", h)
	}
	if es := f.db.Entries(); len(es) != 0 {
		t.Fatalf("ledger %+v, want none", es)
	}
	if u := f.stored(); !u.Balance.Equal(dec("10.00")) {
		t.Fatalf("balance %s", u.Balance)
	}
}
