package httpapi_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"
)

// TestServicePricesPerRoleAndOwnRow: the service list and detail show each
// caller what one call costs them (their role's price, their own row
// before the default, raised to the minimum), the same figure a call is
// charged; a service with no row for the caller has no price.
func TestServicePricesPerRoleAndOwnRow(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		id := e.newService("priced", "0.5000") // admin_cost 0.2000, reseller 0.5000
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(id)), e.admin,
			map[string]any{"reseller_price": "0.4000", "minimum_hit_charge": "0.25"}), 200)
		unpriced := e.must(e.do("POST", "/api/v1/panel/services", e.admin, map[string]any{
			"name": "Unpriced", "slug": "unpriced", "category": "test", "provider_url": e.upstream.URL + "/x", "method": "POST",
		}), 201).num("id")
		u := e.newCustomer("user", "starter", "10.00")
		r := e.newCustomer("reseller", "starter", "10.00")
		own := e.newCustomer("user", "starter", "10.00")
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", id), e.admin, map[string]any{
			"user_id": own.id, "admin_cost": "0.0100", "user_price": "0.0349", "reseller_price": "0.0300", "minimum_hit_charge": "0.02",
		}), 201)

		for _, tc := range []struct {
			name, token, price, minimum string
		}{
			{"user: user_price", u.token, "0.50", "0.25"},
			{"reseller: reseller_price", r.token, "0.40", "0.25"},
			{"admin: admin_cost raised to the minimum", e.admin, "0.25", "0.25"},
			{"user with an own row: rounded half-up", own.token, "0.03", "0.02"},
		} {
			one := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d", id), tc.token, nil), 200)
			if one.body["price"] != tc.price || one.body["minimum_hit_charge"] != tc.minimum {
				t.Errorf("%s: detail price %v minimum %v, want %s %s", tc.name, one.body["price"], one.body["minimum_hit_charge"], tc.price, tc.minimum)
			}
			list := e.must(e.do("GET", "/api/v1/panel/services?per_page=100", tc.token, nil), 200)
			found := 0
			for _, row := range list.body["data"].([]any) {
				s := row.(map[string]any)
				switch uint64(s["id"].(float64)) {
				case id:
					found++
					if s["price"] != tc.price || s["minimum_hit_charge"] != tc.minimum {
						t.Errorf("%s: list price %v minimum %v", tc.name, s["price"], s["minimum_hit_charge"])
					}
				case unpriced:
					found++
					if s["price"] != nil || s["minimum_hit_charge"] != nil {
						t.Errorf("%s: unpriced service shows %v / %v", tc.name, s["price"], s["minimum_hit_charge"])
					}
				}
			}
			if found != 2 {
				t.Errorf("%s: %d of the 2 services listed: %s", tc.name, found, list.raw)
			}
		}

		// The shown price is what a call is charged.
		for _, c := range []struct {
			who     customer
			charged string
		}{{u, "0.5000"}, {r, "0.4000"}, {own, "0.0300"}} {
			got := e.must(e.call(c.who, "priced", map[string]any{}), 200)
			if got.str("charged") != c.charged {
				t.Errorf("charged %s, want %s", got.str("charged"), c.charged)
			}
		}
		// Admins see their own role's charge on create and patch too.
		p := e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/services/%d", id), e.admin, map[string]any{"name": "Priced"}), 200)
		if p.body["price"] != "0.25" {
			t.Errorf("patch answer price %v", p.body["price"])
		}
		e.ledgerClean()
	})
}

// defaultPriceID is the id of a service's default pricing row.
func (e *env) defaultPriceID(serviceID uint64) uint64 {
	e.t.Helper()
	rows := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/pricing", serviceID), e.admin, nil), 200).body["data"].([]any)
	for _, r := range rows {
		if row := r.(map[string]any); row["user_id"] == nil {
			return uint64(row["id"].(float64))
		}
	}
	e.t.Fatalf("no default price of service %d", serviceID)
	return 0
}

// rateLimit reads an answer's RateLimit-* headers; Reset must lie within
// one day.
func rateLimit(t *testing.T, r resp) (limit, remaining int) {
	t.Helper()
	var err error
	if limit, err = strconv.Atoi(r.header.Get("RateLimit-Limit")); err != nil {
		t.Fatalf("RateLimit-Limit %q (status %d): %s", r.header.Get("RateLimit-Limit"), r.status, r.raw)
	}
	if remaining, err = strconv.Atoi(r.header.Get("RateLimit-Remaining")); err != nil {
		t.Fatalf("RateLimit-Remaining %q", r.header.Get("RateLimit-Remaining"))
	}
	reset, err := strconv.Atoi(r.header.Get("RateLimit-Reset"))
	if err != nil || reset < 0 || reset > 86400 {
		t.Fatalf("RateLimit-Reset %q", r.header.Get("RateLimit-Reset"))
	}
	return limit, remaining
}

// untilMidnight is the seconds to the next midnight in Asia/Kolkata (the
// test env's TIMEZONE).
func untilMidnight(t *testing.T) int {
	now := time.Now().In(mustKolkata(t))
	y, m, d := now.Date()
	return int(time.Date(y, m, d+1, 0, 0, 0, 0, now.Location()).Sub(now).Seconds())
}

// near reports whether header h of r holds a number within 5 of want.
func near(r resp, h string, want int) bool {
	got, err := strconv.Atoi(r.header.Get(h))
	return err == nil && got >= want-5 && got <= want+5
}

