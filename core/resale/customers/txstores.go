package customers

import (
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
)

// TxStores are the repositories a reseller's customer use cases' transaction
// steps use, bound to one transaction (the wiring narrows the store's
// transactor to them).
type TxStores struct {
	panel.MoveStores
	Keys     apikey.Repository
	Sessions session.Repository
	Audit    audit.Repository
	Resets   user.ResetRepository
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		MoveStores: panel.MoveStores{Books: s.Books(), Users: s.Users, Transfers: s.Transfers},
		Keys:       s.Keys,
		Sessions:   s.Sessions,
		Audit:      s.Audit,
		Resets:     s.Resets,
	}
}
