package storetest

import (
	"context"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payout"
	"paygate/core/platform/errs"
)

// payoutsRepo: Move and Claim are conditional updates that report whether
// they wrote.
type payoutsRepo struct{ d *DB }

var _ payout.Repository = payoutsRepo{}

func (r payoutsRepo) Create(_ context.Context, p *payout.Payout) error {
	return r.d.do("Payouts.Create", func(t *tables) error {
		for _, o := range t.payouts {
			if o.UserID == p.UserID && o.ReferenceID == p.ReferenceID {
				return payout.ErrReferenceReused.Wrap(errs.ErrConflict)
			}
		}
		p.ID = t.id("payouts", 0)
		t.payouts[p.ID] = *p
		return nil
	})
}

func (r payoutsRepo) get(method string, match func(payout.Payout) bool) (*payout.Payout, error) {
	var out *payout.Payout
	err := r.d.do(method, func(t *tables) error {
		for _, p := range sorted(t.payouts) {
			if match(p) {
				out = &p
				return nil
			}
		}
		return payout.ErrNotFound
	})
	return out, err
}

func (r payoutsRepo) ByReference(_ context.Context, userID uint64, referenceID string) (*payout.Payout, error) {
	return r.get("Payouts.ByReference", func(p payout.Payout) bool { return p.UserID == userID && p.ReferenceID == referenceID })
}

func (r payoutsRepo) ByPublicID(_ context.Context, publicID string) (*payout.Payout, error) {
	return r.get("Payouts.ByPublicID", func(p payout.Payout) bool { return p.PublicID == publicID })
}

func (r payoutsRepo) ByID(_ context.Context, id uint64) (*payout.Payout, error) {
	return r.get("Payouts.ByID", func(p payout.Payout) bool { return p.ID == id })
}

func (r payoutsRepo) Move(_ context.Context, next *payout.Payout, from payout.Status) (bool, error) {
	var moved bool
	err := r.d.do("Payouts.Move", func(t *tables) error {
		row, ok := t.payouts[next.ID]
		if !ok || row.Status != from {
			return nil
		}
		row.Status, row.UTR, row.FailReason, row.ProcessedAt, row.ReversedAt = next.Status, next.UTR, next.FailReason, next.ProcessedAt, next.ReversedAt
		row.SubmittedAt, row.NextCheckAt, row.UpdatedAt = next.SubmittedAt, next.NextCheckAt, next.UpdatedAt
		t.payouts[next.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r payoutsRepo) Due(_ context.Context, now time.Time, limit int) ([]payout.Payout, error) {
	var out []payout.Payout
	err := r.d.do("Payouts.Due", func(t *tables) error {
		all := sorted(t.payouts)
		slices.SortStableFunc(all, func(a, b payout.Payout) int {
			if a.NextCheckAt == nil || b.NextCheckAt == nil {
				return 0
			}
			return a.NextCheckAt.Compare(*b.NextCheckAt)
		})
		for _, p := range all {
			if p.NextCheckAt != nil && !p.NextCheckAt.After(now) && len(out) < limit {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

func (r payoutsRepo) Claim(_ context.Context, old, next *payout.Payout, now time.Time) (bool, error) {
	var won bool
	err := r.d.do("Payouts.Claim", func(t *tables) error {
		row, ok := t.payouts[old.ID]
		if !ok || row.Status != old.Status || row.Attempts != old.Attempts || row.NextCheckAt == nil || row.NextCheckAt.After(now) ||
			(row.SubmittedAt == nil) != (old.SubmittedAt == nil) {
			return nil
		}
		row.Attempts, row.NextCheckAt, row.UpdatedAt = next.Attempts, next.NextCheckAt, next.UpdatedAt
		t.payouts[old.ID], won = row, true
		return nil
	})
	return won, err
}

func (r payoutsRepo) counted(method string, match func(payout.Payout) bool) (map[uint64]decimal.Decimal, error) {
	out := map[uint64]decimal.Decimal{}
	err := r.d.do(method, func(t *tables) error {
		for _, p := range t.payouts {
			if p.Status.Counted() && match(p) {
				out[p.UserID] = out[p.UserID].Add(p.Amount)
			}
		}
		return nil
	})
	return out, err
}

func (r payoutsRepo) CountedSince(_ context.Context, userID uint64, since time.Time) (decimal.Decimal, error) {
	m, err := r.counted("Payouts.CountedSince", func(p payout.Payout) bool { return p.UserID == userID && !p.CreatedAt.Before(since) })
	return m[userID], err
}

func (r payoutsRepo) CountedSinceByUser(_ context.Context, since time.Time) (map[uint64]decimal.Decimal, error) {
	return r.counted("Payouts.CountedSinceByUser", func(p payout.Payout) bool { return !p.CreatedAt.Before(since) })
}

func (r payoutsRepo) CountedSinceWithCustomers(_ context.Context, resellerID uint64, since time.Time) (decimal.Decimal, error) {
	sum := decimal.Zero
	err := r.d.do("Payouts.CountedSinceWithCustomers", func(t *tables) error {
		for _, p := range t.payouts {
			u := t.users[p.UserID]
			ours := p.UserID == resellerID || (u.ParentID != nil && *u.ParentID == resellerID)
			if ours && p.Status.Counted() && !p.CreatedAt.Before(since) {
				sum = sum.Add(p.Amount)
			}
		}
		return nil
	})
	return sum, err
}

func (r payoutsRepo) List(context.Context, payout.Filter) ([]payout.Payout, int64, error) {
	notImplemented("Payouts.List")
	return nil, 0, nil
}

func (r payoutsRepo) ForEach(context.Context, payout.Filter, func(payout.Payout) error) error {
	notImplemented("Payouts.ForEach")
	return nil
}

func (r payoutsRepo) ForEachByUser(_ context.Context, userID uint64, fn func(payout.Payout) error) error {
	var rows []payout.Payout
	if err := r.d.do("Payouts.ForEachByUser", func(t *tables) error {
		for _, p := range sorted(t.payouts) {
			if p.UserID == userID {
				rows = append(rows, p)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, p := range rows {
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}
