package keys

import (
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
)

// TxStores are the repositories the key use cases' transaction steps use,
// bound to one transaction (the wiring narrows the store's transactor to
// them).
type TxStores struct {
	Users user.Repository
	Keys  apikey.Repository
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Users: s.Users,
		Keys:  s.Keys,
	}
}
