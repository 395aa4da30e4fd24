// Package hold sets money and daily calls aside for metered calls before
// they run (decisions: "Metered calls run on holds").
//
// A hold is taken in one transaction under the user's row lock: Calls calls
// of one key at Unit each are counted on the key's day and Unit × Calls is
// added to the user's held amount, which no debit may take. The calls then
// run without a database round trip of their own and are charged
// afterwards, in batches, from the hold (Used*). Releasing a hold returns
// what it did not use and deletes it.
package hold

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// Hold is one open hold (call_holds).
type Hold struct {
	ID        uint64
	UserID    uint64
	KeyID     uint64
	Day       string          // the key's local day the calls are counted on
	Unit      decimal.Decimal // the charge of one call
	Calls     int             // calls counted and paid for by the hold
	UsedCalls int             // calls charged from it so far (failed ones too)
	UsedMoney decimal.Decimal // money charged from it so far
	ExpiresAt time.Time       // no call takes from it after this
	CreatedAt time.Time
}

// Amount is the money the hold set aside.
func (h *Hold) Amount() decimal.Decimal { return h.Unit.Mul(decimal.NewFromInt(int64(h.Calls))) }

// Unused is what releasing the hold returns: its money not charged and its
// calls not made.
func (h *Hold) Unused() (decimal.Decimal, int) {
	return h.Amount().Sub(h.UsedMoney), h.Calls - h.UsedCalls
}

// Repository stores open holds. Use and Delete run inside the transaction
// that moves the money (under the user's row lock).
type Repository interface {
	Insert(ctx context.Context, h *Hold) error
	// Get reads open hold id; found is false once it was released.
	Get(ctx context.Context, id uint64) (h Hold, found bool, err error)
	// Use adds calls and money charged from hold id.
	Use(ctx context.Context, id uint64, calls int, money decimal.Decimal) error
	// Delete deletes hold id (its release) and reports whether it was
	// still there: with several instances recovering, one releases it.
	Delete(ctx context.Context, id uint64) (bool, error)
	// Expired lists up to limit holds that expired before cutoff, oldest
	// first.
	Expired(ctx context.Context, cutoff time.Time, limit int) ([]Hold, error)
	// ByUser lists the user's open holds.
	ByUser(ctx context.Context, userID uint64) ([]Hold, error)
}
