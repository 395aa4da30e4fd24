package commission

import (
	"context"
	"time"

	"paygate/core/platform/store"
	"paygate/core/resale/settlement"
)

// Transactor runs a settlement's transaction (store.Transactor); its Stores
// must carry Commissions, Users, Ledger and Webhooks (store.Post).
type Transactor interface {
	WithinTx(ctx context.Context, fn func(ctx context.Context, s store.Stores) error) error
}

// Reads are what the settler reads outside a transaction: the resellers,
// their customers' hits and the hours already settled.
type Reads interface {
	Resellers(ctx context.Context) ([]uint64, error)
	NextHitAt(ctx context.Context, resellerID uint64, from, before time.Time) (*time.Time, error)
	Accrued(ctx context.Context, resellerID uint64, from, to time.Time) (settlement.Accrual, error)
	List(ctx context.Context, f settlement.Filter) ([]settlement.Settlement, error)
}
