package storetest

import (
	"context"
	"slices"

	"paygate/core/accounts/audit"
)

// auditRepo: an append-only table.
type auditRepo struct{ d *DB }

var _ audit.Repository = auditRepo{}

func (r auditRepo) Add(_ context.Context, e *audit.Entry) error {
	return r.d.do("Audit.Add", func(t *tables) error {
		e.ID = t.id("audit", 0)
		t.audit = append(t.audit, *e)
		return nil
	})
}

func (r auditRepo) List(_ context.Context, f audit.Filter) ([]audit.Entry, int64, error) {
	return listAudit(r.d, f)
}

func listAudit(d *DB, f audit.Filter) ([]audit.Entry, int64, error) {
	var out []audit.Entry
	var total int64
	err := d.do("Audit.List", func(t *tables) error {
		var all []audit.Entry
		for _, e := range newestFirst(slices.Clone(t.audit)) {
			if (f.ActorID == nil || e.ActorID == *f.ActorID) && (f.Action == "" || e.Action == f.Action) &&
				(f.TargetType == "" || e.TargetType == f.TargetType) &&
				(f.TargetID == nil || (e.TargetID != nil && *e.TargetID == *f.TargetID)) && within(e.CreatedAt, f.From, f.To) {
				all = append(all, e)
			}
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}
