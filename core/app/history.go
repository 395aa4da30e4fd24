package app

import (
	"context"
	"time"

	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/user"
)

// ListTransactions lists ledger entries: a user's own; an admin's any user's
// (all when f.UserID is nil).
func (a *App) ListTransactions(ctx context.Context, actor *user.User, f ledger.Filter) ([]ledger.Entry, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return a.st.Ledger.List(ctx, f)
}

// ListHits lists hit log rows with the same scoping as ListTransactions.
func (a *App) ListHits(ctx context.Context, actor *user.User, f hitlog.Filter) ([]hitlog.Hit, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return a.st.Hits.List(ctx, f)
}

// Location is the time zone of day and month boundaries.
func (a *App) Location() *time.Location { return a.cfg.Location }
