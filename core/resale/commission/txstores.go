package commission

import (
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
	"paygate/core/resale/settlement"
)

// TxStores are the repositories the commission settler's transaction steps
// use, bound to one transaction (the wiring narrows the store's transactor
// to them).
type TxStores struct {
	store.Books
	Users       user.Repository
	Commissions settlement.Settlements
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Books:       s.Books(),
		Users:       s.Users,
		Commissions: s.Commissions,
	}
}
