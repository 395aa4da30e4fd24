package billing

import (
	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/platform/store"
)

// TxStores are the repositories billing's transaction steps use, bound to
// one transaction (the wiring narrows the store's transactor to them).
type TxStores struct {
	store.Books
	Users         user.Repository
	Audit         audit.Repository
	Plans         plan.Catalog
	Subscriptions plan.Subscriptions
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Books:         s.Books(),
		Users:         s.Users,
		Audit:         s.Audit,
		Plans:         s.Plans,
		Subscriptions: s.Subscriptions,
	}
}
