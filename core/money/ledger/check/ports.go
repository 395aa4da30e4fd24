package check

import (
	"context"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/plan"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/recharge"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/metering/report"
	"paygate/core/money/ledger"
	"paygate/core/money/transfer"
	"paygate/core/platform/store"
	"paygate/core/resale/settlement"
)

// Stores are the repositories the check reads; it runs in no transaction.
// A nil Recharges, Payments, Payouts, Refunds, Hits, Subscriptions or
// Invoices skips what it would check.
type Stores struct {
	Users         Users
	Ledger        Ledger
	Hits          Hits
	Holds         Holds
	Payments      Payments
	Recharges     Recharges
	Payouts       Payouts
	Refunds       Refunds
	Reports       Reports
	Subscriptions Subscriptions
	Invoices      Invoices
	// Transfers and Commissions: resellers' money (resellers.go); nil
	// skips its check.
	Transfers   Transfers
	Commissions Commissions
}

// StoresOf are the repositories of st the check reads.
func StoresOf(st store.Stores) Stores {
	return Stores{Users: st.Users, Ledger: st.Ledger, Hits: st.Hits, Holds: st.Holds, Payments: st.Payments,
		Recharges: st.Recharges, Payouts: st.Payouts, Refunds: st.Refunds, Reports: st.Reports,
		Subscriptions: st.Subscriptions, Invoices: st.Invoices, Transfers: st.Transfers, Commissions: st.Commissions}
}

// Transfers visits every transfer.
type Transfers interface {
	ForEach(ctx context.Context, fn func(transfer.Transfer) error) error
}

// Commissions lists the commission settlements and sums the hits one
// credited.
type Commissions interface {
	List(ctx context.Context, f settlement.Filter) ([]settlement.Settlement, error)
	Credited(ctx context.Context, s settlement.Settlement) (settlement.Accrual, error)
}

// Users lists the accounts and rereads one.
type Users interface {
	IDs(ctx context.Context) ([]uint64, error)
	ByID(ctx context.Context, id uint64) (*user.User, error)
}

// Ledger visits an account's entries.
type Ledger interface {
	ForEachByUser(ctx context.Context, userID uint64, fn func(ledger.Entry) error) error
}

// Hits visits an account's hits and reads a payout's.
type Hits interface {
	ForEachByUser(ctx context.Context, userID uint64, fn func(hitlog.Hit) error) error
	ByRequestID(ctx context.Context, requestID string) (*hitlog.Hit, error)
}

// Holds are an account's open holds.
type Holds interface {
	ByUser(ctx context.Context, userID uint64) ([]hold.Hold, error)
}

// Payments visits an account's payments and rereads one.
type Payments interface {
	ForEachByUser(ctx context.Context, userID uint64, fn func(payment.Payment) error) error
	ByID(ctx context.Context, id uint64) (*payment.Payment, error)
}

// Recharges visits an account's recharges and rereads one.
type Recharges interface {
	ForEachByUser(ctx context.Context, userID uint64, fn func(recharge.Recharge) error) error
	ByID(ctx context.Context, id uint64) (*recharge.Recharge, error)
}

// Payouts visits an account's payouts and rereads one.
type Payouts interface {
	ForEachByUser(ctx context.Context, userID uint64, fn func(payout.Payout) error) error
	ByID(ctx context.Context, id uint64) (*payout.Payout, error)
}

// Refunds visits a merchant's refunds, rereads one and lists a payment's.
type Refunds interface {
	ForEachByUser(ctx context.Context, userID uint64, fn func(payment.Refund) error) error
	ByID(ctx context.Context, id uint64) (*payment.Refund, error)
	ByPayment(ctx context.Context, paymentID uint64) ([]payment.Refund, error)
}

// Reports are the usage roll-ups, hourly and daily.
type Reports interface {
	Hours(ctx context.Context, from, to time.Time, userID *uint64, perUser bool) ([]report.HourRow, error)
	ClosedDays(ctx context.Context, zone, first, last string) (map[string]bool, error)
	Rollups(ctx context.Context, zone, first, last string, userID *uint64) ([]report.Row, error)
}

// Subscriptions are an account's subscription and its charged periods.
type Subscriptions interface {
	ByUser(ctx context.Context, userID uint64) (*plan.Subscription, error)
	Periods(ctx context.Context, userID uint64) ([]plan.Period, error)
}

// Invoices lists an account's documents, reads one and the charges a
// month's invoice sums.
type Invoices interface {
	List(ctx context.Context, f invoice.Filter) ([]invoice.Invoice, int64, error)
	ByID(ctx context.Context, id uint64) (*invoice.Invoice, error)
	Charges(ctx context.Context, userID uint64, from, to time.Time) ([]invoice.Charge, error)
	CustomerCharges(ctx context.Context, resellerID uint64, from, to time.Time) ([]invoice.Charge, error)
	MonthDone(ctx context.Context, month string) (bool, error)
}
