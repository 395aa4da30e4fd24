package storetest

import (
	"context"
	"slices"
	"time"

	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/platform/errs"
)

// rechargesRepo: Finish, MarkSubmitted and Claim are conditional updates
// that report whether they wrote.
type rechargesRepo struct{ d *DB }

var _ recharge.Repository = rechargesRepo{}

func (r rechargesRepo) Create(_ context.Context, rc *recharge.Recharge) error {
	return r.d.do("Recharges.Create", func(t *tables) error {
		for _, o := range t.recharges {
			if o.UserID == rc.UserID && o.ReferenceID == rc.ReferenceID {
				return recharge.ErrReferenceReused.Wrap(errs.ErrConflict)
			}
		}
		rc.ID = t.id("recharges", 0)
		t.recharges[rc.ID] = *rc
		return nil
	})
}

func (r rechargesRepo) get(method string, match func(recharge.Recharge) bool) (*recharge.Recharge, error) {
	var out *recharge.Recharge
	err := r.d.do(method, func(t *tables) error {
		for _, rc := range sorted(t.recharges) {
			if match(rc) {
				out = &rc
				return nil
			}
		}
		return recharge.ErrNotFound
	})
	return out, err
}

func (r rechargesRepo) ByReference(_ context.Context, userID uint64, referenceID string) (*recharge.Recharge, error) {
	return r.get("Recharges.ByReference", func(rc recharge.Recharge) bool {
		return rc.UserID == userID && rc.ReferenceID == referenceID
	})
}

func (r rechargesRepo) ByID(_ context.Context, id uint64) (*recharge.Recharge, error) {
	return r.get("Recharges.ByID", func(rc recharge.Recharge) bool { return rc.ID == id })
}

func (r rechargesRepo) Finish(_ context.Context, rc *recharge.Recharge) (bool, error) {
	var moved bool
	err := r.d.do("Recharges.Finish", func(t *tables) error {
		row, ok := t.recharges[rc.ID]
		if !ok || row.Status != recharge.StatusPending {
			return nil
		}
		row.Status, row.OperatorRef, row.FailReason, row.UpdatedAt = rc.Status, rc.OperatorRef, rc.FailReason, rc.UpdatedAt
		if row.SubmittedAt == nil {
			at := rc.UpdatedAt
			if rc.SubmittedAt != nil {
				at = *rc.SubmittedAt
			}
			row.SubmittedAt = &at
		}
		t.recharges[rc.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r rechargesRepo) MarkSubmitted(_ context.Context, rc *recharge.Recharge) (bool, error) {
	if rc.SubmittedAt == nil {
		return false, errs.E(errs.Internal, "no_submission_time", "mark submitted: no submission time")
	}
	var moved bool
	err := r.d.do("Recharges.MarkSubmitted", func(t *tables) error {
		row, ok := t.recharges[rc.ID]
		if !ok || row.Status != recharge.StatusPending || row.SubmittedAt != nil {
			return nil
		}
		at := *rc.SubmittedAt
		row.SubmittedAt, row.NextCheckAt, row.UpdatedAt = &at, rc.NextCheckAt, rc.UpdatedAt
		t.recharges[rc.ID], moved = row, true
		return nil
	})
	return moved, err
}

func (r rechargesRepo) Due(_ context.Context, now time.Time, limit int) ([]recharge.Recharge, error) {
	var out []recharge.Recharge
	err := r.d.do("Recharges.Due", func(t *tables) error {
		all := sorted(t.recharges)
		slices.SortStableFunc(all, func(a, b recharge.Recharge) int { return a.NextCheckAt.Compare(b.NextCheckAt) })
		for _, rc := range all {
			if rc.Status == recharge.StatusPending && !rc.NextCheckAt.After(now) && len(out) < limit {
				out = append(out, rc)
			}
		}
		return nil
	})
	return out, err
}

func (r rechargesRepo) Claim(_ context.Context, old, next *recharge.Recharge, now time.Time) (bool, error) {
	var won bool
	err := r.d.do("Recharges.Claim", func(t *tables) error {
		row, ok := t.recharges[old.ID]
		if !ok || row.Status != recharge.StatusPending || row.Attempts != old.Attempts || row.NextCheckAt.After(now) ||
			(row.SubmittedAt == nil) != (old.SubmittedAt == nil) {
			return nil
		}
		row.Attempts, row.NextCheckAt, row.ReconcileAt, row.UpdatedAt = next.Attempts, next.NextCheckAt, next.ReconcileAt, next.UpdatedAt
		t.recharges[old.ID], won = row, true
		return nil
	})
	return won, err
}

func (r rechargesRepo) List(context.Context, recharge.Filter) ([]recharge.Recharge, int64, error) {
	notImplemented("Recharges.List")
	return nil, 0, nil
}

func (r rechargesRepo) ForEachByUser(_ context.Context, userID uint64, fn func(recharge.Recharge) error) error {
	var rows []recharge.Recharge
	if err := r.d.do("Recharges.ForEachByUser", func(t *tables) error {
		for _, rc := range sorted(t.recharges) {
			if rc.UserID == userID {
				rows = append(rows, rc)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, rc := range rows {
		if err := fn(rc); err != nil {
			return err
		}
	}
	return nil
}

// verificationsRepo: an append-only table.
type verificationsRepo struct{ d *DB }

var _ verification.Repository = verificationsRepo{}

func (r verificationsRepo) Create(_ context.Context, v *verification.Record) error {
	return r.d.do("Verifications.Create", func(t *tables) error {
		v.ID = t.id("verifications", 0)
		t.verifications = append(t.verifications, *v)
		return nil
	})
}
