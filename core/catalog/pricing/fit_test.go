package pricing

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"
)

// TestChargeMustFitTheHitLog: the largest charge a call can record is
// 999999.99 (DECIMAL(10, 4) columns, a charge of 2 places). A selling price
// or markup is judged by the charge Resell computes from it (its rounding,
// the reseller's own charge and the minimum charge included), so
// 999999.9999, which fits the price column, is refused: it charges
// 1000000.00 (issue 43, point 10).
func TestChargeMustFitTheHitLog(t *testing.T) {
	if MaxCharge.StringFixed(4) != "999999.9900" || !ChargeFits(MaxCharge) || ChargeFits(MaxCharge.Add(d("0.01"))) {
		t.Fatalf("MaxCharge %s", MaxCharge)
	}
	cheap := Price{UserPrice: d("2.0000"), ResellerPrice: d("1.0000")}
	dear := Price{UserPrice: d("20000.0000"), ResellerPrice: d("10000.0000")}
	bigMin := Price{UserPrice: d("1.0000"), ResellerPrice: d("1.0000"), MinimumHitCharge: d("1000000.00")}
	cases := []struct {
		name    string
		row     Price
		selling *decimal.Decimal
		markup  *decimal.Decimal
		ok      bool
	}{
		{"the largest selling price that fits", cheap, dp("999999.9900"), nil, true},
		{"999999.9949 rounds down to fit", cheap, dp("999999.9949"), nil, true},
		{"999999.9950 rounds up to 1000000.00", cheap, dp("999999.9950"), nil, false},
		{"999999.9999, the issue's price", cheap, dp("999999.9999"), nil, false},
		{"a minimum charge past the bound", bigMin, dp("5.0000"), nil, false},
		{"a usual markup", dear, nil, dp("25"), true},
		{"a markup that fits", dear, nil, dp("9899.99"), true},                     // 10000 × 99.9999 = 999999.00
		{"a markup one paisa past", dear, nil, dp("9900.00"), false},               // 10000 × 100 = 1000000.00
		{"the largest markup on a dear service", dear, nil, dp("9999.99"), false},  // 10000 × 100.9999 = 1009999.00
		{"the largest markup on a cheap service", cheap, nil, dp("9999.99"), true}, // 1.00 × 100.9999 = 101.00
		{"a markup on a service under a large minimum", bigMin, nil, dp("0"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.selling != nil {
				err = CheckSellingPrice(&c.row, *c.selling)
			} else {
				err = CheckMarkup(&c.row, *c.markup, "SMS")
			}
			charge := Resell(&c.row, c.selling, c.markup).Charge
			if (err == nil) != c.ok || (err == nil) != ChargeFits(charge) || (err != nil && !errors.Is(err, ErrChargeTooLarge)) {
				t.Fatalf("charge %s: err %v, want ok %v", charge, err, c.ok)
			}
		})
	}
}
