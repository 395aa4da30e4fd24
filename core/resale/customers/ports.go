package customers

import (
	"context"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
	"paygate/core/money/ledger"
	"paygate/core/money/transfer"
	"paygate/core/platform/directory"
)

// Stores are the repositories the customers' use cases read outside a
// transaction; a transaction gets TxStores.
type Stores struct {
	Users     Users
	Keys      Keys
	Hits      Hits
	Ledger    Ledger
	Transfers Transfers
	Resets    Resets
	Reports   Reports
	Names     directory.Repository // names a hit page's keys and services
}

// Users reads accounts.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
	ByEmail(ctx context.Context, email string) (*user.User, error)
	ByPhone(ctx context.Context, phone string) (*user.User, error)
	List(ctx context.Context, f user.Filter) ([]user.User, int64, error)
}

// Keys lists a customer's keys.
type Keys interface {
	ListByUser(ctx context.Context, userID uint64) ([]apikey.Key, error)
}

// Hits lists hit logs.
type Hits interface {
	List(ctx context.Context, f hitlog.Filter) ([]hitlog.Hit, int64, error)
}

// Ledger lists ledger entries.
type Ledger interface {
	List(ctx context.Context, f ledger.Filter) ([]ledger.Entry, int64, error)
}

// Transfers finds and lists transfers.
type Transfers interface {
	ByKey(ctx context.Context, resellerID uint64, key string) (*transfer.Transfer, error)
	List(ctx context.Context, f transfer.Filter) ([]transfer.Transfer, int64, error)
}

// Resets keeps password reset tokens (the set-password link of a customer
// created without a password).
type Resets interface {
	Put(ctx context.Context, t user.ResetToken) error
}

// Reports reads the sums of the reseller's dashboard.
type Reports = report.ResellerRepository
