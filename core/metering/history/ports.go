package history

import (
	"context"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
	"paygate/core/money/ledger"
	"paygate/core/platform/directory"
	"paygate/core/platform/export"
)

// Stores are the repositories history and the dashboard read; the day
// roll-up writes in a transaction, with TxStores.
type Stores struct {
	Ledger   Ledger
	Hits     Hits
	Reports  Reports
	Services Services
	Users    Users
	Names    directory.Repository
	Exports  export.Repository // nil: exports are not limited
}

// Ledger lists entries.
type Ledger interface {
	List(ctx context.Context, f ledger.Filter) ([]ledger.Entry, int64, error)
	ForEach(ctx context.Context, f ledger.Filter, fn func(ledger.Entry) error) error
}

// Hits lists hit logs.
type Hits interface {
	List(ctx context.Context, f hitlog.Filter) ([]hitlog.Hit, int64, error)
	ForEach(ctx context.Context, f hitlog.Filter, fn func(hitlog.Hit) error) error
}

// Reports reads the usage roll-ups and counts of the dashboard.
type Reports interface {
	Hours(ctx context.Context, from, to time.Time, userID *uint64, perUser bool) ([]report.HourRow, error)
	PendingHits(ctx context.Context, userID *uint64, from, to time.Time) ([]report.Hit, error)
	ClosedDays(ctx context.Context, zone, first, last string) (map[string]bool, error)
	Rollups(ctx context.Context, zone, first, last string, userID *uint64) ([]report.Row, error)
	PendingBalanceRequests(ctx context.Context) (int64, error)
	UsersByStatus(ctx context.Context) (map[user.Status]int64, error)
}

// Services resolves a service by id or slug.
type Services interface {
	ByID(ctx context.Context, id uint64) (*catalog.Service, error)
	BySlug(ctx context.Context, slug string) (*catalog.Service, error)
}

// Users reads the dashboard's account.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}
