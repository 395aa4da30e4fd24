package resale

import (
	"paygate/core/accounts/audit"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/store"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	Audit          audit.Repository
	CustomerPrices pricing.CustomerPrices
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Audit:          s.Audit,
		CustomerPrices: s.CustomerPrices,
	}
}
