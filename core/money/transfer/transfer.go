// Package transfer is money moved between a reseller and one of its
// customers (decisions "Resellers: transfers and balance requests"): one row per move, a debit on the paying
// side and a credit on the other, both in the ledger with reference_type
// transfer and reference_id the row's id.
package transfer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Direction says which side pays.
type Direction string

const (
	ToCustomer   Direction = "to_customer"   // the reseller pays the customer
	FromCustomer Direction = "from_customer" // the customer pays the reseller back
)

func (d Direction) Valid() bool { return d == ToCustomer || d == FromCustomer }

// Transfer is one move between a reseller and its customer.
type Transfer struct {
	ID               uint64
	ResellerID       uint64
	CustomerID       uint64
	Direction        Direction
	Amount           decimal.Decimal
	IdempotencyKey   *string
	RequestHash      string // sha256 of the request's body (customer, direction, amount)
	BalanceRequestID *uint64
	CreatedAt        time.Time
}

var (
	ErrNotFound = errs.E(errs.NotFound, "transfer_not_found", "Transfer not found")
	// ErrKeyReused: the Idempotency-Key answered another request before.
	ErrKeyReused = errs.E(errs.Conflict, "idempotency_key_reused", "Idempotency-Key was already used with a different request")
	// ErrKeyTaken is what Insert answers for a (reseller, key) another
	// transfer holds (a concurrent duplicate).
	ErrKeyTaken = errs.E(errs.Conflict, "idempotency_key_taken", "Idempotency-Key is being used by another request")
)

// MaxAmount is the largest transfer (the balance column's range).
var MaxAmount = decimal.RequireFromString("9999999999.99")

// Input is a transfer as asked.
type Input struct {
	Amount    string
	Direction string
}

// Parse checks in and returns its amount and direction; field errors name
// amount and direction.
func Parse(in Input) (decimal.Decimal, Direction, error) {
	fe := errs.FieldErrors{}
	amount, ok := inr.Parse(in.Amount, 2)
	if !ok || !amount.IsPositive() || amount.GreaterThan(MaxAmount) {
		fe.Add("amount", "must be a positive amount with at most 2 decimals")
	}
	d := Direction(in.Direction)
	if !d.Valid() {
		fe.Add("direction", "must be to_customer or from_customer")
	}
	if err := fe.Err(); err != nil {
		return decimal.Zero, "", err
	}
	return amount, d, nil
}

// RequestHash is the hash a replay of the same Idempotency-Key compares.
func RequestHash(customerID uint64, d Direction, amount decimal.Decimal) string {
	h := sha256.Sum256([]byte(string(d) + "\x00" + amount.StringFixed(2) + "\x00" + decimal.NewFromUint64(customerID).String()))
	return hex.EncodeToString(h[:])
}

// Funded sums what a reseller may take back from its customer: its
// transfers to the customer less those back, without the approvals of the
// customer's balance requests (BalanceRequestID: money the customer paid
// the reseller, so the customer's own). A from_customer transfer takes at
// most this, never the customer's own money (checkouts, top-ups, refunds,
// an admin's credit).
func Funded(ts []Transfer) decimal.Decimal {
	sum := decimal.Zero
	for _, t := range ts {
		switch {
		case t.BalanceRequestID != nil:
		case t.Direction == ToCustomer:
			sum = sum.Add(t.Amount)
		case t.Direction == FromCustomer:
			sum = sum.Sub(t.Amount)
		}
	}
	return sum
}

// ErrBeyondFunded answers a from_customer transfer of more than Funded.
var ErrBeyondFunded = &errs.Error{Kind: errs.Invalid, Code: "transfer_exceeds_funded",
	Message: "A transfer from a customer takes back at most what you transferred to it and have not taken back",
	Fields:  map[string][]string{"amount": {"must be at most what you transferred to this customer and have not taken back"}}}

// Filter selects transfers in a list: a reseller's, optionally of one
// customer; newest first.
type Filter struct {
	ResellerID uint64
	CustomerID *uint64
	Page       int
	PerPage    int
}

// Repository stores transfers.
type Repository interface {
	// Insert writes t and sets its id; a (reseller, key) another row holds
	// answers ErrKeyTaken.
	Insert(ctx context.Context, t *Transfer) error
	// ByKey finds the reseller's transfer of an Idempotency-Key (ErrNotFound).
	ByKey(ctx context.Context, resellerID uint64, key string) (*Transfer, error)
	List(ctx context.Context, f Filter) ([]Transfer, int64, error)
	// Funded is what reseller has put into customer by transfers and not
	// taken back (Funded), as stored in the caller's transaction.
	Funded(ctx context.Context, resellerID, customerID uint64) (decimal.Decimal, error)
	// ForEach visits every transfer in id order (the ledger check).
	ForEach(ctx context.Context, fn func(Transfer) error) error
}
