package gateway

import (
	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/gateway/accountopen"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/recharge"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/store"
	"paygate/core/platform/utr"
	"paygate/core/resale/settlement"
)

// TxStores are the repositories the gateway's transaction steps use, bound
// to one transaction (the wiring narrows the store's transactor to them).
type TxStores struct {
	SettleStores
	// Metering is what an operation's charge writes (Bill.Reserve) in the
	// operation's own transaction, before the operation's rows.
	Metering    metering.TxStores
	Idempotency payment.IdempotencyKeys
	Hits        hitlog.Repository
	Audit       audit.Repository
	Recharges   recharge.Repository
	Payouts     payout.Repository
	Refunds     payment.RefundRepository
	RefundKeys  payment.RefundKeys
	UTRs        utr.Claims
	Openings    accountopen.Repository
	Commissions settlement.Settlements
}

// TxStoresOf picks them from all of s.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		SettleStores: SettleStores{Books: s.Books(), Users: s.Users, Payments: s.Payments},
		Metering:     metering.TxStoresOf(s),
		Idempotency:  s.Idempotency,
		Hits:         s.Hits,
		Audit:        s.Audit,
		Recharges:    s.Recharges,
		Payouts:      s.Payouts,
		Refunds:      s.Refunds,
		RefundKeys:   s.RefundKeys,
		UTRs:         s.UTRs,
		Openings:     s.Openings,
		Commissions:  s.Commissions,
	}
}

// SettleStores are what a payment's settlement writes in its caller's
// transaction (settleIn; CompletePaymentIn, which reconciliation calls in
// its own): the payment, its beneficiary's row and balance, the ledger
// entries and the payment's event.
type SettleStores struct {
	store.Books
	Users    user.Repository
	Payments payment.Repository
}
