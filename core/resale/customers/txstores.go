package customers

import (
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	panel.MoveStores
	Keys     apikey.Repository
	Sessions session.Repository
	Audit    audit.Repository
	Resets   user.ResetRepository
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		MoveStores: panel.MoveStores{Books: s.Books(), Users: s.Users, Transfers: s.Transfers},
		Keys:       s.Keys,
		Sessions:   s.Sessions,
		Audit:      s.Audit,
		Resets:     s.Resets,
	}
}
