// Package ledger records every balance movement with the balance before and after.
package ledger

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"math/bits"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
)

type Type string

const (
	Credit Type = "credit"
	Debit  Type = "debit"
	Refund Type = "refund"
)

func (t Type) Valid() bool { return t == Credit || t == Debit || t == Refund }

// Reference types.
const (
	RefAPIHit         = "api_hit"
	RefBalanceRequest = "balance_request"
	RefAdjustment     = "adjustment"
	RefRecharge       = "recharge"
	// RefRefund: a payment refund's debit of the merchant, and the
	// refund-type entry giving it back when the refund fails.
	RefRefund     = "refund"
	RefPayment    = "payment"     // a successful payment's credit
	RefPaymentFee = "payment_fee" // the collection fee debited with it
	// RefPayout: a payout's amount, debited when it is accepted and
	// refunded when it fails or is reversed.
	RefPayout = "payout"
	// RefPayoutFee: the refund of a failed payout's fee (the fee itself is
	// the payout-transfer call's charge, reference_type api_hit).
	RefPayoutFee = "payout_fee"
	// RefPlanFee: a subscription period's fee (reference_id: the
	// subscription_periods row).
	RefPlanFee = "plan_fee"
	// RefTransfer: money moved between a reseller and its customer, a debit
	// on the paying side and a credit on the other (reference_id: the
	// transfers row).
	RefTransfer = "transfer"
	// RefCommission: a reseller's hourly commission credit, and the debit
	// that takes a reversed commission back (reference_id: the
	// commission_settlements row).
	RefCommission = "commission"
)

// Entry is one ledger row.
type Entry struct {
	ID            uint64
	UserID        uint64
	TxnID         string
	Type          Type
	Amount        decimal.Decimal
	BalanceBefore decimal.Decimal
	BalanceAfter  decimal.Decimal
	ReferenceType string
	ReferenceID   *uint64
	Description   string
	Status        string // completed
	CreatedAt     time.Time
}

var (
	ErrInsufficientBalance = errs.E(errs.InsufficientFunds, "insufficient_balance", "Insufficient balance")
	ErrInvalidAmount       = errs.E(errs.Invalid, "invalid_amount", "Amount must be greater than zero")
)

// Apply returns the balance after moving amount of type t. Debits never take
// a balance below zero.
func Apply(before decimal.Decimal, t Type, amount decimal.Decimal) (decimal.Decimal, error) {
	if !amount.IsPositive() {
		return before, ErrInvalidAmount
	}
	switch t {
	case Credit, Refund:
		return before.Add(amount), nil
	case Debit:
		after := before.Sub(amount)
		if after.IsNegative() {
			return before, ErrInsufficientBalance
		}
		return after, nil
	}
	return before, errs.E(errs.Invalid, "invalid_type", "Unknown ledger entry type")
}

// NewTxnID returns "TXN" followed by 39 digits: a ULID written in decimal, so
// ids sort by time and are unique across instances.
func NewTxnID(now time.Time) string {
	return txnIDOf(ulid.MustNew(ulid.Timestamp(now), rand.Reader))
}

// txnIDOf writes id's 128 bits as 39 decimal digits (2^128 < 10^39) after
// "TXN", with two 128-by-64-bit divisions by 10^19 instead of big.Int (a
// ledger row is written for every metered call).
func txnIDOf(id ulid.ULID) string {
	const e19 = 10_000_000_000_000_000_000
	hi, lo := binary.BigEndian.Uint64(id[:8]), binary.BigEndian.Uint64(id[8:])
	// hi·2^64 + lo = (top·2^64 + q0)·10^19 + r0, with top ≤ 1.
	top, rem := hi/e19, hi%e19
	q0, r0 := bits.Div64(rem, lo, e19)
	// (top, q0) = d·10^19 + r1 with d < 10 (the value is below 10^39).
	d, r1 := bits.Div64(top, q0, e19)
	var b [3 + 39]byte
	copy(b[:], "TXN")
	b[3] = byte('0' + d)
	putDigits19(b[4:23], r1)
	putDigits19(b[23:], r0)
	return string(b[:])
}

// putDigits19 writes v (< 10^19) as exactly 19 digits into b.
func putDigits19(b []byte, v uint64) {
	for i := 18; i >= 0; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
}

// ListWindow is how many rows a list counts and pages through (see
// hitlog.ListWindow): older entries are reached by narrowing the date range.
const ListWindow = 10_000

// Filter selects entries in a list. From and To are inclusive bounds on created_at.
type Filter struct {
	UserID        *uint64
	Type          Type
	ReferenceType string
	From          *time.Time
	To            *time.Time
	Page          int
	PerPage       int
	// Oldest makes ForEach visit in id order, oldest first (a statement);
	// List ignores it.
	Oldest bool
}

// Repository stores ledger entries.
type Repository interface {
	Insert(ctx context.Context, e *Entry) error
	// InsertMany inserts entries in their order (ids ascending in that
	// order) in as few statements as it can.
	InsertMany(ctx context.Context, entries []*Entry) error
	// List returns a page newest first (id descending: the order in which the
	// balance changed) and the number of matching rows, counted up to
	// ListWindow+1: a total above ListWindow means "more than ListWindow".
	List(ctx context.Context, f Filter) ([]Entry, int64, error)
	// ForEach visits every entry matching f (its page fields ignored) in
	// List's order, one row at a time.
	ForEach(ctx context.Context, f Filter, fn func(Entry) error) error
	// ForEachByUser visits a user's entries in id order without loading them all.
	ForEachByUser(ctx context.Context, userID uint64, fn func(Entry) error) error
}
