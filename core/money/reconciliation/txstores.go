package reconciliation

import (
	"paygate/core/accounts/audit"
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	"paygate/core/money"
	"paygate/core/money/statement"
	"paygate/core/platform/store"
)

// TxStores are the repositories reconciliation's transaction steps use,
// bound to one transaction: its own, and those of the step a match runs in
// the same transaction, a payment's completion (Gateway) or a balance
// request's approval (Money).
type TxStores struct {
	Statements statement.Repository
	Payments   payment.Repository
	Audit      audit.Repository

	Gateway gateway.SettleStores // PaymentCompleter.CompletePaymentIn
	Money   money.TxStores       // TopUpApprover.ApproveTopUpTx
}

// TxStoresOf are s's repositories reconciliation's transaction steps use.
func TxStoresOf(s store.Stores) TxStores {
	return TxStores{
		Statements: s.Statements,
		Payments:   s.Payments,
		Audit:      s.Audit,

		Gateway: gateway.TxStoresOf(s).SettleStores,
		Money:   money.TxStoresOf(s),
	}
}
