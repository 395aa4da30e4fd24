package storefront

import (
	"context"

	"paygate/core/accounts/user"
)

// Users reads accounts outside a transaction: a host's reseller and a
// mail's recipient.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
	ByEmail(ctx context.Context, email string) (*user.User, error)
}
