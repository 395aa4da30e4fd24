package issuing

import (
	"context"
	"fmt"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/plan"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

// MaxStatementPDF is the most entries a statement's PDF holds; a longer
// month is read as CSV.
const MaxStatementPDF = 10_000

// ErrStatementTooLong refuses a PDF of a month with more entries.
var ErrStatementTooLong = errs.E(errs.Invalid, "statement_too_long",
	fmt.Sprintf("The month has more than %d entries: download the statement as CSV", MaxStatementPDF))

// StatementOf is the account whose statement (or draft invoice) actor may
// read: their own, or any account for an admin (userID 0: their own).
func StatementOf(actor *user.User, userID uint64) uint64 {
	if actor.Role != user.RoleAdmin || userID == 0 {
		return actor.ID
	}
	return userID
}

// Statement walks userID's ledger entries of month, oldest first, calling
// fn for each (nil: none), and returns the statement without its entries:
// the opening balance (the balance before the month's first entry, or
// after the last entry before the month), the month's credits and debits,
// and the closing balance (the balance after the month's last entry).
func (v *Invoicing) Statement(ctx context.Context, userID uint64, month string, fn func(ledger.Entry) error) (*invoice.Statement, int, error) {
	start, end, err := plan.Bounds(month, v.cfg.Location)
	if err != nil {
		fe := errs.FieldErrors{}
		fe.Add("month", "must be a month, YYYY-MM")
		return nil, 0, fe.Err()
	}
	if err := v.settled(ctx); err != nil {
		return nil, 0, err
	}
	u, err := v.s.Users.ByID(ctx, userID)
	if err != nil {
		return nil, 0, err
	}
	sup, err := v.shownSupplier(ctx, u) // a reseller's customer's is its reseller's
	if err != nil {
		return nil, 0, err
	}
	rcp, err := v.parties.Recipient(ctx, v.s.Profiles, u)
	if err != nil {
		return nil, 0, err
	}
	st := &invoice.Statement{Month: month, From: start, To: end, Supplier: sup.Party, Account: rcp, AccountID: userID,
		GeneratedAt: v.now().UTC()}
	// The opening balance: after the last entry before the month.
	last := end.Add(-time.Nanosecond)
	before := start.Add(-time.Nanosecond)
	prev, _, err := v.s.Ledger.List(ctx, ledger.Filter{UserID: &userID, To: &before, Page: 1, PerPage: 1})
	if err != nil {
		return nil, 0, err
	}
	if len(prev) == 1 {
		st.Opening = prev[0].BalanceAfter
	}
	n := 0
	err = v.s.Ledger.ForEach(ctx, ledger.Filter{UserID: &userID, From: &start, To: &last, Oldest: true}, func(e ledger.Entry) error {
		if n == 0 {
			st.Opening = e.BalanceBefore
		}
		n++
		if e.Type == ledger.Debit {
			st.Debits = st.Debits.Add(e.Amount)
		} else {
			st.Credits = st.Credits.Add(e.Amount)
		}
		st.Closing = e.BalanceAfter
		if fn != nil {
			return fn(e)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if n == 0 {
		st.Closing = st.Opening
	}
	return st, n, nil
}

// StatementPDF is userID's statement of month as PDF, its entries
// included; a month of more than MaxStatementPDF entries is refused.
func (v *Invoicing) StatementPDF(ctx context.Context, userID uint64, month string) ([]byte, error) {
	if v.renderer == nil {
		return nil, errs.ErrUnavailable
	}
	var entries []invoice.StatementEntry
	st, _, err := v.Statement(ctx, userID, month, func(e ledger.Entry) error {
		if len(entries) == MaxStatementPDF {
			return ErrStatementTooLong
		}
		ref := e.ReferenceType
		if e.ReferenceID != nil {
			ref = fmt.Sprintf("%s %d", e.ReferenceType, *e.ReferenceID)
		}
		entries = append(entries, invoice.StatementEntry{At: e.CreatedAt, Type: string(e.Type), Reference: ref,
			Description: e.Description, Amount: e.Amount, BalanceAfter: e.BalanceAfter})
		return nil
	})
	if err != nil {
		return nil, err
	}
	st.Entries = entries
	return v.renderer.Statement(ctx, st, v.cfg.Location)
}
