package keys

import (
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	Users user.Repository
	Keys  apikey.Repository
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Users: s.Users,
		Keys:  s.Keys,
	}
}
