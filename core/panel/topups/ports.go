package topups

import (
	"context"

	"paygate/core/topup"
)

// Requests reads balance requests outside a transaction (a transaction
// gets store.Stores from store.Transactor).
type Requests interface {
	ByID(ctx context.Context, id uint64) (*topup.Request, error)
	List(ctx context.Context, f topup.Filter) ([]topup.Request, int64, error)
}
