package storetest

import (
	"context"
	"slices"

	"paygate/core/money/ledger"
)

// ledgerRepo: an append-only table in id order.
type ledgerRepo struct{ d *DB }

var _ ledger.Repository = ledgerRepo{}

func (r ledgerRepo) Insert(ctx context.Context, e *ledger.Entry) error {
	return r.d.do("Ledger.Insert", func(t *tables) error {
		e.ID = t.id("ledger", e.ID)
		t.ledger = append(t.ledger, *e)
		return nil
	})
}

func (r ledgerRepo) InsertMany(_ context.Context, entries []*ledger.Entry) error {
	return r.d.do("Ledger.InsertMany", func(t *tables) error {
		for _, e := range entries {
			row := *e
			row.ID = t.id("ledger", e.ID) // the caller's entry keeps its id, as the store's does
			t.ledger = append(t.ledger, row)
		}
		return nil
	})
}

func (r ledgerRepo) List(_ context.Context, f ledger.Filter) ([]ledger.Entry, int64, error) {
	return listEntries(r.d, f)
}

func (r ledgerRepo) ForEach(_ context.Context, f ledger.Filter, fn func(ledger.Entry) error) error {
	return forEachEntry(r.d, f, fn)
}

func (r ledgerRepo) ForEachByUser(_ context.Context, userID uint64, fn func(ledger.Entry) error) error {
	var rows []ledger.Entry
	if err := r.d.do("Ledger.ForEachByUser", func(t *tables) error {
		for _, e := range t.ledger {
			if e.UserID == userID {
				rows = append(rows, e)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	slices.SortFunc(rows, func(a, b ledger.Entry) int { return cmpID(a.ID, b.ID) })
	for _, e := range rows {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

func cmpID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// entriesNewest are the ledger entries f selects, id descending.
func entriesNewest(t *tables, f ledger.Filter) []ledger.Entry {
	var out []ledger.Entry
	for _, e := range t.ledger {
		if (f.UserID == nil || e.UserID == *f.UserID) && (f.Type == "" || e.Type == f.Type) &&
			(f.ReferenceType == "" || e.ReferenceType == f.ReferenceType) && within(e.CreatedAt, f.From, f.To) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b ledger.Entry) int { return cmpID(b.ID, a.ID) })
	return out
}

func listEntries(d *DB, f ledger.Filter) ([]ledger.Entry, int64, error) {
	var out []ledger.Entry
	var total int64
	err := d.do("Ledger.List", func(t *tables) error {
		all := entriesNewest(t, f)
		total = capped(len(all), ledger.ListWindow)
		out = slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

func forEachEntry(d *DB, f ledger.Filter, fn func(ledger.Entry) error) error {
	var rows []ledger.Entry
	if err := d.do("Ledger.ForEach", func(t *tables) error { rows = entriesNewest(t, f); return nil }); err != nil {
		return err
	}
	if f.Oldest {
		slices.Reverse(rows)
	}
	for _, e := range rows {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}
