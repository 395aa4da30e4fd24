package money

import (
	"context"

	"paygate/core/accounts/user"
	"paygate/core/money/topup"
)

// Requests reads balance requests outside a transaction (a transaction
// gets TxStores).
type Requests interface {
	ByID(ctx context.Context, id uint64) (*topup.Request, error)
	List(ctx context.Context, f topup.Filter) ([]topup.Request, int64, error)
}

// Users reads a request's owner (a reseller reads its customers' requests).
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}
