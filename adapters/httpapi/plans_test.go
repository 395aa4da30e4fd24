package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/plan"
)

// prorated is the charge of an upgrade by diff now, as the server computes
// it (a test that straddles local midnight would see the next day's).
func prorated(diff string) string {
	loc, _ := time.LoadLocation("Asia/Kolkata")
	return plan.Prorate(decimal.RequireFromString(diff), time.Now(), loc).StringFixed(2)
}

// TestPlansAndSubscriptionChanges: the catalog as users and admins see it;
// an upgrade between public plans refused with 402 and nothing changed
// when short, then charged its prorated difference at once; a downgrade
// waiting for the next period; an admin's custom price, audited; a plan's
// new allowance applying to the next call.
func TestPlansAndSubscriptionChanges(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("plans", "0.0100")
		c := e.newCustomer("user", "starter", "10.00")

		plans := e.must(e.do("GET", "/api/v1/panel/plans", c.token, nil), 200).body["data"].([]any)
		if len(plans) != 1 || plans[0].(map[string]any)["code"] != "starter" || plans[0].(map[string]any)["monthly_calls"].(float64) != 100 {
			t.Fatalf("public plans %v", plans)
		}
		all := e.must(e.do("GET", "/api/v1/panel/plans", e.admin, nil), 200).body["data"].([]any)
		if len(all) != 2 || all[1].(map[string]any)["monthly_price"] != nil || all[1].(map[string]any)["monthly_calls"] != nil {
			t.Fatalf("all plans %v", all)
		}
		sub := e.must(e.do("GET", "/api/v1/panel/subscription", c.token, nil), 200)
		if sub.str("price") != "0.00" || sub.body["calls_allowed"].(float64) != 100 || sub.str("status") != "active" ||
			sub.str("period") != time.Now().In(mustIST()).Format("2006-01") {
			t.Fatalf("subscription %s", sub.raw)
		}
		// Enterprise is not public: users cannot switch to it.
		r := e.do("POST", "/api/v1/panel/subscription/change", c.token, map[string]any{"plan_code": "enterprise"})
		if r.status != 403 {
			t.Fatalf("switch to a private plan: %d %s", r.status, r.raw)
		}
		e.must(e.do("PATCH", "/api/v1/panel/plans/enterprise", e.admin, map[string]any{"public": true, "monthly_price": "3000.00"}), 200)

		// Short of the prorated difference: 402, nothing changed.
		r = e.do("POST", "/api/v1/panel/subscription/change", c.token, map[string]any{"plan_code": "enterprise"})
		if r.status != 402 || r.str("error") != "insufficient_balance" {
			t.Fatalf("short upgrade: %d %s", r.status, r.raw)
		}
		if s := e.must(e.do("GET", "/api/v1/panel/subscription", c.token, nil), 200); s.body["plan"].(map[string]any)["code"] != "starter" || e.balance(c) != "10.00" {
			t.Fatalf("after the 402: %s, balance %s", s.raw, e.balance(c))
		}
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
			map[string]any{"type": "credit", "amount": "5000.00", "description": "top-up"}), 201)
		want := prorated("3000.00")
		up := e.must(e.do("POST", "/api/v1/panel/subscription/change", c.token, map[string]any{"plan_code": "enterprise"}), 200)
		if up.body["plan"].(map[string]any)["code"] != "enterprise" || up.str("price") != "3000.00" || up.body["calls_allowed"] != nil {
			t.Fatalf("upgrade %s", up.raw)
		}
		fees := e.must(e.do("GET", "/api/v1/panel/transactions?type=debit", c.token, nil), 200).body["data"].([]any)
		if len(fees) != 1 || fees[0].(map[string]any)["reference_type"] != "plan_fee" || fees[0].(map[string]any)["amount"] != want {
			t.Fatalf("upgrade charge %v, want one plan_fee of %s", fees, want)
		}
		// Downgrade: from the next period, nothing refunded.
		down := e.must(e.do("POST", "/api/v1/panel/subscription/change", c.token, map[string]any{"plan_code": "starter"}), 200)
		if down.body["plan"].(map[string]any)["code"] != "enterprise" || down.str("next_plan_code") != "starter" || down.str("next_amount") != "0.00" {
			t.Fatalf("downgrade %s", down.raw)
		}

		// An admin's custom price: required for Enterprise, audited, the
		// rise charged prorated at once.
		d := e.newCustomer("user", "starter", "100000.00")
		e.must(e.do("PATCH", "/api/v1/panel/plans/enterprise", e.admin, map[string]any{"monthly_price": nil, "public": false}), 200)
		r = e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d/subscription", d.id), e.admin, map[string]any{"plan_code": "enterprise"})
		if r.status != 422 || r.str("error") != "price_required" {
			t.Fatalf("custom plan without a price: %d %s", r.status, r.raw)
		}
		want = prorated("25000.00")
		set := e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d/subscription", d.id), e.admin,
			map[string]any{"plan_code": "enterprise", "price": "25000.00"}), 200)
		if set.str("price") != "25000.00" || set.body["plan"].(map[string]any)["code"] != "enterprise" {
			t.Fatalf("custom price %s", set.raw)
		}
		fees = e.must(e.do("GET", "/api/v1/panel/transactions?type=debit", d.token, nil), 200).body["data"].([]any)
		if len(fees) != 1 || fees[0].(map[string]any)["amount"] != want {
			t.Fatalf("custom price charge %v, want %s", fees, want)
		}
		audit := e.must(e.do("GET", "/api/v1/panel/audit-logs?action=subscription.set", e.admin, nil), 200).body["data"].([]any)
		if len(audit) != 1 {
			t.Fatalf("audit %v", audit)
		}

		// A plan's new allowance applies to its subscribers' next call.
		s := e.newCustomer("user", "starter", "10.00")
		e.must(e.do("PATCH", "/api/v1/panel/plans/starter", e.admin, map[string]any{"monthly_calls": 2}), 200)
		for range 2 {
			e.must(e.call(s, "plans", map[string]any{}), 200)
		}
		if r := e.call(s, "plans", map[string]any{}); r.status != 429 || r.str("message") != "Monthly plan limit reached" {
			t.Fatalf("third call on an allowance of 2: %d %s", r.status, r.raw)
		}
		if sub := e.must(e.do("GET", "/api/v1/panel/subscription", s.token, nil), 200); sub.body["calls_used"].(float64) != 2 ||
			sub.body["calls_allowed"].(float64) != 2 {
			t.Fatalf("allowance used %s", sub.raw)
		}
		e.ledgerClean()
	})
}

