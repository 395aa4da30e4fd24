package ledger

import (
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
)

// NewEntry moves u's balance by one entry and returns the entry, not yet
// written. A debit never takes the balance below the money held for
// metered calls (a charge from a hold lowers u.HeldAmount first).
func NewEntry(u *user.User, t Type, amount decimal.Decimal, refType string, refID *uint64, description string, now time.Time) (*Entry, error) {
	after, err := Apply(u.Balance, t, amount)
	if err != nil {
		return nil, err
	}
	if t == Debit && after.LessThan(u.HeldAmount) {
		return nil, ErrInsufficientBalance
	}
	now = now.UTC()
	e := &Entry{
		UserID:        u.ID,
		TxnID:         NewTxnID(now),
		Type:          t,
		Amount:        amount,
		BalanceBefore: u.Balance,
		BalanceAfter:  after,
		ReferenceType: refType,
		ReferenceID:   refID,
		Description:   description,
		Status:        "completed",
		CreatedAt:     now,
	}
	u.Balance = after
	switch t {
	case Debit:
		// Money moved to or from a reseller's customer, and a commission
		// taken back, buy nothing: neither is spending.
		if refType != RefTransfer && refType != RefCommission {
			u.TotalSpent = u.TotalSpent.Add(amount)
		}
	case Refund:
		u.TotalSpent = decimal.Max(decimal.Zero, u.TotalSpent.Sub(amount))
	}
	return e, nil
}

// CrossesLow reports e taking u's balance below u's low-balance threshold:
// from at least the threshold to strictly below it. Equal to the threshold
// is not low; a balance that stays below fires nothing more until a credit
// lifts it to the threshold again (edge-triggered).
func CrossesLow(u *user.User, e *Entry) bool {
	t := u.LowBalanceAlert
	return t != nil && t.IsPositive() && !e.BalanceBefore.LessThan(*t) && e.BalanceAfter.LessThan(*t)
}
