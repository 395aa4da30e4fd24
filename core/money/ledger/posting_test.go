package ledger_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/money/ledger"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestLowBalanceCrossing(t *testing.T) {
	at := func(s string) *user.User { d := dec(s); return &user.User{LowBalanceAlert: &d} }
	for _, c := range []struct {
		name          string
		u             *user.User
		before, after string
		want          bool
	}{
		{"falls below", at("100.00"), "150.00", "99.99", true},
		{"from exactly the threshold", at("100.00"), "100.00", "99.00", true},
		{"down to the threshold is not below", at("100.00"), "150.00", "100.00", false},
		{"already below", at("100.00"), "99.00", "50.00", false},
		{"a credit", at("100.00"), "50.00", "120.00", false},
		{"no threshold", &user.User{}, "150.00", "0.00", false},
		{"threshold 0 never fires", at("0.00"), "1.00", "0.00", false},
	} {
		e := &ledger.Entry{BalanceBefore: dec(c.before), BalanceAfter: dec(c.after)}
		if got := ledger.CrossesLow(c.u, e); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTotalSpentCountsSpendingOnly: a debit for something bought raises
// total_spent and its refund lowers it; moving money to a customer and a
// commission taken back from a reseller buy nothing.
func TestTotalSpentCountsSpendingOnly(t *testing.T) {
	for _, c := range []struct {
		typ     ledger.Type
		refType string
		want    string
	}{
		{ledger.Debit, ledger.RefAPIHit, "15.00"},
		{ledger.Debit, ledger.RefPlanFee, "15.00"},
		{ledger.Debit, ledger.RefTransfer, "10.00"},
		{ledger.Debit, ledger.RefCommission, "10.00"},
		{ledger.Refund, ledger.RefRefund, "5.00"},
		{ledger.Credit, ledger.RefCommission, "10.00"},
	} {
		u := &user.User{Balance: dec("100.00"), TotalSpent: dec("10.00")}
		if _, err := ledger.NewEntry(u, c.typ, dec("5.00"), c.refType, nil, "", time.Now()); err != nil {
			t.Fatal(err)
		}
		if !u.TotalSpent.Equal(dec(c.want)) {
			t.Errorf("%s %s: total_spent %s, want %s", c.typ, c.refType, u.TotalSpent, c.want)
		}
	}
}
