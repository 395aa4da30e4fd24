package parties

import (
	"paygate/core/accounts/audit"
	"paygate/core/billing/taxprofile"
	"paygate/core/platform/store"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	Audit       audit.Repository
	TaxProfiles taxprofile.Store
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Audit:       s.Audit,
		TaxProfiles: s.TaxProfiles,
	}
}
