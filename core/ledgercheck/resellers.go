package ledgercheck

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/ledger"
	"paygate/core/resale"
	"paygate/core/transfer"
)

// crossLegs are the ledger entries that reference a transfer or a
// commission settlement, by reference type and id, gathered from every
// account's walk.
type crossLegs struct {
	byRef map[string]map[uint64][]ledger.Entry
}

func newCrossLegs() *crossLegs {
	return &crossLegs{byRef: map[string]map[uint64][]ledger.Entry{ledger.RefTransfer: {}, resale.RefCommission: {}}}
}

func (l *crossLegs) add(es []ledger.Entry) {
	for _, e := range es {
		l.byRef[e.ReferenceType][*e.ReferenceID] = append(l.byRef[e.ReferenceType][*e.ReferenceID], e)
	}
}

// checkResellers proves (decisions "Resellers: the ledger check and events"): every transfer balances to
// zero (one debit of its amount on the paying side, one credit of it on
// the other, nothing else); every commission settlement equals the
// commission of its reseller's customers' successful hits of its hour and
// was credited once to the reseller; and no entry references a transfer
// or a settlement that does not exist.
func (c *Checker) checkResellers(ctx context.Context, legs *crossLegs) ([]Discrepancy, error) {
	var out []Discrepancy
	bad := func(userID uint64, format string, args ...any) {
		out = append(out, Discrepancy{UserID: userID, What: fmt.Sprintf(format, args...)})
	}
	if c.st.Transfers != nil {
		seen := map[uint64]bool{}
		err := c.st.Transfers.ForEach(ctx, func(t transfer.Transfer) error {
			seen[t.ID] = true
			payer, payee := t.ResellerID, t.CustomerID
			if t.Direction == transfer.FromCustomer {
				payer, payee = t.CustomerID, t.ResellerID
			}
			checkLegs(legs.byRef[ledger.RefTransfer][t.ID], t.Amount, []leg{{payer, ledger.Debit}, {payee, ledger.Credit}},
				func(format string, args ...any) {
					bad(t.ResellerID, "transfer %d: "+format, append([]any{t.ID}, args...)...)
				})
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("read transfers: %w", err)
		}
		orphans(legs.byRef[ledger.RefTransfer], seen, "transfer", bad)
	}
	if c.st.Commissions != nil {
		list, err := c.st.Commissions.List(ctx, resale.Filter{})
		if err != nil {
			return out, fmt.Errorf("read commission settlements: %w", err)
		}
		seen := map[uint64]bool{}
		for _, s := range list {
			seen[s.ID] = true
			a, err := c.st.Commissions.Accrued(ctx, s.ResellerID, s.HourStart, s.HourStart.Add(time.Hour))
			if err != nil {
				return out, fmt.Errorf("sum the hits of settlement %d: %w", s.ID, err)
			}
			if !a.Amount.Equal(s.Amount) || a.Pending > 0 {
				bad(s.ResellerID, "commission settlement %d of %s credits %s, its hits earned %s (%d pending)",
					s.ID, s.HourStart.Format(time.RFC3339), s.Amount.StringFixed(2), a.Amount.StringFixed(2), a.Pending)
			}
			checkLegs(legs.byRef[resale.RefCommission][s.ID], s.Amount, []leg{{s.ResellerID, ledger.Credit}},
				func(format string, args ...any) {
					bad(s.ResellerID, "commission settlement %d: "+format, append([]any{s.ID}, args...)...)
				})
		}
		orphans(legs.byRef[resale.RefCommission], seen, "commission settlement", bad)
	}
	return out, nil
}

// leg is one entry an operation must have written: its account and type.
type leg struct {
	userID uint64
	typ    ledger.Type
}

// checkLegs reports unless got are exactly want's entries, each of amount.
func checkLegs(got []ledger.Entry, amount decimal.Decimal, want []leg, bad func(string, ...any)) {
	left := append([]leg(nil), want...)
	for _, e := range got {
		i := -1
		for j, l := range left {
			if l.userID == e.UserID && l.typ == e.Type {
				i = j
				break
			}
		}
		if i < 0 {
			bad("unexpected %s of %s on user %d (%s)", e.Type, e.Amount.StringFixed(2), e.UserID, e.TxnID)
			continue
		}
		if !e.Amount.Equal(amount) {
			bad("%s on user %d is %s, not %s", e.Type, e.UserID, e.Amount.StringFixed(2), amount.StringFixed(2))
		}
		left = append(left[:i], left[i+1:]...)
	}
	for _, l := range left {
		bad("no %s of %s on user %d", l.typ, amount.StringFixed(2), l.userID)
	}
}

// orphans reports entries referencing a row that does not exist.
func orphans(byID map[uint64][]ledger.Entry, seen map[uint64]bool, what string, bad func(uint64, string, ...any)) {
	for id, es := range byID {
		if !seen[id] {
			for _, e := range es {
				bad(e.UserID, "%s: reference %s id %d, which does not exist", e.TxnID, what, id)
			}
		}
	}
}
