package user

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"
)

func limitsOf(payout, fee string) Limits {
	return Limits{DailyPayoutLimit: decimal.RequireFromString(payout), CollectionFeePercent: decimal.RequireFromString(fee)}
}

// A customer is bound by the stricter of its own limits and its
// reseller's, each limit on its own; anyone else by its own.
func TestEffectiveLimits(t *testing.T) {
	resellerID := uint64(10)
	other := uint64(20)
	cases := []struct {
		name             string
		own, reseller    Limits
		parent           *uint64
		noReseller       bool
		wantPayout, want string // want: the fee
	}{
		{"customer looser in both: the reseller's", limitsOf("200000", "0"), limitsOf("0", "5"), &resellerID, false, "0", "5"},
		{"customer stricter in both: its own", limitsOf("100", "7.5"), limitsOf("5000", "2"), &resellerID, false, "100", "7.5"},
		{"mixed: the stricter of each", limitsOf("100", "1"), limitsOf("5000", "2"), &resellerID, false, "100", "2"},
		{"equal", limitsOf("300", "3"), limitsOf("300", "3"), &resellerID, false, "300", "3"},
		{"not a customer: its own", limitsOf("200000", "0"), limitsOf("0", "5"), nil, false, "200000", "0"},
		{"another reseller's row is not its bound", limitsOf("200000", "0"), limitsOf("0", "5"), &other, false, "200000", "0"},
		{"reseller not given: its own", limitsOf("200000", "0"), limitsOf("0", "5"), &resellerID, true, "200000", "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := &User{ID: 11, ParentID: c.parent, DailyPayoutLimit: c.own.DailyPayoutLimit, CollectionFeePercent: c.own.CollectionFeePercent}
			var r *User
			if !c.noReseller {
				r = &User{ID: resellerID, Role: RoleReseller, DailyPayoutLimit: c.reseller.DailyPayoutLimit, CollectionFeePercent: c.reseller.CollectionFeePercent}
			}
			got := EffectiveLimits(u, r)
			if !got.DailyPayoutLimit.Equal(decimal.RequireFromString(c.wantPayout)) || !got.CollectionFeePercent.Equal(decimal.RequireFromString(c.want)) {
				t.Errorf("effective %s / %s%%, want %s / %s%%", got.DailyPayoutLimit, got.CollectionFeePercent, c.wantPayout, c.want)
			}
		})
	}
}

// A reseller may set a customer's limits as strict as it likes, never
// looser than its own: a payout limit above its own, a fee below its own.
func TestLooserThan(t *testing.T) {
	bound := limitsOf("1000", "2.5")
	cases := []struct {
		name   string
		l      Limits
		fields []string
	}{
		{"same", limitsOf("1000", "2.5"), nil},
		{"stricter in both", limitsOf("0", "100"), nil},
		{"payout limit one paisa above", limitsOf("1000.01", "2.5"), []string{"daily_payout_limit"}},
		{"fee one hundredth below", limitsOf("1000", "2.49"), []string{"collection_fee_percent"}},
		{"both looser", limitsOf("200000", "0"), []string{"collection_fee_percent", "daily_payout_limit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fe := c.l.LooserThan(bound)
			var got []string
			for k := range fe {
				got = append(got, k)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.fields) {
				t.Errorf("looser fields %v, want %v", got, c.fields)
			}
		})
	}
}