func mustIST() *time.Location {
	loc, _ := time.LoadLocation("Asia/Kolkata")
	return loc
}

// TestPastDueThroughTheServer: a renewal the wallet cannot pay makes the
// subscription past due (its event queued); an approved balance request
// pays it at the next past-due round (every few seconds); another account
// still short after 7 days is on the default plan, whose allowance (here
// 1 call a month) applies to its very next calls.
func TestPastDueThroughTheServer(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		e.newService("grace", "0.0100")
		e.must(e.do("PATCH", "/api/v1/panel/plans/starter", e.admin, map[string]any{"monthly_calls": 1}), 200)
		payer := e.newCustomer("user", "starter", "5.00")
		stays := e.newCustomer("user", "starter", "5.00")
		for _, c := range []customer{payer, stays} {
			e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": "https://hooks.example.com/plan"}), 200)
			e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d/subscription", c.id), e.admin,
				map[string]any{"plan_code": "enterprise", "price": "0.00"}), 200)
			e.must(e.call(c, "grace", map[string]any{}), 200) // unlimited on Enterprise
			e.must(e.call(c, "grace", map[string]any{}), 200)
			e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d/subscription", c.id), e.admin,
				map[string]any{"plan_code": "enterprise", "price": "900.00"}), 402) // the prorated rise is short
		}
		// Agreed from next month at 900.00 a month (the store, as an admin
		// recording a price without a rise this month would).
		if err := e.store.DB().Exec("UPDATE subscriptions SET price = '900.00' WHERE user_id IN (?, ?)", payer.id, stays.id).Error; err != nil {
			t.Fatal(err)
		}
		sub := e.must(e.do("GET", "/api/v1/panel/subscription", payer.token, nil), 200)
		next, _ := time.Parse(time.RFC3339, sub.str("next_charge_at"))
		if res, err := e.app.Billing.Run(ctx, next); err != nil || res.PastDue != 2 {
			t.Fatalf("renewal %+v %v", res, err)
		}
		s := e.must(e.do("GET", "/api/v1/panel/subscription", payer.token, nil), 200)
		if s.str("status") != "past_due" || s.str("grace_ends_at") != next.Add(plan.Grace).UTC().Format(time.RFC3339) {
			t.Fatalf("after a short renewal %s, want the grace to end %s", s.raw, next.Add(plan.Grace).UTC().Format(time.RFC3339))
		}
		// Admins read the account's subscription as its owner does.
		if a := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/users/%d/subscription", payer.id), e.admin, nil), 200); a.str("price") != "900.00" ||
			a.str("status") != "past_due" || a.str("grace_ends_at") != s.str("grace_ends_at") {
			t.Fatalf("the admin's read %s", a.raw)
		}
		var events int64
		e.store.DB().Raw("SELECT COUNT(*) FROM webhook_events WHERE type = ?", "subscription.past_due").Scan(&events)
		if events != 2 {
			t.Fatalf("%d past_due events, want 2", events)
		}

		req := e.must(e.upload(payer.token, map[string]string{"amount": "1000.00", "utr_number": newUTR()}), 201)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", req.num("id")), e.admin, map[string]any{}), 200)
		if res, err := e.app.Billing.RetryPastDue(ctx); err != nil || res.Paid != 1 || res.Downgraded != 0 {
			t.Fatalf("retry after the credit %+v %v", res, err)
		}
		if s := e.must(e.do("GET", "/api/v1/panel/subscription", payer.token, nil), 200); s.str("status") != "active" || s.body["grace_ends_at"] != nil ||
			e.balance(payer) != "104.98" {
			t.Fatalf("paid: %s balance %s", s.raw, e.balance(payer))
		}

		e.skew.Store(int64(time.Until(next.Add(plan.Grace + time.Minute))))
		if res, err := e.app.Billing.RetryPastDue(ctx); err != nil || res.Downgraded != 1 {
			t.Fatalf("grace over %+v %v", res, err)
		}
		stays.token = e.login(stays.email, "user-password-1") // a week later
		s = e.must(e.do("GET", "/api/v1/panel/subscription", stays.token, nil), 200)
		if s.body["plan"].(map[string]any)["code"] != "starter" || s.body["calls_allowed"].(float64) != 1 {
			t.Fatalf("moved: %s", s.raw)
		}
		e.must(e.call(stays, "grace", map[string]any{}), 200) // December's one call of Starter's allowance
		if r := e.call(stays, "grace", map[string]any{}); r.status != 429 {
			t.Fatalf("the next call after the move: %d %s", r.status, r.raw)
		}
		m := e.scrape() // paygate_subscription_fees_total: each outcome once its transaction committed
		for outcome, n := range map[string]float64{"past_due": 2, "paid": 1, "downgraded": 1} {
			wantSample(t, m, `paygate_subscription_fees_total{outcome="`+outcome+`"}`, n)
		}
		e.ledgerClean()
	})
}

