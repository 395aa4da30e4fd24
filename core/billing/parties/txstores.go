package parties

import (
	"paygate/core/accounts/audit"
	"paygate/core/billing/taxprofile"
	"paygate/core/platform/store"
)

// TxStores are the repositories the tax settings' transaction steps use,
// bound to one transaction (the wiring narrows the store's transactor to
// them).
type TxStores struct {
	Audit       audit.Repository
	TaxProfiles taxprofile.Store
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Audit:       s.Audit,
		TaxProfiles: s.TaxProfiles,
	}
}
