package history

import (
	"paygate/core/metering/report"
	"paygate/core/platform/store"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	Reports report.Repository
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Reports: s.Reports,
	}
}
