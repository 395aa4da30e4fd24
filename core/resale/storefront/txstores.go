package storefront

import (
	"paygate/core/accounts/audit"
	"paygate/core/platform/store"
	"paygate/core/resale/brand"
)

// TxStores are the repositories the brands' transaction steps use, bound to
// one transaction (the wiring narrows the store's transactor to them).
type TxStores struct {
	Audit  audit.Repository
	Brands brand.Store
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Audit:  s.Audit,
		Brands: s.Brands,
	}
}
