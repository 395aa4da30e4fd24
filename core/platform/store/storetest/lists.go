package storetest

import (
	"fmt"
	"slices"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/taxprofile"
	"paygate/core/events/webhook"
	"paygate/core/gateway/accountopen"
)

// The panel's lists (here and beside their repositories). Lists follow the
// real store: newest first, pages of PerPage (20 by default, 100 at most) from
// Page 1, From and To inclusive bounds on created_at; the hit and ledger
// lists count at most ListWindow+1 matches.

// putMore stores the rows put does not know: audit.Entry, webhook.Event,
// webhook.Attempt, user.ResetToken, Rollup, ClosedDay, accountopen.Opening,
// taxprofile.Supplier, taxprofile.Profile.
func (t *tables) putMore(r any) any {
	switch r := r.(type) {
	case taxprofile.Supplier:
		t.supplier[supplierKey] = r
		return r
	case taxprofile.Profile:
		t.profiles[r.UserID] = r
		return r
	case audit.Entry:
		r.ID = t.id("audit", r.ID)
		t.audit = append(t.audit, r)
		return r
	case webhook.Event:
		r.ID = t.id("events", r.ID)
		t.events[r.ID] = r
		return r
	case webhook.Attempt:
		r.ID = t.id("attempts", r.ID)
		t.attempts = append(t.attempts, r)
		return r
	case user.ResetToken:
		t.resets[r.Email] = r
		return r
	case Rollup:
		t.rollups = append(t.rollups, r)
		return r
	case ClosedDay:
		t.closed[r.Zone+"|"+r.Day] = r
		return r
	case accountopen.Opening:
		r.ID = t.id("openings", r.ID)
		t.openings[r.ID] = r
		return r
	}
	panic(fmt.Sprintf("storetest: Put of %T not implemented", r))
}

// page cuts rows (newest first already) to f's page.
func page[T any](rows []T, pg, perPage int) []T {
	if perPage <= 0 {
		perPage = 20
	}
	perPage = min(perPage, 100)
	pg = max(pg, 1)
	from := min((pg-1)*perPage, len(rows))
	return rows[from:min(from+perPage, len(rows))]
}

func within(at time.Time, from, to *time.Time) bool {
	return (from == nil || !at.Before(*from)) && (to == nil || !at.After(*to))
}

func newestFirst[T any](rows []T) []T {
	slices.Reverse(rows)
	return rows
}

// capped is a list's total: at most window+1.
func capped(n, window int) int64 { return int64(min(n, window+1)) }
