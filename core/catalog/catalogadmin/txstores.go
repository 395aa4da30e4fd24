package catalogadmin

import (
	"paygate/core/accounts/audit"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/store"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	Services catalog.Repository
	Pricing  pricing.Repository
	Audit    audit.Repository
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Services: s.Services,
		Pricing:  s.Pricing,
		Audit:    s.Audit,
	}
}
