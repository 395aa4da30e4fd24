package storetest

import (
	"context"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/catalog/pricing"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
	"paygate/core/resale/settlement"
)

// customerPricesRepo: selling prices keyed by (reseller, service), default
// markups by reseller.
type customerPricesRepo struct{ d *DB }

var _ pricing.CustomerPrices = customerPricesRepo{}

type sellingKey struct{ reseller, service uint64 }

func (r customerPricesRepo) Selling(_ context.Context, resellerID, serviceID uint64) (pricing.Selling, error) {
	var out pricing.Selling
	err := r.d.do("CustomerPrices.Selling", func(t *tables) error {
		if p, ok := t.customerPrices[sellingKey{resellerID, serviceID}]; ok {
			v := p.Price
			out.Price = &v
		}
		if m, ok := t.markups[resellerID]; ok {
			out.Markup = &m
		}
		return nil
	})
	return out, err
}

func (r customerPricesRepo) ListByReseller(_ context.Context, resellerID uint64) ([]pricing.CustomerPrice, error) {
	var out []pricing.CustomerPrice
	err := r.d.do("CustomerPrices.ListByReseller", func(t *tables) error {
		for k, p := range t.customerPrices {
			if k.reseller == resellerID {
				out = append(out, p)
			}
		}
		slices.SortFunc(out, func(a, b pricing.CustomerPrice) int { return int(a.ServiceID) - int(b.ServiceID) })
		return nil
	})
	return out, err
}

func (r customerPricesRepo) Set(_ context.Context, p *pricing.CustomerPrice) error {
	return r.d.do("CustomerPrices.Set", func(t *tables) error {
		k := sellingKey{p.ResellerID, p.ServiceID}
		if old, ok := t.customerPrices[k]; ok {
			p.ID, p.CreatedAt = old.ID, old.CreatedAt
		} else {
			p.ID = t.id("customer_prices", 0)
			if p.CreatedAt.IsZero() {
				p.CreatedAt = p.UpdatedAt
			}
		}
		t.customerPrices[k] = *p
		return nil
	})
}

func (r customerPricesRepo) Delete(_ context.Context, resellerID, serviceID uint64) error {
	return r.d.do("CustomerPrices.Delete", func(t *tables) error {
		k := sellingKey{resellerID, serviceID}
		if _, ok := t.customerPrices[k]; !ok {
			return pricing.ErrCustomerPriceNotFound
		}
		delete(t.customerPrices, k)
		return nil
	})
}

func (r customerPricesRepo) Markup(_ context.Context, resellerID uint64) (*decimal.Decimal, error) {
	var out *decimal.Decimal
	err := r.d.do("CustomerPrices.Markup", func(t *tables) error {
		if m, ok := t.markups[resellerID]; ok {
			out = &m
		}
		return nil
	})
	return out, err
}

func (r customerPricesRepo) SetMarkup(_ context.Context, resellerID uint64, markup *decimal.Decimal, _ time.Time) error {
	return r.d.do("CustomerPrices.SetMarkup", func(t *tables) error {
		if markup == nil {
			delete(t.markups, resellerID)
		} else {
			t.markups[resellerID] = *markup
		}
		return nil
	})
}

// commissionsRepo: settlements by id, summing the hits table.
type commissionsRepo struct{ d *DB }

var _ settlement.Settlements = commissionsRepo{}

func (r commissionsRepo) Resellers(context.Context) ([]uint64, error) {
	var out []uint64
	err := r.d.do("Commissions.Resellers", func(t *tables) error {
		for _, u := range t.users {
			if u.ParentID != nil && !slices.Contains(out, *u.ParentID) {
				out = append(out, *u.ParentID)
			}
		}
		for _, st := range t.settlements {
			if st.Due().IsPositive() && !slices.Contains(out, st.ResellerID) {
				out = append(out, st.ResellerID)
			}
		}
		slices.Sort(out)
		return nil
	})
	return out, err
}

func (r commissionsRepo) NextHitAt(_ context.Context, resellerID uint64, from, before time.Time) (*time.Time, error) {
	var out *time.Time
	err := r.d.do("Commissions.NextHitAt", func(t *tables) error {
		for _, h := range t.hits {
			if h.ResellerID != nil && *h.ResellerID == resellerID && !h.CreatedAt.Before(from) && h.CreatedAt.Before(before) &&
				(out == nil || h.CreatedAt.Before(*out)) {
				at := h.CreatedAt
				out = &at
			}
		}
		return nil
	})
	return out, err
}

func (r commissionsRepo) Accrued(_ context.Context, resellerID uint64, from, to time.Time) (settlement.Accrual, error) {
	a := settlement.Accrual{Amount: decimal.Zero}
	err := r.d.do("Commissions.Accrued", func(t *tables) error {
		for _, h := range t.hits {
			if h.ResellerID == nil || *h.ResellerID != resellerID || h.CreatedAt.Before(from) || !h.CreatedAt.Before(to) {
				continue
			}
			switch {
			case h.Status == hitlog.StatusSuccess && h.CommissionSettlementID == nil:
				a.Hits++
				a.Amount = a.Amount.Add(h.Commission)
			case h.Status == hitlog.StatusPending:
				a.Pending++
			}
		}
		for _, h := range t.holds {
			if u, ok := t.users[h.UserID]; ok && u.ParentID != nil && *u.ParentID == resellerID && h.CreatedAt.Before(to) {
				a.Pending++
			}
		}
		return nil
	})
	return a, err
}

