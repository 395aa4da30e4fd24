package storetest

import (
	"context"
	"slices"
	"strings"

	"paygate/core/money/topup"
)

// topupsRepo: Decide writes only a pending request; a UTR is unique.
type topupsRepo struct{ d *DB }

var _ topup.Repository = topupsRepo{}

func (r topupsRepo) Create(_ context.Context, q *topup.Request) error {
	return r.d.do("TopUps.Create", func(t *tables) error {
		for _, o := range t.topups {
			if o.UTRNumber == q.UTRNumber {
				return topup.ErrUTRTaken
			}
		}
		q.ID = t.id("topups", 0)
		t.topups[q.ID] = *q
		return nil
	})
}

func (r topupsRepo) ByID(_ context.Context, id uint64) (*topup.Request, error) {
	var out *topup.Request
	err := r.d.do("TopUps.ByID", func(t *tables) error {
		q, ok := t.topups[id]
		if !ok {
			return topup.ErrNotFound
		}
		out = &q
		return nil
	})
	return out, err
}

func (r topupsRepo) Decide(_ context.Context, q *topup.Request) error {
	return r.d.do("TopUps.Decide", func(t *tables) error {
		row, ok := t.topups[q.ID]
		if !ok {
			return topup.ErrNotFound
		}
		if row.Status != topup.StatusPending {
			return topup.ErrAlreadyDecided
		}
		row.Status, row.ApprovedBy, row.ApprovedAt, row.AdminRemarks, row.UpdatedAt = q.Status, q.ApprovedBy, q.ApprovedAt, q.AdminRemarks, q.UpdatedAt
		t.topups[q.ID] = row
		return nil
	})
}

func (r topupsRepo) List(_ context.Context, f topup.Filter) ([]topup.Request, int64, error) {
	return listTopUps(r.d, f)
}

func listTopUps(d *DB, f topup.Filter) ([]topup.Request, int64, error) {
	var out []topup.Request
	var total int64
	err := d.do("TopUps.List", func(t *tables) error {
		var all []topup.Request
		for _, q := range newestFirst(sorted(t.topups)) {
			if (f.UserID == nil || q.UserID == *f.UserID) && (f.Status == "" || q.Status == f.Status) &&
				(f.Q == "" || strings.Contains(q.UTRNumber, f.Q)) && within(q.CreatedAt, f.From, f.To) &&
				(f.ParentID == nil || (t.users[q.UserID].ParentID != nil && *t.users[q.UserID].ParentID == *f.ParentID)) {
				all = append(all, q)
			}
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}
