package commission

import (
	"context"
	"time"

	"paygate/core/resale/settlement"
)

// Reads are what the settler reads outside a transaction: the resellers,
// their customers' hits and the hours already settled.
type Reads interface {
	Resellers(ctx context.Context) ([]uint64, error)
	NextHitAt(ctx context.Context, resellerID uint64, from, before time.Time) (*time.Time, error)
	Accrued(ctx context.Context, resellerID uint64, from, to time.Time) (settlement.Accrual, error)
	List(ctx context.Context, f settlement.Filter) ([]settlement.Settlement, error)
}