// TestUserPlanFieldMovesTheSubscription: an admin's PATCH of a user's plan
// field moves the subscription with it, charging nothing.
func TestUserPlanFieldMovesTheSubscription(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "10.00")
		e.must(e.do("GET", "/api/v1/panel/subscription", c.token, nil), 200)
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, map[string]any{"plan": "enterprise"}), 200)
		s := e.must(e.do("GET", "/api/v1/panel/subscription", c.token, nil), 200)
		if s.body["plan"].(map[string]any)["code"] != "enterprise" || s.str("price") != "0.00" || s.body["calls_allowed"] != nil || e.balance(c) != "10.00" {
			t.Fatalf("after the plan field: %s", s.raw)
		}
		e.ledgerClean()
	})
}

// TestAdminsAddPlansAndOwnersSeeTheQuote: an admin adds a public plan
// (audited; a taken code 409, a bad code or a missing price 422, nobody
// else may); its owner's quote states the prorated charge and moves no
// money; the change charges exactly the quoted amount, puts the account on
// the new plan and its allowance, and a quote back down waits for the next
// period. Quotes refuse what the change refuses.
func TestAdminsAddPlansAndOwnersSeeTheQuote(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "1000.00")
		growth := map[string]any{"code": "growth", "name": "Growth", "monthly_price": "300.00", "monthly_calls": 1000,
			"features": []string{"1000 calls a month", "Email support"}, "public": true}
		e.must(e.do("POST", "/api/v1/panel/plans", c.token, growth), 403)
		for field, bad := range map[string]any{"code": "Growth!", "monthly_price": "-1.00", "monthly_calls": -5, "name": ""} {
			body := map[string]any{}
			for k, v := range growth {
				body[k] = v
			}
			body[field] = bad
			if r := e.do("POST", "/api/v1/panel/plans", e.admin, body); r.status != 422 || !strings.Contains(r.raw, field) {
				t.Errorf("%s %v: %d %s", field, bad, r.status, r.raw)
			}
		}
		if r := e.do("POST", "/api/v1/panel/plans", e.admin, map[string]any{"code": "nofee", "name": "No fee"}); r.status != 422 ||
			!strings.Contains(r.raw, "monthly_price") || !strings.Contains(r.raw, "monthly_calls") {
			t.Fatalf("price and allowance left out: %d %s", r.status, r.raw)
		}
		p := e.must(e.do("POST", "/api/v1/panel/plans", e.admin, growth), 201)
		if p.str("code") != "growth" || p.str("monthly_price") != "300.00" || p.body["monthly_calls"].(float64) != 1000 || p.str("status") != "active" {
			t.Fatalf("created %s", p.raw)
		}
		if r := e.do("POST", "/api/v1/panel/plans", e.admin, growth); r.status != 409 || r.str("error") != "plan_code_taken" {
			t.Fatalf("the code again: %d %s", r.status, r.raw)
		}
		audit := e.must(e.do("GET", "/api/v1/panel/audit-logs?action=plan.create", e.admin, nil), 200).body["data"].([]any)
		if len(audit) != 1 {
			t.Fatalf("audit of the creation: %v", audit)
		}
		if public := e.must(e.do("GET", "/api/v1/panel/plans", c.token, nil), 200).body["data"].([]any); len(public) != 2 {
			t.Fatalf("public plans after the creation: %v", public)
		}

		e.must(e.do("GET", "/api/v1/panel/subscription/quote", c.token, nil), 422)
		e.must(e.do("GET", "/api/v1/panel/subscription/quote?plan_code=nope", c.token, nil), 404)
		e.must(e.do("GET", "/api/v1/panel/subscription/quote?plan_code=enterprise", c.token, nil), 403)
		want := prorated("300.00")
		q := e.must(e.do("GET", "/api/v1/panel/subscription/quote?plan_code=growth", c.token, nil), 200)
		if q.str("applies") != "now" || q.str("charge_now") != want || q.str("next_amount") != "300.00" {
			t.Fatalf("quote %s, want a charge of %s now", q.raw, want)
		}
		if e.balance(c) != "1000.00" {
			t.Fatalf("a quote moved money: balance %s", e.balance(c))
		}
		up := e.must(e.do("POST", "/api/v1/panel/subscription/change", c.token, map[string]any{"plan_code": "growth"}), 200)
		if up.body["plan"].(map[string]any)["code"] != "growth" || up.body["calls_allowed"].(float64) != 1000 {
			t.Fatalf("upgrade %s", up.raw)
		}
		if got := e.balance(c); !decimal.RequireFromString("1000.00").Sub(decimal.RequireFromString(want)).Equal(decimal.RequireFromString(got)) {
			t.Fatalf("balance %s after a quoted charge of %s", got, want)
		}
		if u := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, nil), 200); u.str("plan") != "growth" {
			t.Fatalf("user row plan %s", u.raw)
		}
		down := e.must(e.do("GET", "/api/v1/panel/subscription/quote?plan_code=starter", c.token, nil), 200)
		if down.str("applies") != "next_period" || down.str("charge_now") != "0.00" || down.str("next_amount") != "0.00" {
			t.Fatalf("quote down %s", down.raw)
		}
		// The plan field takes added plans, and only those on offer.
		d := e.newCustomer("user", "starter", "0.00")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", d.id), e.admin, map[string]any{"plan": "growth"}), 200)
		if r := e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", d.id), e.admin, map[string]any{"plan": "gold"}); r.status != 422 {
			t.Fatalf("a plan nobody added: %d %s", r.status, r.raw)
		}
		e.must(e.do("PATCH", "/api/v1/panel/plans/growth", e.admin, map[string]any{"status": "retired"}), 200)
		if r := e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", d.id), e.admin, map[string]any{"plan": "starter"}); r.status != 200 {
			t.Fatalf("off a retired plan: %d %s", r.status, r.raw)
		}
		if r := e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", d.id), e.admin, map[string]any{"plan": "growth"}); r.status != 422 {
			t.Fatalf("onto a retired plan: %d %s", r.status, r.raw)
		}
		e.ledgerClean()
	})
}
