package commission

import (
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
	"paygate/core/resale/settlement"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	store.Books
	Users       user.Repository
	Commissions settlement.Settlements
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Books:       s.Books(),
		Users:       s.Users,
		Commissions: s.Commissions,
	}
}
