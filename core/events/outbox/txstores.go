package outbox

import (
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/platform/store"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	Users    user.Repository
	Webhooks webhook.Repository
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Users:    s.Users,
		Webhooks: s.Webhooks,
	}
}
