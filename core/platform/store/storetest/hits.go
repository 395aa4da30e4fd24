package storetest

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// hitsRepo: Finish, FinishMany and SucceedMany move a hit only while it is
// pending, writing status, response payload, charge, cost and response
// time.
type hitsRepo struct{ d *DB }

var _ hitlog.Repository = hitsRepo{}

func (r hitsRepo) Insert(_ context.Context, h *hitlog.Hit) error {
	return r.d.do("Hits.Insert", func(t *tables) error {
		h.ID = t.id("hits", h.ID)
		t.hits[h.ID] = *h
		return nil
	})
}

func (r hitsRepo) InsertMany(_ context.Context, hits []*hitlog.Hit) error {
	return r.d.do("Hits.InsertMany", func(t *tables) error {
		for _, h := range hits {
			h.ID = t.id("hits", h.ID)
			t.hits[h.ID] = *h
		}
		return nil
	})
}

// settle moves h out of pending; false when it is not pending.
func settle(t *tables, h *hitlog.Hit) (bool, error) {
	row, ok := t.hits[h.ID]
	if !ok {
		return false, fmt.Errorf("hit %d: %w", h.ID, errs.ErrNotFound)
	}
	if row.Status != hitlog.StatusPending {
		return false, nil
	}
	row.Status, row.ResponsePayload, row.ChargeAmount, row.CostAmount = h.Status, h.ResponsePayload, h.ChargeAmount, h.CostAmount
	row.ResponseTimeMs, row.Commission = h.ResponseTimeMs, h.Commission
	t.hits[h.ID] = row
	return true, nil
}

func (r hitsRepo) Finish(_ context.Context, h *hitlog.Hit) error {
	return r.d.do("Hits.Finish", func(t *tables) error {
		moved, err := settle(t, h)
		if err == nil && !moved {
			err = hitlog.ErrNotPending
		}
		return err
	})
}

func (r hitsRepo) settleMany(method string, hits []*hitlog.Hit) ([]bool, error) {
	moved := make([]bool, len(hits))
	err := r.d.do(method, func(t *tables) error {
		for i, h := range hits {
			ok, err := settle(t, h)
			if errs.KindOf(err) == errs.NotFound {
				continue // an unknown hit moves nothing
			}
			moved[i] = ok
		}
		return nil
	})
	return moved, err
}

func (r hitsRepo) FinishMany(_ context.Context, hits []*hitlog.Hit) ([]bool, error) {
	return r.settleMany("Hits.FinishMany", hits)
}

func (r hitsRepo) SucceedMany(_ context.Context, hits []*hitlog.Hit) ([]bool, error) {
	return r.settleMany("Hits.SucceedMany", hits)
}

func (r hitsRepo) ByRequestID(_ context.Context, requestID string) (*hitlog.Hit, error) {
	var out *hitlog.Hit
	err := r.d.do("Hits.ByRequestID", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if h.RequestID == requestID {
				out = &h
				return nil
			}
		}
		return errs.ErrNotFound
	})
	return out, err
}

func (r hitsRepo) List(_ context.Context, f hitlog.Filter) ([]hitlog.Hit, int64, error) {
	return listHits(r.d, f)
}

func (r hitsRepo) ForEach(_ context.Context, f hitlog.Filter, fn func(hitlog.Hit) error) error {
	return forEachHit(r.d, f, fn)
}

func (r hitsRepo) ForEachByUser(_ context.Context, userID uint64, fn func(hitlog.Hit) error) error {
	var rows []hitlog.Hit
	if err := r.d.do("Hits.ForEachByUser", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if h.UserID == userID {
				rows = append(rows, h)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, h := range rows {
		h.RequestPayload, h.ResponsePayload = "", nil // as documented: without payloads
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

// Pending lists them oldest first (created_at, then id), as the store does.
func (r hitsRepo) Pending(_ context.Context, before time.Time, limit int) ([]hitlog.Hit, error) {
	var out []hitlog.Hit
	err := r.d.do("Hits.Pending", func(t *tables) error {
		all := sorted(t.hits)
		slices.SortStableFunc(all, func(a, b hitlog.Hit) int { return a.CreatedAt.Compare(b.CreatedAt) })
		for _, h := range all {
			if h.Status == hitlog.StatusPending && h.CreatedAt.Before(before) && len(out) < limit {
				out = append(out, h)
			}
		}
		return nil
	})
	return out, err
}

// ClearPayloads clears, oldest id first, up to limit hits created before
// `before` that still have a payload; more when others remain.
func (r hitsRepo) ClearPayloads(_ context.Context, before time.Time, limit int) (int, bool, error) {
	cleared, more := 0, false
	err := r.d.do("Hits.ClearPayloads", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if !h.CreatedAt.Before(before) || (h.RequestPayload == "" && h.ResponsePayload == nil) {
				continue
			}
			if cleared == limit {
				more = true
				return nil
			}
			h.RequestPayload, h.ResponsePayload = "", nil
			t.hits[h.ID] = h
			cleared++
		}
		return nil
	})
	return cleared, more, err
}

func hitMatches(f hitlog.Filter) func(hitlog.Hit) bool {
	return func(h hitlog.Hit) bool {
		return (f.UserID == nil || h.UserID == *f.UserID) && (f.ServiceID == nil || h.ServiceID == *f.ServiceID) &&
			(f.APIKeyID == nil || h.APIKeyID == *f.APIKeyID) && (f.Status == "" || h.Status == f.Status) &&
			within(h.CreatedAt, f.From, f.To)
	}
}

// hitsNewest are the hits f selects, created_at then id descending.
func hitsNewest(t *tables, f hitlog.Filter) []hitlog.Hit {
	var out []hitlog.Hit
	for _, h := range sorted(t.hits) {
		if hitMatches(f)(h) {
			out = append(out, h)
		}
	}
	slices.SortStableFunc(out, func(a, b hitlog.Hit) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return cmpID(b.ID, a.ID)
	})
	return out
}

func listHits(d *DB, f hitlog.Filter) ([]hitlog.Hit, int64, error) {
	var out []hitlog.Hit
	var total int64
	err := d.do("Hits.List", func(t *tables) error {
		all := hitsNewest(t, f)
		total = capped(len(all), hitlog.ListWindow)
		out = slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

// forEachHit visits the list's order with payloads cut to
// ExportPayloadChars, as the export reads them.
func forEachHit(d *DB, f hitlog.Filter, fn func(hitlog.Hit) error) error {
	var rows []hitlog.Hit
	if err := d.do("Hits.ForEach", func(t *tables) error { rows = hitsNewest(t, f); return nil }); err != nil {
		return err
	}
	for _, h := range rows {
		h.RequestPayload = cutPayload(h.RequestPayload)
		if h.ResponsePayload != nil {
			p := cutPayload(*h.ResponsePayload)
			h.ResponsePayload = &p
		}
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

// cutPayload keeps the first ExportPayloadChars characters of s, ending a
// cut one with "…".
func cutPayload(s string) string {
	if utf8.RuneCountInString(s) <= hitlog.ExportPayloadChars {
		return s
	}
	return string([]rune(s)[:hitlog.ExportPayloadChars]) + "…"
}
