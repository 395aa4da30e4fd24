package money

import (
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/money/topup"
	"paygate/core/platform/store"
	"paygate/core/platform/utr"
)

// TxStores are the repositories the balance requests' transaction steps use,
// bound to one transaction (the wiring narrows the store's transactor to
// them).
type TxStores struct {
	panel.MoveStores
	Audit  audit.Repository
	TopUps topup.Repository
	UTRs   utr.Claims
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		MoveStores: panel.MoveStores{Books: s.Books(), Users: s.Users, Transfers: s.Transfers},
		Audit:      s.Audit,
		TopUps:     s.TopUps,
		UTRs:       s.UTRs,
	}
}
