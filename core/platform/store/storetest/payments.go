package storetest

import (
	"context"
	"slices"
	"time"

	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
)

// paymentsRepo: Transition moves a payment only from the state it names.
type paymentsRepo struct{ d *DB }

var _ payment.Repository = paymentsRepo{}

func (r paymentsRepo) Create(_ context.Context, p *payment.Payment) error {
	return r.d.do("Payments.Create", func(t *tables) error {
		p.ID = t.id("payments", 0)
		t.payments[p.ID] = *p
		return nil
	})
}

func (r paymentsRepo) get(method string, match func(payment.Payment) bool) (*payment.Payment, error) {
	var out *payment.Payment
	err := r.d.do(method, func(t *tables) error {
		for _, p := range sorted(t.payments) {
			if match(p) {
				out = &p
				return nil
			}
		}
		return payment.ErrNotFound
	})
	return out, err
}

func (r paymentsRepo) ByPublicID(_ context.Context, publicID string) (*payment.Payment, error) {
	return r.get("Payments.ByPublicID", func(p payment.Payment) bool { return p.PublicID == publicID })
}

func (r paymentsRepo) ByID(_ context.Context, id uint64) (*payment.Payment, error) {
	return r.get("Payments.ByID", func(p payment.Payment) bool { return p.ID == id })
}

func (r paymentsRepo) Transition(_ context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	var moved bool
	err := r.d.do("Payments.Transition", func(t *tables) error {
		row, ok := t.payments[p.ID]
		if !ok || row.Status != from {
			return nil
		}
		row.Status, row.ProviderRef, row.CompletedAt, row.UpdatedAt, row.Fee = p.Status, p.ProviderRef, p.CompletedAt, p.UpdatedAt, p.Fee
		t.payments[p.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r paymentsRepo) SubmitUTR(_ context.Context, p *payment.Payment, from payment.Status, prev *string) (bool, error) {
	var moved bool
	err := r.d.do("Payments.SubmitUTR", func(t *tables) error {
		row, ok := t.payments[p.ID]
		if !ok || row.Status != from || (row.UTR == nil) != (prev == nil) || (prev != nil && *row.UTR != *prev) {
			return nil
		}
		for id, o := range t.payments {
			if id != p.ID && o.UTR != nil && p.UTR != nil && *o.UTR == *p.UTR {
				return payment.ErrUTRTaken
			}
		}
		row.Status, row.UTR, row.ExpiresAt, row.UpdatedAt = p.Status, p.UTR, p.ExpiresAt, p.UpdatedAt
		t.payments[p.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r paymentsRepo) HoldCredit(_ context.Context, p *payment.Payment, from payment.Status) (bool, error) {
	var moved bool
	err := r.d.do("Payments.HoldCredit", func(t *tables) error {
		row, ok := t.payments[p.ID]
		if !ok || row.Status != from {
			return nil
		}
		row.Status, row.CreditHeldAt, row.UpdatedAt = p.Status, p.CreditHeldAt, p.UpdatedAt
		t.payments[p.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r paymentsRepo) Expirable(_ context.Context, now time.Time, limit int) ([]payment.Payment, error) {
	var out []payment.Payment
	err := r.d.do("Payments.Expirable", func(t *tables) error {
		all := sorted(t.payments)
		slices.SortStableFunc(all, func(a, b payment.Payment) int { return a.ExpiresAt.Compare(b.ExpiresAt) })
		for _, p := range all {
			open := p.Status == payment.StatusCreated || p.Status == payment.StatusPending
			if open && p.CreditHeldAt == nil && !p.ExpiresAt.After(now) && len(out) < limit {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

func (r paymentsRepo) List(context.Context, payment.Filter) ([]payment.Payment, int64, error) {
	notImplemented("Payments.List")
	return nil, 0, nil
}

func (r paymentsRepo) ForEachByUser(_ context.Context, userID uint64, fn func(payment.Payment) error) error {
	var list []payment.Payment
	if err := r.d.do("Payments.ForEachByUser", func(t *tables) error {
		for _, p := range sorted(t.payments) {
			if p.UserID == userID {
				list = append(list, p)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, p := range list {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// idempotencyRepo: one live row per (user, key); an expired one gives way
// to a new claim.
type idempotencyRepo struct{ d *DB }

var _ payment.IdempotencyKeys = idempotencyRepo{}

func (r idempotencyRepo) Claim(_ context.Context, k *payment.IdempotencyKey, now time.Time) error {
	return r.d.do("Idempotency.Claim", func(t *tables) error {
		for i, o := range t.idempotency {
			if o.UserID == k.UserID && o.Key == k.Key {
				if o.ExpiresAt.After(now) {
					return errs.ErrConflict
				}
				t.idempotency = slices.Delete(t.idempotency, i, i+1)
				break
			}
		}
		t.idempotency = append(t.idempotency, *k)
		return nil
	})
}

func (r idempotencyRepo) Find(_ context.Context, userID uint64, key string, now time.Time) (*payment.IdempotencyKey, error) {
	var out *payment.IdempotencyKey
	err := r.d.do("Idempotency.Find", func(t *tables) error {
		for _, o := range t.idempotency {
			if o.UserID == userID && o.Key == key && o.ExpiresAt.After(now) {
				out = &o
				return nil
			}
		}
		return errs.ErrNotFound
	})
	return out, err
}
