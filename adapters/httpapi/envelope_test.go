package httpapi_test

import "testing"

// Regressions of FuzzParseParams and FuzzBind, end to end: a body that is
// one JSON object followed by a stray delimiter, or null, is refused before
// any charge; the panel's bind refuses the same.
func TestBodyWithTrailingDelimiterIsRefused(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("sms", "0.5000")
		c := e.newCustomer("user", "enterprise", "10.00")
		for _, body := range []string{`{"phone":"9876543210"}]`, `{"phone":"9876543210"}}`, `null`} {
			r := e.must(e.call(c, "sms", body), 422)
			if r.str("error") != "validation_failed" {
				t.Fatalf("%s: %s", body, r.raw)
			}
		}
		if e.upHits.Load() != 0 || e.balance(c) != "10.00" {
			t.Fatalf("upstream hits %d, balance %s", e.upHits.Load(), e.balance(c))
		}
		r := e.must(e.do("POST", "/api/v1/panel/api-keys", c.token, `{"name":"k"}}`), 400)
		if r.str("error") != "invalid_json" {
			t.Fatalf("panel bind: %s", r.raw)
		}
		e.ledgerClean()
	})
}

// Gateway calls' provider latency is an upstream series of the built-in slug.
func TestMetricsGatewayProvider(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "5.00")
		e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "pan", "pan": "abcpe1234f"}), 200)
		text := e.scrape()
		wantSample(t, text, `paygate_upstream_duration_seconds_count{service="account-verify",outcome="ok"}`, 1)
		wantSample(t, text, "paygate_reservations_in_flight", 0)
	})
}
