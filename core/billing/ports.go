package billing

import (
	"context"

	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
)

// Stores are the repositories billing reads outside a transaction; a
// transaction gets TxStores.
type Stores struct {
	Users         Users
	Plans         Plans
	Subscriptions Subscriptions
}

// Users reads the account a change is for.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}

// Plans reads the plan catalog.
type Plans interface {
	List(ctx context.Context, publicOnly bool) ([]plan.Plan, error)
	ByCode(ctx context.Context, code string) (*plan.Plan, error)
}

// Subscriptions reads a subscription and pages the ones a round bills.
type Subscriptions interface {
	ByUser(ctx context.Context, userID uint64) (*plan.Subscription, error)
	Behind(ctx context.Context, period string, after uint64, limit int) ([]uint64, error)
	PastDue(ctx context.Context, after uint64, limit int) ([]uint64, error)
}
