package catalogadmin

import (
	"context"

	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
)

// Stores are the repositories the catalog's use cases read outside a
// transaction; a transaction gets TxStores.
type Stores struct {
	Services Services
	Pricing  Prices
	Users    Users
	Selling  Selling
}

// Services reads the catalog.
type Services interface {
	ByID(ctx context.Context, id uint64) (*catalog.Service, error)
	BySlug(ctx context.Context, slug string) (*catalog.Service, error)
	List(ctx context.Context, f catalog.Filter) ([]catalog.Service, int64, error)
	Doc(ctx context.Context, serviceID uint64) (*catalog.Doc, error)
}

// Prices reads the pricing rows.
type Prices interface {
	ByID(ctx context.Context, id uint64) (*pricing.Price, error)
	ListByService(ctx context.Context, serviceID uint64) ([]pricing.Price, error)
	Applicable(ctx context.Context, serviceID, userID uint64) (*pricing.Price, error)
}

// Selling reads what a reseller set for its customers' price of a service.
type Selling interface {
	Selling(ctx context.Context, resellerID, serviceID uint64) (pricing.Selling, error)
}

// Users reads the account a price is shown to and its reseller.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}
