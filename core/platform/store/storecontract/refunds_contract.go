package storecontract

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"paygate/core/gateway/payment"
	"paygate/core/platform/store"
)

// refundsContract: a refund ends once (from pending), the worker's claim
// needs the attempts and due time it saw, the worker finds due refunds
// soonest first, and a payment's refunded total changes under its row lock
// (two refunds at once never pass the amount).
func refundsContract(t *testing.T, c *contract) {
	ctx, refunds := c.ctx, c.s.Refunds
	read := func(t *testing.T, id uint64) *payment.Refund {
		t.Helper()
		r, err := refunds.ByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ids := func(rs []payment.Refund) []uint64 {
		out := []uint64{}
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}

	t.Run("Finish ends a pending refund once", func(t *testing.T) {
		r := c.refund(t, c.s, c.payment(t, c.s, c.user(t), payment.StatusSuccess), "40.00")
		done, ref := at.Add(time.Minute), "rref-1"
		processed := *r
		processed.Status, processed.ProviderRef, processed.CompletedAt, processed.UpdatedAt = payment.RefundProcessed, &ref, &done, done
		if ok, err := refunds.Finish(ctx, &processed); !ok || err != nil {
			t.Fatalf("Finish: %v, %v", ok, err)
		}
		reason := "too late"
		failed := *r
		failed.Status, failed.FailReason, failed.CompletedAt, failed.UpdatedAt = payment.RefundFailed, &reason, &done, done
		if ok, err := refunds.Finish(ctx, &failed); ok || err != nil {
			t.Fatalf("a second Finish: %v, %v; want false", ok, err)
		}
		got := read(t, r.ID)
		if got.Status != payment.RefundProcessed || got.ProviderRef == nil || *got.ProviderRef != ref || got.FailReason != nil ||
			got.CompletedAt == nil || !got.CompletedAt.Equal(done) || !got.Amount.Equal(dec("40.00")) {
			t.Fatalf("the refund: %+v", got)
		}
	})

	t.Run("Claim needs the attempts and due time the worker saw", func(t *testing.T) {
		now := at.Add(48 * time.Hour) // the refund is due
		r := c.refund(t, c.s, c.payment(t, c.s, c.user(t), payment.StatusSuccess), "10.00")
		next := *r
		next.Attempts, next.NextCheckAt, next.UpdatedAt = 1, now.Add(time.Minute), now
		if ok, err := refunds.Claim(ctx, r, &next, at); ok || err != nil {
			t.Fatalf("a claim before it is due: %v, %v", ok, err)
		}
		if ok, err := refunds.Claim(ctx, r, &next, now); !ok || err != nil {
			t.Fatalf("Claim: %v, %v", ok, err)
		}
		if ok, err := refunds.Claim(ctx, r, &next, now.Add(time.Hour)); ok || err != nil {
			t.Fatalf("a claim from the attempts before it: %v, %v; want false", ok, err)
		}
		if got := read(t, r.ID); got.Attempts != 1 || !got.NextCheckAt.Equal(now.Add(time.Minute)) || got.Status != payment.RefundPending {
			t.Fatalf("after the claim: %+v", got)
		}
	})

	t.Run("Due: pending, due by now, soonest first", func(t *testing.T) {
		p := c.payment(t, c.s, c.user(t), payment.StatusSuccess)
		now := at.Add(-time.Hour)
		due := func(in time.Duration) *payment.Refund {
			return c.refund(t, c.s, p, "1.00", func(r *payment.Refund) { r.NextCheckAt = now.Add(in) })
		}
		m1, m3, zero := due(-time.Minute), due(-3*time.Minute), due(0)
		later := due(time.Minute)
		ended := due(-2 * time.Minute)
		failed := *ended
		failed.Status = payment.RefundFailed
		if ok, err := refunds.Finish(ctx, &failed); !ok || err != nil {
			t.Fatal(ok, err)
		}
		got, err := refunds.Due(ctx, now, 10)
		if want := []uint64{m3.ID, m1.ID, zero.ID}; err != nil || !slices.Equal(ids(got), want) {
			t.Fatalf("Due: %v, %v; want %v", ids(got), err, want)
		}
		if got, err = refunds.Due(ctx, now, 1); err != nil || !slices.Equal(ids(got), []uint64{m3.ID}) {
			t.Fatalf("Due up to 1: %v, %v", ids(got), err)
		}
		byPayment, err := refunds.ByPayment(ctx, p.ID)
		if want := []uint64{m1.ID, m3.ID, zero.ID, later.ID, ended.ID}; err != nil || !slices.Equal(ids(byPayment), want) {
			t.Fatalf("ByPayment: %v, %v; want %v (oldest first)", ids(byPayment), err, want)
		}
	})

	t.Run("not found", func(t *testing.T) {
		if _, err := refunds.ByID(ctx, 987654); !errors.Is(err, payment.ErrRefundNotFound) {
			t.Fatalf("ByID: %v", err)
		}
		if got, err := refunds.ByPayment(ctx, 987654); err != nil || len(got) != 0 {
			t.Fatalf("ByPayment of nothing: %v, %v", got, err)
		}
	})

	t.Run("the refunded total changes under the payment's lock", func(t *testing.T) {
		// Two refunds of 60 of a payment of 100: the second waits for the
		// first's lock, reads 60 refunded and is refused.
		p := c.payment(t, c.s, c.user(t), payment.StatusSuccess)
		refund := func(ctx context.Context, s store.Stores, held func()) error {
			locked, err := s.Payments.LockByID(ctx, p.ID)
			if err != nil {
				return err
			}
			held()
			if err := locked.CheckRefund(dec("60.00")); err != nil {
				return err
			}
			c.refund(t, s, locked, "60.00")
			locked.Refunded = locked.Refunded.Add(dec("60.00"))
			return s.Payments.SaveRefunded(ctx, locked)
		}
		first, second := c.whileLocked(t, refund)
		if first != nil || second == nil {
			t.Fatalf("first refund %v, second %v; want the second refused", first, second)
		}
		got, err := c.s.Payments.ByID(ctx, p.ID)
		if err != nil || !got.Refunded.Equal(dec("60.00")) {
			t.Fatalf("refunded %v, %v; want 60.00", got.Refunded, err)
		}
		if rs, _ := refunds.ByPayment(ctx, p.ID); len(rs) != 1 {
			t.Fatalf("%d refunds, want 1", len(rs))
		}
	})
}