func (r commissionsRepo) Insert(_ context.Context, s *settlement.Settlement) error {
	return r.d.do("Commissions.Insert", func(t *tables) error {
		for _, o := range t.settlements {
			if o.ResellerID == s.ResellerID && o.HourStart.Equal(s.HourStart) {
				return settlement.ErrAlreadySettled
			}
		}
		s.ID = t.id("settlements", s.ID)
		t.settlements[s.ID] = *s
		return nil
	})
}

func (r commissionsRepo) SetCredit(_ context.Context, s *settlement.Settlement) error {
	return r.d.do("Commissions.SetCredit", func(t *tables) error {
		o, ok := t.settlements[s.ID]
		if ok {
			o.Hits, o.Amount, o.TransactionID = s.Hits, s.Amount, s.TransactionID
			t.settlements[s.ID] = o
		}
		return nil
	})
}

// claimed sums the hits settlement id counted in [from, to).
func claimed(t *tables, id, resellerID uint64, from, to time.Time) settlement.Accrual {
	a := settlement.Accrual{Amount: decimal.Zero}
	for _, h := range t.hits {
		if h.ResellerID != nil && *h.ResellerID == resellerID && !h.CreatedAt.Before(from) && h.CreatedAt.Before(to) &&
			h.CommissionSettlementID != nil && *h.CommissionSettlementID == id {
			a.Hits++
			a.Amount = a.Amount.Add(h.Commission)
		}
	}
	return a
}

func (r commissionsRepo) Claim(_ context.Context, settlementID, resellerID uint64, from, to time.Time) (settlement.Accrual, error) {
	var a settlement.Accrual
	err := r.d.do("Commissions.Claim", func(t *tables) error {
		for id, h := range t.hits {
			if h.ResellerID != nil && *h.ResellerID == resellerID && !h.CreatedAt.Before(from) && h.CreatedAt.Before(to) &&
				h.Status == hitlog.StatusSuccess && h.CommissionSettlementID == nil && !h.Commission.IsZero() {
				sid := settlementID
				h.CommissionSettlementID = &sid
				t.hits[id] = h
			}
		}
		a = claimed(t, settlementID, resellerID, from, to)
		return nil
	})
	return a, err
}

func (r commissionsRepo) Credited(_ context.Context, s settlement.Settlement) (settlement.Accrual, error) {
	var a settlement.Accrual
	err := r.d.do("Commissions.Credited", func(t *tables) error {
		a = claimed(t, s.ID, s.ResellerID, s.HourStart, s.HourStart.Add(time.Hour))
		return nil
	})
	return a, err
}

func (r commissionsRepo) CancelHit(_ context.Context, hitID uint64) (settlement.Cancelled, error) {
	out := settlement.Cancelled{Amount: decimal.Zero}
	err := r.d.do("Commissions.CancelHit", func(t *tables) error {
		h, ok := t.hits[hitID]
		if !ok {
			return errs.ErrNotFound
		}
		if h.ResellerID == nil || h.Commission.IsZero() {
			return nil
		}
		out.Amount, out.ResellerID, out.SettlementID = h.Commission, *h.ResellerID, h.CommissionSettlementID
		h.CommissionCancelled, h.Commission = h.Commission, decimal.Zero
		t.hits[hitID] = h
		if out.SettlementID != nil {
			if st, ok := t.settlements[*out.SettlementID]; ok {
				st.Reversed = st.Reversed.Add(out.Amount)
				t.settlements[st.ID] = st
			}
		}
		return nil
	})
	return out, err
}

func (r commissionsRepo) Owed(_ context.Context, resellerID uint64) ([]settlement.Settlement, error) {
	var out []settlement.Settlement
	err := r.d.do("Commissions.Owed", func(t *tables) error {
		for _, s := range matching(t, settlement.Filter{ResellerID: &resellerID}) {
			if s.Due().IsPositive() {
				out = append(out, s)
			}
		}
		return nil
	})
	return out, err
}

func (r commissionsRepo) TakeReversal(_ context.Context, id uint64, amount decimal.Decimal) error {
	return r.d.do("Commissions.TakeReversal", func(t *tables) error {
		s, ok := t.settlements[id]
		if ok {
			s.ReversalTaken = s.ReversalTaken.Add(amount)
			t.settlements[id] = s
		}
		return nil
	})
}

// matching are the settlements f selects, hour_start then id ascending,
// unpaged.
func matching(t *tables, f settlement.Filter) []settlement.Settlement {
	var out []settlement.Settlement
	for _, s := range sorted(t.settlements) {
		if (f.ResellerID == nil || s.ResellerID == *f.ResellerID) && (f.From == nil || !s.HourStart.Before(*f.From)) &&
			(f.To == nil || s.HourStart.Before(*f.To)) {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b settlement.Settlement) int { return a.HourStart.Compare(b.HourStart) })
	return out
}

func (r commissionsRepo) List(_ context.Context, f settlement.Filter) ([]settlement.Settlement, error) {
	var out []settlement.Settlement
	err := r.d.do("Commissions.List", func(t *tables) error {
		out = matching(t, f)
		if f.Limit > 0 {
			out = out[min(f.Offset, len(out)):min(f.Offset+f.Limit, len(out))]
		}
		return nil
	})
	return out, err
}

func (r commissionsRepo) Count(_ context.Context, f settlement.Filter) (int64, error) {
	var n int64
	err := r.d.do("Commissions.Count", func(t *tables) error {
		n = int64(len(matching(t, f)))
		return nil
	})
	return n, err
}

// Settlements are the commission settlements as stored now, in id order.
func (d *DB) Settlements() []settlement.Settlement {
	return read(d, func(t *tables) []settlement.Settlement { return sorted(t.settlements) })
}
