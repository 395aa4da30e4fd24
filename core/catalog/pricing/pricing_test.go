package pricing

import (
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestChargePicksColumnByRoleAndMinimum(t *testing.T) {
	p := Price{AdminCost: d("0.4000"), UserPrice: d("1.2345"), ResellerPrice: d("0.8000"), MinimumHitCharge: d("0.50")}
	cases := map[user.Role]string{user.RoleUser: "1.23", user.RoleReseller: "0.80", user.RoleAdmin: "0.50"}
	for role, want := range cases {
		if got := p.Charge(role); !got.Equal(d(want)) {
			t.Errorf("%s: %s, want %s", role, got, want)
		}
	}
	half := Price{UserPrice: d("0.0050")}
	if got := half.Charge(user.RoleUser); !got.Equal(d("0.01")) {
		t.Errorf("half-up rounding: %s", got)
	}
}

func TestValidate(t *testing.T) {
	bad := []Price{
		{UserPrice: d("-1")},
		{UserPrice: d("0.00001")},
		{AdminCost: d("1000000")},
		{MinimumHitCharge: d("0.001")},
		{Status: "paused"},
		{UserPrice: d("999999.9999")},       // fits its column, but charges 1000000.00: no hit column holds it
		{MinimumHitCharge: d("1000000.00")}, // every role's charge would be at least this
	}
	for i, p := range bad {
		if err := p.Validate(); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
	ok := Price{UserPrice: d("999999.9949"), ResellerPrice: d("999999.99"), MinimumHitCharge: d("999999.99")}
	if err := ok.Validate(); err != nil || ok.Status != StatusActive {
		t.Errorf("valid row refused: %v", err)
	}
}
