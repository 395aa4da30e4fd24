package gateway

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/gateway/accountopen"
	"paygate/core/gateway/beneficiary"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
)

// Stores are the repositories the gateway calls outside a transaction:
// reads, a replay's lookups, the workers' claims and the writes of a
// metered operation's Perform. A transaction (the Transactor's, also an
// operation's reservation) gets store.Stores.
type Stores struct {
	Users         Users
	Services      Catalog
	Ledger        Ledger
	Payments      Payments
	Idempotency   Idempotency
	Refunds       Refunds
	RefundKeys    RefundKeys
	Recharges     Recharges
	Payouts       Payouts
	Verifications Verifications
	Openings      Openings
	Keys          Keys
	Beneficiaries Beneficiaries
}

// Keys reads the key a panel payout names.
type Keys interface {
	ByID(ctx context.Context, id uint64) (*apikey.Key, error)
}

// Beneficiaries are the saved payees of the panel's payouts (all of the
// domain's repository).
type Beneficiaries = beneficiary.Repository

// StoresOf are the repositories of st the gateway calls outside a
// transaction, with the two no transaction needs (wired apart from
// store.Stores): the verification records and the saved beneficiaries.
func StoresOf(st store.Stores, vs Verifications, bs Beneficiaries) Stores {
	return Stores{Users: st.Users, Services: st.Services, Ledger: st.Ledger,
		Payments: st.Payments, Idempotency: st.Idempotency, Refunds: st.Refunds, RefundKeys: st.RefundKeys,
		Recharges: st.Recharges, Payouts: st.Payouts, Verifications: vs, Openings: st.Openings,
		Keys: st.Keys, Beneficiaries: bs}
}

// Users reads a payment's beneficiary or a payout's sender and lists the
// accounts for the payout limits' page.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
	List(ctx context.Context, f user.Filter) ([]user.User, int64, error)
}

// Catalog finds the payout service, whose price is the payout fee.
type Catalog interface {
	BySlug(ctx context.Context, slug string) (*catalog.Service, error)
}

// Ledger lists a key owner's entries.
type Ledger interface {
	List(ctx context.Context, f ledger.Filter) ([]ledger.Entry, int64, error)
}

// Payments reads and lists payments, creates a balance checkout, holds a
// credit and finds the expirable ones.
type Payments interface {
	Create(ctx context.Context, p *payment.Payment) error
	ByID(ctx context.Context, id uint64) (*payment.Payment, error)
	ByPublicID(ctx context.Context, publicID string) (*payment.Payment, error)
	Expirable(ctx context.Context, now time.Time, limit int) ([]payment.Payment, error)
	HoldCredit(ctx context.Context, p *payment.Payment, from payment.Status) (bool, error)
	List(ctx context.Context, f payment.Filter) ([]payment.Payment, int64, error)
}

// Idempotency finds a payment request's Idempotency-Key.
type Idempotency interface {
	Find(ctx context.Context, userID uint64, key string, now time.Time) (*payment.IdempotencyKey, error)
}

// Refunds reads a refund, a payment's refunds, and claims the due ones.
type Refunds interface {
	ByID(ctx context.Context, id uint64) (*payment.Refund, error)
	ByPayment(ctx context.Context, paymentID uint64) ([]payment.Refund, error)
	Due(ctx context.Context, now time.Time, limit int) ([]payment.Refund, error)
	Claim(ctx context.Context, old, next *payment.Refund, now time.Time) (bool, error)
}

// RefundKeys finds a refund request's Idempotency-Key.
type RefundKeys interface {
	Find(ctx context.Context, userID uint64, key string, now time.Time) (*payment.RefundKey, error)
}

// Recharges reads and lists recharges, marks one submitted and claims the
// due ones.
type Recharges interface {
	ByID(ctx context.Context, id uint64) (*recharge.Recharge, error)
	ByReference(ctx context.Context, userID uint64, referenceID string) (*recharge.Recharge, error)
	MarkSubmitted(ctx context.Context, r *recharge.Recharge) (bool, error)
	Due(ctx context.Context, now time.Time, limit int) ([]recharge.Recharge, error)
	Claim(ctx context.Context, old, next *recharge.Recharge, now time.Time) (bool, error)
	List(ctx context.Context, f recharge.Filter) ([]recharge.Recharge, int64, error)
}

// Payouts reads, lists and visits payouts, sums the day's, and claims the
// due ones.
type Payouts interface {
	ByID(ctx context.Context, id uint64) (*payout.Payout, error)
	ByPublicID(ctx context.Context, publicID string) (*payout.Payout, error)
	ByReference(ctx context.Context, userID uint64, referenceID string) (*payout.Payout, error)
	CountedSince(ctx context.Context, userID uint64, since time.Time) (decimal.Decimal, error)
	CountedSinceByUser(ctx context.Context, since time.Time) (map[uint64]decimal.Decimal, error)
	CountedSinceWithCustomers(ctx context.Context, userID uint64, since time.Time) (decimal.Decimal, error)
	Due(ctx context.Context, now time.Time, limit int) ([]payout.Payout, error)
	Claim(ctx context.Context, old, next *payout.Payout, now time.Time) (bool, error)
	List(ctx context.Context, f payout.Filter) ([]payout.Payout, int64, error)
	ForEach(ctx context.Context, f payout.Filter, fn func(payout.Payout) error) error
}

// Verifications records a verification's answer.
type Verifications interface {
	Create(ctx context.Context, r *verification.Record) error
}

// Openings reads and lists account openings and claims the due ones.
type Openings interface {
	ByID(ctx context.Context, id uint64) (*accountopen.Opening, error)
	ByReference(ctx context.Context, userID uint64, referenceID string) (*accountopen.Opening, error)
	Due(ctx context.Context, now time.Time, limit int) ([]accountopen.Opening, error)
	Claim(ctx context.Context, old, next *accountopen.Opening, now time.Time) (bool, error)
	List(ctx context.Context, f accountopen.Filter) ([]accountopen.Opening, int64, error)
}
