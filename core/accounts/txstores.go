package accounts

import (
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/session"
	"paygate/core/accounts/signin"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/platform/store"
)

// TxStores are the repositories the account use cases' transaction steps
// use, bound to one transaction (the wiring narrows the store's transactor
// to them).
type TxStores struct {
	store.Books
	Users         user.Repository
	Keys          apikey.Repository
	Sessions      session.Repository
	Audit         audit.Repository
	Resets        user.ResetRepository
	Logins        signin.Repository
	Plans         plan.Catalog
	Subscriptions plan.Subscriptions
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Books:         s.Books(),
		Users:         s.Users,
		Keys:          s.Keys,
		Sessions:      s.Sessions,
		Audit:         s.Audit,
		Resets:        s.Resets,
		Logins:        s.Logins,
		Plans:         s.Plans,
		Subscriptions: s.Subscriptions,
	}
}
