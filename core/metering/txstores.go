package metering

import (
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/platform/store"
)

// TxStores are the repositories metering's transaction steps use, bound to
// one transaction: a batch's (BatchStores) and one write's (writer.go).
type TxStores struct {
	store.Books
	Users user.Repository
	Keys  apikey.Repository
	Hits  hitlog.Repository
	Holds hold.Repository
}

// TxStoresOf are s's repositories metering's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Books: s.Books(),
		Users: s.Users,
		Keys:  s.Keys,
		Hits:  s.Hits,
		Holds: s.Holds,
	}
}
