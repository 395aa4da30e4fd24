package resale

import (
	"paygate/core/accounts/audit"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/store"
)

// TxStores are the repositories the selling prices' transaction steps use,
// bound to one transaction (the wiring narrows the store's transactor to
// them).
type TxStores struct {
	Audit          audit.Repository
	CustomerPrices pricing.CustomerPrices
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Audit:          s.Audit,
		CustomerPrices: s.CustomerPrices,
	}
}
