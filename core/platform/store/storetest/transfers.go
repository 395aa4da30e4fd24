package storetest

import (
	"context"
	"slices"

	"github.com/shopspring/decimal"

	"paygate/core/money/transfer"
)

// transfersRepo: one row per (reseller, Idempotency-Key), as the unique index.
type transfersRepo struct{ d *DB }

var _ transfer.Repository = transfersRepo{}

func (r transfersRepo) Insert(_ context.Context, tr *transfer.Transfer) error {
	return r.d.do("Transfers.Insert", func(t *tables) error {
		if tr.IdempotencyKey != nil {
			for _, o := range t.transfers {
				if o.ResellerID == tr.ResellerID && o.IdempotencyKey != nil && *o.IdempotencyKey == *tr.IdempotencyKey {
					return transfer.ErrKeyTaken
				}
			}
		}
		tr.ID = t.id("transfers", tr.ID)
		t.transfers[tr.ID] = *tr
		return nil
	})
}

func (r transfersRepo) ByKey(_ context.Context, resellerID uint64, key string) (*transfer.Transfer, error) {
	var out *transfer.Transfer
	err := r.d.do("Transfers.ByKey", func(t *tables) error {
		for _, o := range t.transfers {
			if o.ResellerID == resellerID && o.IdempotencyKey != nil && *o.IdempotencyKey == key {
				out = &o
				return nil
			}
		}
		return transfer.ErrNotFound
	})
	return out, err
}

func (r transfersRepo) List(_ context.Context, f transfer.Filter) ([]transfer.Transfer, int64, error) {
	var out []transfer.Transfer
	var total int64
	err := r.d.do("Transfers.List", func(t *tables) error {
		var all []transfer.Transfer
		for _, o := range newestFirst(sorted(t.transfers)) {
			if o.ResellerID == f.ResellerID && (f.CustomerID == nil || o.CustomerID == *f.CustomerID) {
				all = append(all, o)
			}
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

func (r transfersRepo) Funded(_ context.Context, resellerID, customerID uint64) (decimal.Decimal, error) {
	var out decimal.Decimal
	err := r.d.do("Transfers.Funded", func(t *tables) error {
		var pair []transfer.Transfer
		for _, o := range t.transfers {
			if o.ResellerID == resellerID && o.CustomerID == customerID {
				pair = append(pair, o)
			}
		}
		out = transfer.Funded(pair)
		return nil
	})
	return out, err
}

func (r transfersRepo) ForEach(_ context.Context, fn func(transfer.Transfer) error) error {
	var all []transfer.Transfer
	if err := r.d.do("Transfers.ForEach", func(t *tables) error { all = sorted(t.transfers); return nil }); err != nil {
		return err
	}
	for _, o := range all {
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}

// Transfers are the transfers as stored now, in id order.
func (d *DB) Transfers() []transfer.Transfer {
	return read(d, func(t *tables) []transfer.Transfer { return sorted(t.transfers) })
}
