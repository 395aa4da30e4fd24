package issuing

import (
	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/taxprofile"
	"paygate/core/events/webhook"
	"paygate/core/platform/store"
)

// TxStores are the repositories invoicing's transaction steps use, bound to
// one transaction (the wiring narrows the store's transactor to them).
type TxStores struct {
	Users       user.Repository
	Audit       audit.Repository
	Webhooks    webhook.Repository
	Invoices    invoice.Store
	TaxProfiles taxprofile.Store
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Users:       s.Users,
		Audit:       s.Audit,
		Webhooks:    s.Webhooks,
		Invoices:    s.Invoices,
		TaxProfiles: s.TaxProfiles,
	}
}