// TestRateLimitHeadersPerCall: a Starter key (one reservation per call)
// reports its daily limit on success, 402 and 429 alike; the 429 says to
// come back at midnight. Answers before the key is known carry none.
func TestRateLimitHeadersPerCall(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("limited", "1.0000")
		c := e.newCustomer("user", "starter", "2.00")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"daily_limit": 4}), 200)

		for want := 3; want >= 2; want-- {
			r := e.must(e.call(c, "limited", map[string]any{}), 200)
			if limit, left := rateLimit(t, r); limit != 4 || left != want {
				t.Fatalf("success: limit %d remaining %d, want 4 %d", limit, left, want)
			}
			if !near(r, "RateLimit-Reset", untilMidnight(t)) {
				t.Fatalf("RateLimit-Reset %s, midnight in %d s", r.header.Get("RateLimit-Reset"), untilMidnight(t))
			}
		}
		// The balance is spent: 402, the call still counted.
		r := e.must(e.call(c, "limited", map[string]any{}), 402)
		if limit, left := rateLimit(t, r); limit != 4 || left != 1 {
			t.Fatalf("402: limit %d remaining %d", limit, left)
		}
		e.must(e.call(c, "limited", map[string]any{}), 402)
		r = e.must(e.call(c, "limited", map[string]any{}), 429)
		if limit, left := rateLimit(t, r); limit != 4 || left != 0 || r.str("error") != "daily_limit_exceeded" {
			t.Fatalf("429: limit %d remaining %d: %s", limit, left, r.raw)
		}
		if !near(r, "Retry-After", untilMidnight(t)) || r.header.Get("Retry-After") != r.header.Get("RateLimit-Reset") {
			t.Fatalf("429 Retry-After %q, RateLimit-Reset %q, midnight in %d s", r.header.Get("Retry-After"), r.header.Get("RateLimit-Reset"), untilMidnight(t))
		}
		// Unknown credentials: no key, no limit to report.
		bad := e.must(e.do("POST", "/api/v1/limited", "", map[string]any{}, "X-API-Key", c.key, "X-API-Secret", "rs_wrong"), 401)
		if bad.header.Get("RateLimit-Limit") != "" {
			t.Fatalf("401 carries RateLimit-Limit %q", bad.header.Get("RateLimit-Limit"))
		}
		// The keys screen shows the same use against the limit.
		keys := e.must(e.do("GET", "/api/v1/panel/api-keys", c.token, nil), 200).body["data"].([]any)
		k := keys[0].(map[string]any)
		if k["hits_today"] != float64(4) || k["daily_limit"] != float64(4) {
			t.Fatalf("key %v", k)
		}
		e.ledgerClean()
	})
}

// TestRateLimitHeadersOnHolds: an Enterprise key's calls run on holds,
// which count their calls in advance: Remaining may run one hold ahead of
// the calls made, never below 0 nor above the limit less the calls made.
// Once the limit is spent the 429 reports 0 and Retry-After.
func TestRateLimitHeadersOnHolds(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("held", "0.1000")
		c := e.newCustomer("user", "enterprise", "100.00")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"daily_limit": 20}), 200)
		for made := 1; made <= 20; made++ {
			r := e.must(e.call(c, "held", map[string]any{}), 200)
			if limit, left := rateLimit(t, r); limit != 20 || left < 0 || left > 20-made {
				t.Fatalf("call %d: limit %d remaining %d", made, limit, left)
			}
		}
		r := e.must(e.call(c, "held", map[string]any{}), 429)
		if _, left := rateLimit(t, r); left != 0 || !near(r, "Retry-After", untilMidnight(t)) {
			t.Fatalf("429: remaining %d, Retry-After %q: %s", left, r.header.Get("Retry-After"), r.raw)
		}
		e.ledgerClean()
	})
}

// TestRetryAfterOnEvery429: the plan's monthly limit waits for the next
// month; the in-memory limits of the account routes say how long.
func TestRetryAfterOnEvery429(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("monthly", "0.0100")
		c := e.newCustomer("user", "starter", "10.00")
		loc := mustKolkata(t)
		now := time.Now().In(loc)
		e.store.DB().Exec("UPDATE users SET plan_month = ?, plan_calls = 100 WHERE id = ?", now.Format("2006-01"), c.id)
		r := e.must(e.call(c, "monthly", map[string]any{}), 429)
		y, m, _ := now.Date()
		nextMonth := int(time.Date(y, m+1, 1, 0, 0, 0, 0, loc).Sub(now).Seconds())
		if r.str("error") != "monthly_plan_limit_reached" || !near(r, "Retry-After", nextMonth) {
			t.Fatalf("plan 429 Retry-After %q, next month in %d s: %s", r.header.Get("Retry-After"), nextMonth, r.raw)
		}
		if _, left := rateLimit(t, r); left != 999 { // the call counted against the day (the daily check comes first)
			t.Fatalf("plan 429 remaining %d", left)
		}
		// Gateway operations' 429 too.
		pay := map[string]any{"amount": "10", "currency": "INR", "customer_id": "c", "callback_url": "https://shop.example/cb"}
		r = e.must(e.gw(c, "POST", "/api/v1/payment/create", pay), 429)
		if !near(r, "Retry-After", nextMonth) {
			t.Fatalf("gateway plan 429 Retry-After %q", r.header.Get("Retry-After"))
		}

		// Password reset mails: 5 at once per address, then one per 10 minutes.
		var last resp
		for i := 0; i < 6; i++ {
			last = e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": fmt.Sprintf("nobody%d@example.com", i)})
		}
		e.must(last, 429)
		if secs, err := strconv.Atoi(last.header.Get("Retry-After")); err != nil || secs < 1 || secs > 600 {
			t.Fatalf("forgot-password 429 Retry-After %q", last.header.Get("Retry-After"))
		}
	})
}
