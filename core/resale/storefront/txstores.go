package storefront

import (
	"paygate/core/accounts/audit"
	"paygate/core/platform/store"
	"paygate/core/resale/brand"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	Audit  audit.Repository
	Brands brand.Store
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Audit:  s.Audit,
		Brands: s.Brands,
	}
}
