package money

import (
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/money/topup"
	"paygate/core/platform/store"
	"paygate/core/platform/utr"
)

// TxStores are the repositories this package's transaction steps use,
// bound to one transaction.
type TxStores struct {
	panel.MoveStores
	Audit  audit.Repository
	TopUps topup.Repository
	UTRs   utr.Claims
}

// TxStoresOf are s's repositories this package's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		MoveStores: panel.MoveStores{Books: s.Books(), Users: s.Users, Transfers: s.Transfers},
		Audit:      s.Audit,
		TopUps:     s.TopUps,
		UTRs:       s.UTRs,
	}
}
