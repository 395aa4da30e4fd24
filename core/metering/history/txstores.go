package history

import (
	"paygate/core/metering/report"
	"paygate/core/platform/store"
)

// TxStores are the repositories the day roll-up's transaction steps use,
// bound to one transaction (the wiring narrows the store's transactor to
// them).
type TxStores struct {
	Reports report.Repository
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Reports: s.Reports,
	}
}
