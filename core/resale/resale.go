// Package resale holds what a reseller earns on its customers' calls: the
// commission each billed hit carries (hitlog.Hit.Commission) is credited
// to the reseller once per closed local hour by a Settlement (decisions
// "Resellers: commission settlement").
package resale

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/errs"
)

// RefCommission is the reference_type of a settlement's ledger credit
// (reference_id: the commission_settlements row).
const RefCommission = "commission"

// Settlement is one reseller's commissions of one local hour, credited.
type Settlement struct {
	ID            uint64
	ResellerID    uint64
	HourStart     time.Time // UTC instant the local hour began
	Hits          int       // the successful hits whose commission it sums
	Amount        decimal.Decimal
	TransactionID *uint64 // the ledger credit
	CreatedAt     time.Time
}

// Accrual is what a reseller's customers' hits of a span earned: the sum of
// commission of the successful ones, how many, and how many may still
// change or appear: hits pending (reserved, not settled) and the
// customers' open holds taken before the span's end (a call on a hold
// writes its hit after answering, dated when it started).
type Accrual struct {
	Hits    int
	Amount  decimal.Decimal
	Pending int
}

// ErrAlreadySettled: a settlement of this reseller and hour exists (the
// unique key); the transaction that met it rolls back.
var ErrAlreadySettled = errs.E(errs.Conflict, "commission_already_settled", "This hour's commission is already settled")

// Filter selects a reseller's settlements by hour_start (From inclusive,
// To exclusive; nil is open), and a page of them: Limit rows after the
// first Offset (Limit 0: every row).
type Filter struct {
	ResellerID    *uint64
	From, To      *time.Time
	Offset, Limit int
}

// Settlements stores commission settlements and sums the hits they credit.
type Settlements interface {
	// Resellers lists the ids of users who have customers, ascending.
	Resellers(ctx context.Context) ([]uint64, error)
	// NextHitAt is the created_at of the earliest hit of resellerID's
	// customers in [from, before); nil when none.
	NextHitAt(ctx context.Context, resellerID uint64, from, before time.Time) (*time.Time, error)
	// Accrued sums resellerID's customers' hits created in [from, to).
	Accrued(ctx context.Context, resellerID uint64, from, to time.Time) (Accrual, error)
	// Insert writes s and sets its id; ErrAlreadySettled when the reseller's
	// hour is settled (inside a transaction the caller rolls back).
	Insert(ctx context.Context, s *Settlement) error
	// SetTransaction records the ledger credit of settlement id.
	SetTransaction(ctx context.Context, id, transactionID uint64) error
	// List returns the settlements matching f, hour_start then id ascending.
	List(ctx context.Context, f Filter) ([]Settlement, error)
	// Count is how many settlements match f (its Offset and Limit aside).
	Count(ctx context.Context, f Filter) (int64, error)
}
