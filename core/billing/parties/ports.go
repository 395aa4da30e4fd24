package parties

import (
	"context"

	"paygate/core/accounts/user"
	"paygate/core/billing/taxprofile"
	"paygate/core/resale/brand"
)

// Users reads a customer's reseller (whom the customer pays).
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}

// Brands reads a reseller's brand: the name and support contacts its
// customers are shown.
type Brands interface {
	Get(ctx context.Context, resellerID uint64) (brand.Brand, error)
}

// Profiles are the supplier's and the accounts' billing profiles as the
// settings read and write them outside a transaction (the supplier's
// change runs in one, with TxStores).
type Profiles interface {
	Supplier(ctx context.Context) (*taxprofile.Supplier, error)
	ResellerSupplier(ctx context.Context, resellerID uint64) (*taxprofile.Supplier, error)
	Profile(ctx context.Context, userID uint64) (*taxprofile.Profile, error)
	SaveProfile(ctx context.Context, p *taxprofile.Profile) error
	DeleteProfile(ctx context.Context, userID uint64) error
}
