package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestUpgradeAtAMonthsStartChargesEachPeriodOnce (issue 43, point 11): an
// account on Basic (1000.00) upgrades to Pro (3100.00) one second after a
// month starts, before the renewal worker ran. The month that ended is not
// charged the difference; the new month is charged once, at Pro's price
// (Basic's renewal, then the difference for all its days), whatever the
// renewal worker does next. The quote shown before says the same.
func TestUpgradeAtAMonthsStartChargesEachPeriodOnce(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		for code, price := range map[string]string{"basic": "1000.00", "pro": "3100.00"} {
			e.must(e.do("POST", "/api/v1/panel/plans", e.admin, map[string]any{"code": code, "name": code, "monthly_price": price,
				"monthly_calls": 1000, "features": []string{"calls"}, "public": true}), 201)
		}
		c := e.newCustomer("user", "starter", "10000.00")
		firstMonth := prorated("1000.00") // Basic from today: this month's days left
		e.must(e.do("POST", "/api/v1/panel/subscription/change", c.token, map[string]any{"plan_code": "basic"}), 200)
		sub := e.must(e.do("GET", "/api/v1/panel/subscription", c.token, nil), 200)
		old := sub.str("period")
		next, err := time.Parse(time.RFC3339, sub.str("next_charge_at"))
		if err != nil {
			t.Fatal(err)
		}

		// One second into the next month; the worker has not run.
		at := next.Add(time.Second)
		e.skew.Store(int64(time.Until(at)))
		c.token = e.login(c.email, "user-password-1")
		q := e.must(e.do("GET", "/api/v1/panel/subscription/quote?plan_code=pro", c.token, nil), 200)
		if q.str("applies") != "now" || q.str("charge_now") != "2100.00" {
			t.Fatalf("quote at the month's start %s, want the difference for the new month's days, 2100.00", q.raw)
		}
		up := e.must(e.do("POST", "/api/v1/panel/subscription/change", c.token, map[string]any{"plan_code": "pro"}), 200)
		newPeriod := next.In(mustIST()).Format("2006-01")
		if up.str("period") != newPeriod || up.str("price") != "3100.00" || up.body["plan"].(map[string]any)["code"] != "pro" {
			t.Fatalf("upgrade at the month's start: %s", up.raw)
		}
		if _, err := e.app.Billing.Run(ctx, at); err != nil { // the worker's round, late
			t.Fatal(err)
		}
		if _, err := e.app.Billing.Run(ctx, at.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}

		// The plan fees by period: the old month has only Basic's first
		// month; the new one Basic's renewal and the difference, 3100.00.
		var fees []struct {
			Period string
			Amount string
		}
		e.store.DB().Raw(`SELECT sp.period AS period, t.amount AS amount FROM transactions t
			JOIN subscription_periods sp ON sp.id = t.reference_id
			WHERE t.user_id = ? AND t.reference_type = 'plan_fee' ORDER BY t.id`, c.id).Scan(&fees)
		charged := map[string]decimal.Decimal{}
		for _, f := range fees {
			charged[f.Period] = charged[f.Period].Add(decimal.RequireFromString(f.Amount))
		}
		if len(charged) != 2 || charged[old].StringFixed(2) != firstMonth || charged[newPeriod].StringFixed(2) != "3100.00" {
			t.Fatalf("plan fees %v: want %s for %s and 3100.00 for %s", fees, firstMonth, old, newPeriod)
		}
		var periods []struct {
			Period string
			Amount string
		}
		e.store.DB().Raw("SELECT period, amount FROM subscription_periods WHERE user_id = ? ORDER BY period", c.id).Scan(&periods)
		if len(periods) != 2 || decimal.RequireFromString(periods[0].Amount).StringFixed(2) != firstMonth ||
			decimal.RequireFromString(periods[1].Amount).StringFixed(2) != "3100.00" {
			t.Fatalf("periods %v", periods)
		}
		want := decimal.RequireFromString("10000.00").Sub(decimal.RequireFromString(firstMonth)).Sub(decimal.RequireFromString("3100.00"))
		if got := e.balance(c); got != want.StringFixed(2) {
			t.Fatalf("balance %s, want %s", got, want.StringFixed(2))
		}
		e.ledgerClean()
	})
}
