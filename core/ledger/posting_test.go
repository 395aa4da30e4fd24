package ledger_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/ledger"
	"paygate/core/user"
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
