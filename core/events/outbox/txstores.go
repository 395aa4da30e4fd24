package outbox

import (
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/platform/store"
)

// TxStores are the repositories the outbox's transaction steps use, bound to
// one transaction (the wiring narrows the store's transactor to them).
type TxStores struct {
	Users    user.Repository
	Webhooks webhook.Repository
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Users:    s.Users,
		Webhooks: s.Webhooks,
	}
}
