package pricing

import (
	"testing"

	"github.com/shopspring/decimal"
)

func dp(s string) *decimal.Decimal { v := d(s); return &v }

func TestResell(t *testing.T) {
	row := Price{AdminCost: d("0.4000"), UserPrice: d("1.5000"), ResellerPrice: d("1.0000"), MinimumHitCharge: d("0.00")}
	withMin := row
	withMin.MinimumHitCharge = d("2.50")
	odd := Price{UserPrice: d("1.0000"), ResellerPrice: d("0.3333")}
	quarter := Price{UserPrice: d("1.0000"), ResellerPrice: d("0.2500")}
	cases := []struct {
		name            string
		row             Price
		selling, markup *decimal.Decimal
		charge, cost    string
		commission      string
		source          Source
	}{
		{"selling price wins over markup", row, dp("2.0000"), dp("10"), "2.00", "1.00", "1.00", SourcePrice},
		{"markup over the reseller's charge", row, nil, dp("25"), "1.25", "1.00", "0.25", SourceMarkup},
		{"list price without either", row, nil, nil, "1.50", "1.00", "0.50", SourceList},
		{"zero markup sells at cost", row, nil, dp("0"), "1.00", "1.00", "0", SourceMarkup},
		{"never below cost", row, dp("0.5000"), nil, "1.00", "1.00", "0", SourcePrice},
		{"list below the reseller's price", Price{UserPrice: d("0.5000"), ResellerPrice: d("0.8000")}, nil, nil, "0.80", "0.80", "0", SourceList},
		{"minimum hit charge", withMin, dp("2.0000"), nil, "2.50", "2.50", "0", SourcePrice},
		{"rounded half-up", row, dp("1.0050"), nil, "1.01", "1.00", "0.01", SourcePrice},
		{"markup over the rounded own charge", odd, nil, dp("10"), "0.36", "0.33", "0.03", SourceMarkup},
		{"markup rounded half-up", quarter, nil, dp("50"), "0.38", "0.25", "0.13", SourceMarkup},
		{"selling 4 places rounds down", row, dp("1.2349"), nil, "1.23", "1.00", "0.23", SourcePrice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Resell(&c.row, c.selling, c.markup)
			if !r.Charge.Equal(d(c.charge)) || !r.Cost.Equal(d(c.cost)) || !r.Commission.Equal(d(c.commission)) {
				t.Errorf("got charge %s cost %s commission %s, want %s %s %s", r.Charge, r.Cost, r.Commission, c.charge, c.cost, c.commission)
			}
			if r.Commission.IsNegative() || r.Charge.LessThan(r.Cost) {
				t.Errorf("below cost: %+v", r)
			}
			if got := SourceOf(c.selling, c.markup); got != c.source {
				t.Errorf("source %s, want %s", got, c.source)
			}
		})
	}
}

func TestValidateSellingPriceAndMarkup(t *testing.T) {
	if ValidateSellingPrice(d("-1")) == nil || ValidateSellingPrice(d("0.00001")) == nil || ValidateSellingPrice(d("1000000")) == nil {
		t.Error("bad selling price accepted")
	}
	if err := ValidateSellingPrice(d("999999.9999")); err != nil {
		t.Error(err)
	}
	if ValidateMarkup(d("-0.01")) == nil || ValidateMarkup(d("10000")) == nil || ValidateMarkup(d("1.001")) == nil {
		t.Error("bad markup accepted")
	}
	if err := ValidateMarkup(d("9999.99")); err != nil {
		t.Error(err)
	}
}
