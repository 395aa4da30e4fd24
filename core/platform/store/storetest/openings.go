package storetest

import (
	"context"
	"slices"
	"time"

	"paygate/core/gateway/accountopen"
	"paygate/core/platform/errs"
)

// openingsRepo: Advance and Claim are conditional updates that report
// whether they wrote.
type openingsRepo struct{ d *DB }

var _ accountopen.Repository = openingsRepo{}

func (r openingsRepo) Create(_ context.Context, o *accountopen.Opening) error {
	return r.d.do("Openings.Create", func(t *tables) error {
		for _, x := range t.openings {
			if x.UserID == o.UserID && x.ReferenceID == o.ReferenceID {
				return accountopen.ErrReferenceReused.Wrap(errs.ErrConflict)
			}
		}
		o.ID = t.id("openings", 0)
		t.openings[o.ID] = *o
		return nil
	})
}

func (r openingsRepo) get(method string, match func(accountopen.Opening) bool) (*accountopen.Opening, error) {
	var out *accountopen.Opening
	err := r.d.do(method, func(t *tables) error {
		for _, o := range sorted(t.openings) {
			if match(o) {
				out = &o
				return nil
			}
		}
		return accountopen.ErrNotFound
	})
	return out, err
}

func (r openingsRepo) ByReference(_ context.Context, userID uint64, referenceID string) (*accountopen.Opening, error) {
	return r.get("Openings.ByReference", func(o accountopen.Opening) bool {
		return o.UserID == userID && o.ReferenceID == referenceID
	})
}

func (r openingsRepo) ByID(_ context.Context, id uint64) (*accountopen.Opening, error) {
	return r.get("Openings.ByID", func(o accountopen.Opening) bool { return o.ID == id })
}

func (r openingsRepo) Advance(_ context.Context, old, next *accountopen.Opening) (bool, error) {
	var moved bool
	err := r.d.do("Openings.Advance", func(t *tables) error {
		row, ok := t.openings[old.ID]
		if !ok || row.Status != old.Status {
			return nil
		}
		row.Status, row.KYCURL, row.AccountNumber, row.IFSC = next.Status, next.KYCURL, next.AccountNumber, next.IFSC
		row.RejectReason, row.NextCheckAt, row.UpdatedAt = next.RejectReason, next.NextCheckAt, next.UpdatedAt
		t.openings[old.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r openingsRepo) Due(_ context.Context, now time.Time, limit int) ([]accountopen.Opening, error) {
	var out []accountopen.Opening
	err := r.d.do("Openings.Due", func(t *tables) error {
		all := sorted(t.openings)
		slices.SortStableFunc(all, func(a, b accountopen.Opening) int { return a.NextCheckAt.Compare(b.NextCheckAt) })
		for _, o := range all {
			if !o.Status.Final() && !o.NextCheckAt.After(now) && len(out) < limit {
				out = append(out, o)
			}
		}
		return nil
	})
	return out, err
}

func (r openingsRepo) Claim(_ context.Context, old, next *accountopen.Opening, now time.Time) (bool, error) {
	var won bool
	err := r.d.do("Openings.Claim", func(t *tables) error {
		row, ok := t.openings[old.ID]
		if !ok || row.Status != old.Status || row.Attempts != old.Attempts || row.NextCheckAt.After(now) {
			return nil
		}
		row.Attempts, row.NextCheckAt, row.UpdatedAt = next.Attempts, next.NextCheckAt, next.UpdatedAt
		t.openings[old.ID], won = row, true
		return nil
	})
	return won, err
}

func (r openingsRepo) List(_ context.Context, f accountopen.Filter) ([]accountopen.Opening, int64, error) {
	var out []accountopen.Opening
	err := r.d.do("Openings.List", func(t *tables) error {
		for _, o := range sorted(t.openings) {
			if (f.UserID == nil || o.UserID == *f.UserID) && (f.Status == "" || o.Status == f.Status) && within(o.CreatedAt, f.From, f.To) {
				out = append(out, o)
			}
		}
		return nil
	})
	total := int64(len(out))
	return page(newestFirst(out), f.Page, f.PerPage), total, err
}

// Openings are the stored account openings, in id order.
func (d *DB) Openings() []accountopen.Opening {
	return read(d, func(t *tables) []accountopen.Opening { return sorted(t.openings) })
}
