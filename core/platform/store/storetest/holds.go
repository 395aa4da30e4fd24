package storetest

import (
	"context"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/metering/hold"
)

// holdsRepo: a released hold is deleted; Delete reports whether this call
// deleted it.
type holdsRepo struct{ d *DB }

var _ hold.Repository = holdsRepo{}

func (r holdsRepo) Insert(_ context.Context, h *hold.Hold) error {
	return r.d.do("Holds.Insert", func(t *tables) error {
		h.ID = t.id("holds", h.ID)
		t.holds[h.ID] = *h
		return nil
	})
}

func (r holdsRepo) Get(_ context.Context, id uint64) (hold.Hold, bool, error) {
	var h hold.Hold
	var found bool
	err := r.d.do("Holds.Get", func(t *tables) error {
		h, found = t.holds[id]
		return nil
	})
	return h, found, err
}

func (r holdsRepo) Use(_ context.Context, id uint64, calls int, money decimal.Decimal) error {
	return r.d.do("Holds.Use", func(t *tables) error {
		if h, ok := t.holds[id]; ok {
			h.UsedCalls += calls
			h.UsedMoney = h.UsedMoney.Add(money)
			t.holds[id] = h
		}
		return nil
	})
}

func (r holdsRepo) Delete(_ context.Context, id uint64) (bool, error) {
	var found bool
	err := r.d.do("Holds.Delete", func(t *tables) error {
		_, found = t.holds[id]
		delete(t.holds, id)
		return nil
	})
	return found, err
}

func (r holdsRepo) Expired(_ context.Context, cutoff time.Time, limit int) ([]hold.Hold, error) {
	var out []hold.Hold
	err := r.d.do("Holds.Expired", func(t *tables) error {
		all := sorted(t.holds)
		slices.SortStableFunc(all, func(a, b hold.Hold) int { return a.ExpiresAt.Compare(b.ExpiresAt) })
		for _, h := range all {
			if h.ExpiresAt.Before(cutoff) && len(out) < limit {
				out = append(out, h)
			}
		}
		return nil
	})
	return out, err
}

func (r holdsRepo) ByUser(_ context.Context, userID uint64) ([]hold.Hold, error) {
	var out []hold.Hold
	err := r.d.do("Holds.ByUser", func(t *tables) error {
		for _, h := range sorted(t.holds) {
			if h.UserID == userID {
				out = append(out, h)
			}
		}
		return nil
	})
	return out, err
}
