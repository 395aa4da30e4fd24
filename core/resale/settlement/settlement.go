// Package settlement holds what a reseller earns on its customers' calls: the
// commission each billed hit carries (hitlog.Hit.Commission) is credited
// to the reseller once per closed UTC hour by a Settlement, which marks
// the hits it counted (hitlog.Hit.CommissionSettlementID), so no hit is
// ever credited twice, whatever hour an instance keys by (decisions
// "Resellers: commission settlement").
//
// A refund of a hit's billed charge cancels its commission in the refund's
// transaction (Settlements.CancelHit): the hit's commission becomes zero, and when a
// settlement had credited it already, the settlement records it as
// Reversed; the next settlement run debits it back (reference_type
// commission) as far as the reseller's available balance allows, and
// carries the rest (Due) to later runs.
package settlement

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

// HourStart is the start of the UTC hour holding t: the key of a
// settlement, whatever the instance's TIMEZONE (displays convert it).
func HourStart(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

// RefCommission is the reference_type of a settlement's ledger credit and
// of the debits that take its reversals back (reference_id: the
// commission_settlements row).
const RefCommission = ledger.RefCommission

// Settlement is one reseller's commissions of one UTC hour, credited.
// Settlements written before hours were UTC are keyed by a local hour
// start; their hits are marked like any other's, so neither kind of hour
// counts a hit the other counted.
type Settlement struct {
	ID            uint64
	ResellerID    uint64
	HourStart     time.Time // the hour's start (UTC)
	Hits          int       // the successful hits whose commission it sums
	Amount        decimal.Decimal
	TransactionID *uint64 // the ledger credit
	// Reversed is the commission (4 places) of its hits whose charge was
	// refunded after it credited them; ReversalTaken is what settlement
	// runs have debited back of it so far (2 places).
	Reversed      decimal.Decimal
	ReversalTaken decimal.Decimal
	CreatedAt     time.Time
}

// Due is the reversal still to take back from the reseller: Reversed, to
// the paisa, less what was taken (never negative).
func (s Settlement) Due() decimal.Decimal {
	return decimal.Max(decimal.Zero, s.Reversed.Round(2).Sub(s.ReversalTaken))
}

// Take is how much of due a reseller with available money gives back now:
// all of it, or as much as it has (never a negative balance); the rest is
// carried to a later settlement run.
func Take(due, available decimal.Decimal) decimal.Decimal {
	return decimal.Max(decimal.Zero, decimal.Min(due, available.Round(2)))
}

// Cancelled is what CancelHit did to one hit's commission.
type Cancelled struct {
	Amount       decimal.Decimal // the commission cancelled (zero: none to cancel)
	ResellerID   uint64
	SettlementID *uint64 // the settlement that had credited it, which now records it reversed
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
	// Resellers lists the ids of users who have customers or a reversal
	// Due, ascending.
	Resellers(ctx context.Context) ([]uint64, error)
	// NextHitAt is the created_at of the earliest hit of resellerID's
	// customers in [from, before); nil when none.
	NextHitAt(ctx context.Context, resellerID uint64, from, before time.Time) (*time.Time, error)
	// Accrued sums resellerID's customers' successful hits created in
	// [from, to) that no settlement counted yet, and counts the pending ones.
	Accrued(ctx context.Context, resellerID uint64, from, to time.Time) (Accrual, error)
	// Insert writes s and sets its id; ErrAlreadySettled when the reseller's
	// hour is settled (inside a transaction the caller rolls back).
	Insert(ctx context.Context, s *Settlement) error
	// Claim marks resellerID's customers' successful hits of [from, to)
	// that no settlement counted, with a commission other than zero, as
	// counted by settlementID, and sums them. In the settlement's
	// transaction: the marked hits stay locked to its end, so a refund's
	// CancelHit of one of them waits and then sees it credited.
	Claim(ctx context.Context, settlementID, resellerID uint64, from, to time.Time) (Accrual, error)
	// SetCredit records settlement s's Hits, Amount and TransactionID.
	SetCredit(ctx context.Context, s *Settlement) error
	// Credited sums the hits settlement s counted (Claim), by their
	// commission now: a refunded one counts zero.
	Credited(ctx context.Context, s Settlement) (Accrual, error)
	// CancelHit zeroes hit hitID's commission and, when a settlement
	// counted it, adds it to that settlement's Reversed, in the caller's
	// transaction (the hit's row locked first). Cancelled.Amount is zero
	// when the hit had no commission (or is not a reseller's customer's).
	CancelHit(ctx context.Context, hitID uint64) (Cancelled, error)
	// Owed lists resellerID's settlements with a reversal Due, hour_start
	// ascending, locking them (in the caller's transaction).
	Owed(ctx context.Context, resellerID uint64) ([]Settlement, error)
	// TakeReversal adds amount to settlement id's ReversalTaken.
	TakeReversal(ctx context.Context, id uint64, amount decimal.Decimal) error
	// List returns the settlements matching f, hour_start then id ascending.
	List(ctx context.Context, f Filter) ([]Settlement, error)
	// Count is how many settlements match f (its Offset and Limit aside).
	Count(ctx context.Context, f Filter) (int64, error)
}
