package check

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/money/ledger"
	"paygate/core/money/transfer"
	"paygate/core/resale/settlement"
)

// crossLegs are the ledger entries that reference a transfer or a
// commission settlement, by reference type and id, gathered from every
// account's walk.
type crossLegs struct {
	byRef map[string]map[uint64][]ledger.Entry
}

func newCrossLegs() *crossLegs {
	return &crossLegs{byRef: map[string]map[uint64][]ledger.Entry{ledger.RefTransfer: {}, settlement.RefCommission: {}}}
}

func (l *crossLegs) add(es []ledger.Entry) {
	for _, e := range es {
		l.byRef[e.ReferenceType][*e.ReferenceID] = append(l.byRef[e.ReferenceType][*e.ReferenceID], e)
	}
}

// checkResellers proves (decisions "Resellers: the ledger check and events"): every transfer balances to
// zero (one debit of its amount on the paying side, one credit of it on
// the other, nothing else); every commission settlement was credited once
// to the reseller, and what it credited, less its reversals, is the
// commission of the hits it counted that are billed and not refunded
// (checkSettlement); and no entry references a transfer or a settlement
// that does not exist.
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
		list, err := c.st.Commissions.List(ctx, settlement.Filter{})
		if err != nil {
			return out, fmt.Errorf("read commission settlements: %w", err)
		}
		seen := map[uint64]bool{}
		for _, s := range list {
			seen[s.ID] = true
			bad := func(format string, args ...any) {
				bad(s.ResellerID, "commission settlement %d: "+format, append([]any{s.ID}, args...)...)
			}
			if err := c.checkSettlement(ctx, s, legs.byRef[settlement.RefCommission][s.ID], bad); err != nil {
				return out, err
			}
		}
		orphans(legs.byRef[settlement.RefCommission], seen, "commission settlement", bad)
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

// checkSettlement proves one settlement s against its ledger entries es:
// one credit of s.Amount to its reseller; s.Amount is what its hits earned
// when it counted them, i.e. their commission now (a refunded hit's is
// zero) plus the commission reversed on refunds, to the paisa; the debits
// that took reversals back total s.ReversalTaken, never more than was
// reversed. So a refund that zeroed a credited hit's commission without
// booking its reversal shows here. A refund commits its hit and its
// reversal together; a mismatch is read again once before it is reported.
func (c *Checker) checkSettlement(ctx context.Context, s settlement.Settlement, es []ledger.Entry, bad func(string, ...any)) error {
	for try := 0; ; try++ {
		a, err := c.st.Commissions.Credited(ctx, s)
		if err != nil {
			return fmt.Errorf("sum the hits of settlement %d: %w", s.ID, err)
		}
		if a.Amount.Add(s.Reversed).Round(2).Equal(s.Amount) {
			break
		}
		if try == 0 {
			if cur, err := c.settlement(ctx, s); err == nil {
				s = cur
				continue
			}
		}
		bad("of %s credits %s; its hits billed and not refunded earned %s, reversals %s",
			s.HourStart.Format(time.RFC3339), s.Amount.StringFixed(2), a.Amount.StringFixed(4), s.Reversed.StringFixed(4))
		break
	}
	var credits, debits []ledger.Entry
	taken := decimal.Zero
	for _, e := range es {
		if e.Type == ledger.Debit && e.UserID == s.ResellerID {
			debits = append(debits, e)
			taken = taken.Add(e.Amount)
			continue
		}
		credits = append(credits, e)
	}
	checkLegs(credits, s.Amount, []leg{{s.ResellerID, ledger.Credit}}, bad)
	if !taken.Equal(s.ReversalTaken) {
		bad("records %s of reversals taken back, its %d debits total %s", s.ReversalTaken.StringFixed(2), len(debits), taken.StringFixed(2))
	}
	if s.ReversalTaken.GreaterThan(s.Reversed.Round(2)) {
		bad("took back %s, more than its reversals of %s", s.ReversalTaken.StringFixed(2), s.Reversed.StringFixed(4))
	}
	return nil
}

// settlement is s as stored now.
func (c *Checker) settlement(ctx context.Context, s settlement.Settlement) (settlement.Settlement, error) {
	to := s.HourStart.Add(time.Hour)
	list, err := c.st.Commissions.List(ctx, settlement.Filter{ResellerID: &s.ResellerID, From: &s.HourStart, To: &to})
	if err != nil {
		return s, err
	}
	for _, x := range list {
		if x.ID == s.ID {
			return x, nil
		}
	}
	return s, fmt.Errorf("settlement %d is gone", s.ID)
}
