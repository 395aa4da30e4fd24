package app

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"paygate/core/errs"
	"paygate/core/ledger"
	"paygate/core/user"
)

// post moves u's balance by one ledger entry. u must have been read with
// LockByID in the same transaction; the caller saves u with SaveBalance.
// An entry that takes the balance below u's threshold writes balance.low.
func (a *App) post(ctx context.Context, s Stores, u *user.User, t ledger.Type, amount decimal.Decimal,
	refType string, refID *uint64, description string) (*ledger.Entry, error) {
	e, err := a.newEntry(u, t, amount, refType, refID, description)
	if err != nil {
		return nil, err
	}
	if err := s.Ledger.Insert(ctx, e); err != nil {
		return nil, fmt.Errorf("insert ledger entry: %w", err)
	}
	if lowBalanceCrossed(u, e) {
		if err := a.emitLowBalance(ctx, s, u, e); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// newEntry moves u's balance by one ledger entry and returns the entry, not
// yet written (the metering batch inserts many at once). A debit never
// takes the balance below the money held for metered calls.
func (a *App) newEntry(u *user.User, t ledger.Type, amount decimal.Decimal,
	refType string, refID *uint64, description string) (*ledger.Entry, error) {
	after, err := ledger.Apply(u.Balance, t, amount)
	if err != nil {
		return nil, err
	}
	if t == ledger.Debit && after.LessThan(u.HeldAmount) {
		// The held money belongs to metered calls under way: a charge from
		// a hold lowers HeldAmount first (holds.go).
		return nil, ledger.ErrInsufficientBalance
	}
	now := a.now().UTC()
	e := &ledger.Entry{
		UserID:        u.ID,
		TxnID:         ledger.NewTxnID(now),
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
	case ledger.Debit:
		u.TotalSpent = u.TotalSpent.Add(amount)
	case ledger.Refund:
		u.TotalSpent = decimal.Max(decimal.Zero, u.TotalSpent.Sub(amount))
	}
	return e, nil
}

// errBalanceTooLarge: a credit would not fit the balance's DECIMAL(12,2)
// (balance requests, admin adjustments).
var errBalanceTooLarge = errs.E(errs.Invalid, "balance_too_large", "The balance would exceed its maximum")
