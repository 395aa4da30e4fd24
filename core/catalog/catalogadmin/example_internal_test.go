package catalogadmin

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"
)

// examplePriced shows the viewer's charge in a documented example
// response, moving balance_left and a gateway operation's fee with it, and
// leaves an example without a decimal "charged" and the stored map alone.
func TestExamplePriced(t *testing.T) {
	charge := decimal.RequireFromString("0.24")
	cases := []struct {
		name    string
		example map[string]any
		want    string
	}{
		{"charged and balance", map[string]any{"charged": "0.2500", "balance_left": "99.75"},
			"map[balance_left:99.76 charged:0.2400]"},
		{"a payout's fee", map[string]any{"charged": "5.0000", "balance_left": "4495.00", "data": map[string]any{"fee": "5.0000", "amount": "500.00"}},
			"map[balance_left:4499.76 charged:0.2400 data:map[amount:500.00 fee:0.2400]]"},
		{"another fee", map[string]any{"charged": "5.0000", "data": map[string]any{"fee": "1.00"}},
			"map[charged:0.2400 data:map[fee:1.00]]"},
		{"a balance that would go negative is kept", map[string]any{"charged": "0.0000", "balance_left": "0.10"},
			"map[balance_left:0.10 charged:0.2400]"},
		{"no charged", map[string]any{"status": "ok"}, "map[status:ok]"},
		{"charged not a decimal", map[string]any{"charged": 1.5}, "map[charged:1.5]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := fmt.Sprint(c.example)
			if got := fmt.Sprint(examplePriced(c.example, charge)); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
			if fmt.Sprint(c.example) != before {
				t.Errorf("the stored example changed: %v", c.example)
			}
		})
	}
}
