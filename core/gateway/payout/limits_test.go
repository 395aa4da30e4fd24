package payout_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payout"
	"paygate/core/platform/errs"
)

func bound(limit, used string) payout.Bound {
	return payout.Bound{Limit: decimal.RequireFromString(limit), Used: decimal.RequireFromString(used)}
}

// A payout fits only if it fits every bound; the refusal names the bound
// with the least left.
func TestCheckDaily(t *testing.T) {
	cases := []struct {
		name      string
		amount    string
		bounds    []payout.Bound
		refused   bool
		limitLeft string // the refusal's message: "left (daily limit limit)"
	}{
		{"own limit only, fits exactly", "100", []payout.Bound{bound("500", "400")}, false, ""},
		{"own limit only, one paisa over", "100.01", []payout.Bound{bound("500", "400")}, true, "100.00 (daily limit 500.00"},
		{"customer under its own, reseller's limit 0", "1", []payout.Bound{bound("200000", "0"), bound("0", "0")}, true, "0.00 (daily limit 0.00"},
		{"reseller's limit used up by other customers", "50", []payout.Bound{bound("200000", "0"), bound("1000", "980")}, true, "20.00 (daily limit 1000.00"},
		{"fits both", "20", []payout.Bound{bound("200000", "0"), bound("1000", "980")}, false, ""},
		{"own limit tighter than the reseller's", "60", []payout.Bound{bound("100", "50"), bound("1000", "0")}, true, "50.00 (daily limit 100.00"},
		{"used past the limit (lowered today): nothing left", "1", []payout.Bound{bound("100", "300")}, true, "0.00 (daily limit 100.00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := payout.CheckDaily(decimal.RequireFromString(c.amount), c.bounds[0], c.bounds[1:]...)
			if (err != nil) != c.refused {
				t.Fatalf("refused %v, want %v", err, c.refused)
			}
			if err == nil {
				return
			}
			e, ok := errs.As(err)
			if !ok || !errors.Is(err, payout.ErrDailyLimit(decimal.Zero, decimal.Zero)) {
				t.Fatalf("error %v", err)
			}
			if msg := strings.Join(e.Fields["amount"], " "); !strings.Contains(msg, c.limitLeft) {
				t.Errorf("message %q, want it to name %q", msg, c.limitLeft)
			}
		})
	}
}
