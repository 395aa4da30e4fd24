package storetest

import (
	"context"
	"slices"
	"time"

	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
)

// Refunds of payments. LockByID of a payment is a plain read: the fake's
// transactions already run one at a time.

func (r paymentsRepo) LockByID(_ context.Context, id uint64) (*payment.Payment, error) {
	return r.get("Payments.LockByID", func(p payment.Payment) bool { return p.ID == id })
}

func (r paymentsRepo) SaveRefunded(_ context.Context, p *payment.Payment) error {
	return r.d.do("Payments.SaveRefunded", func(t *tables) error {
		row, ok := t.payments[p.ID]
		if !ok {
			return payment.ErrNotFound
		}
		row.Refunded = p.Refunded
		t.payments[p.ID] = row
		return nil
	})
}

// refundsRepo: Finish and Claim are conditional updates that report
// whether they wrote.
type refundsRepo struct{ d *DB }

var _ payment.RefundRepository = refundsRepo{}

func (r refundsRepo) Create(_ context.Context, f *payment.Refund) error {
	return r.d.do("Refunds.Create", func(t *tables) error {
		f.ID = t.id("refunds", 0)
		t.refunds[f.ID] = *f
		return nil
	})
}

func (r refundsRepo) ByID(_ context.Context, id uint64) (*payment.Refund, error) {
	var out *payment.Refund
	err := r.d.do("Refunds.ByID", func(t *tables) error {
		f, ok := t.refunds[id]
		if !ok {
			return payment.ErrRefundNotFound
		}
		out = &f
		return nil
	})
	return out, err
}

func (r refundsRepo) ByPayment(_ context.Context, paymentID uint64) ([]payment.Refund, error) {
	return r.filter("Refunds.ByPayment", func(f payment.Refund) bool { return f.PaymentID == paymentID })
}

func (r refundsRepo) filter(method string, keep func(payment.Refund) bool) ([]payment.Refund, error) {
	var out []payment.Refund
	err := r.d.do(method, func(t *tables) error {
		for _, f := range sorted(t.refunds) {
			if keep(f) {
				out = append(out, f)
			}
		}
		return nil
	})
	return out, err
}

func (r refundsRepo) Finish(_ context.Context, f *payment.Refund) (bool, error) {
	var done bool
	err := r.d.do("Refunds.Finish", func(t *tables) error {
		row, ok := t.refunds[f.ID]
		if !ok || row.Status != payment.RefundPending {
			return nil
		}
		row.Status, row.ProviderRef, row.FailReason, row.CompletedAt, row.UpdatedAt = f.Status, f.ProviderRef, f.FailReason, f.CompletedAt, f.UpdatedAt
		t.refunds[f.ID], done = row, true
		return nil
	})
	return done, err
}

func (r refundsRepo) Due(_ context.Context, now time.Time, limit int) ([]payment.Refund, error) {
	all, err := r.filter("Refunds.Due", func(f payment.Refund) bool {
		return f.Status == payment.RefundPending && !f.NextCheckAt.After(now)
	})
	slices.SortStableFunc(all, func(a, b payment.Refund) int { return a.NextCheckAt.Compare(b.NextCheckAt) })
	return all[:min(len(all), limit)], err
}

func (r refundsRepo) Claim(_ context.Context, old, next *payment.Refund, now time.Time) (bool, error) {
	var done bool
	err := r.d.do("Refunds.Claim", func(t *tables) error {
		row, ok := t.refunds[old.ID]
		if !ok || row.Status != payment.RefundPending || row.Attempts != old.Attempts || row.NextCheckAt.After(now) {
			return nil
		}
		row.Attempts, row.NextCheckAt, row.UpdatedAt = next.Attempts, next.NextCheckAt, next.UpdatedAt
		t.refunds[old.ID], done = row, true
		return nil
	})
	return done, err
}

func (r refundsRepo) ForEachByUser(_ context.Context, userID uint64, fn func(payment.Refund) error) error {
	list, err := r.filter("Refunds.ForEachByUser", func(f payment.Refund) bool { return f.UserID == userID })
	if err != nil {
		return err
	}
	for _, f := range list {
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// refundKeysRepo: one live row per (user, key), as idempotencyRepo.
type refundKeysRepo struct{ d *DB }

var _ payment.RefundKeys = refundKeysRepo{}

func (r refundKeysRepo) Claim(_ context.Context, k *payment.RefundKey, now time.Time) error {
	return r.d.do("RefundKeys.Claim", func(t *tables) error {
		for i, o := range t.refundKeys {
			if o.UserID == k.UserID && o.Key == k.Key {
				if o.ExpiresAt.After(now) {
					return errs.ErrConflict
				}
				t.refundKeys = slices.Delete(t.refundKeys, i, i+1)
				break
			}
		}
		t.refundKeys = append(t.refundKeys, *k)
		return nil
	})
}

func (r refundKeysRepo) Find(_ context.Context, userID uint64, key string, now time.Time) (*payment.RefundKey, error) {
	var out *payment.RefundKey
	err := r.d.do("RefundKeys.Find", func(t *tables) error {
		for _, o := range t.refundKeys {
			if o.UserID == userID && o.Key == key && o.ExpiresAt.After(now) {
				out = &o
				return nil
			}
		}
		return errs.ErrNotFound
	})
	return out, err
}

// Refunds are every refund, in id order.
func (d *DB) Refunds() []payment.Refund {
	return read(d, func(t *tables) []payment.Refund { return sorted(t.refunds) })
}
