package catalogadmin

import (
	"paygate/core/accounts/audit"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/store"
)

// TxStores are the repositories the catalog's transaction steps use, bound
// to one transaction (the wiring narrows the store's transactor to them).
type TxStores struct {
	Services catalog.Repository
	Pricing  pricing.Repository
	Audit    audit.Repository
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Services: s.Services,
		Pricing:  s.Pricing,
		Audit:    s.Audit,
	}
}
