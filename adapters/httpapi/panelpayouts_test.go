package httpapi_test

import (
	"fmt"
	"testing"
	"time"
)

// authorizePayouts mints c's payout credential with the password.
func (e *env) authorizePayouts(c customer) string {
	e.t.Helper()
	r := e.must(e.do("POST", "/api/v1/panel/payouts/authorize", c.token, map[string]any{"password": "user-password-1"}), 200)
	if r.num("expires_in") != 300 || r.str("credential") == "" {
		e.t.Fatalf("authorize: %s", r.raw)
	}
	return r.str("credential")
}

func panelPayout(keyID uint64, ref, amount string) map[string]any {
	b := bankPayout(ref, amount, "123456781234")
	b["api_key_id"] = keyID
	return b
}

func (e *env) hitCount(c customer) float64 {
	e.t.Helper()
	return e.must(e.do("GET", "/api/v1/panel/hit-logs", c.token, nil), 200).body["meta"].(map[string]any)["total"].(float64)
}

// TestPanelPayoutNeedsThePayoutCredential: the panel sends a payout without
// a key's secret once the password was typed again; the access token alone,
// a credential of another session or user, an expired one, or a wrong
// password send nothing, log nothing and charge nothing.
func TestPanelPayoutNeedsThePayoutCredential(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "1000.00")
		other := e.newCustomer("user", "starter", "1000.00")

		// The access token alone (a stolen one): refused, nothing logged or charged.
		r := e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(c.keyID, "p-0", "100")), 403)
		if r.str("error") != "payout_authorization_required" {
			t.Fatalf("without the credential: %s", r.raw)
		}
		e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(c.keyID, "p-0", "100"), "X-Payout-Authorization", c.token), 403)
		e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(c.keyID, "p-0", "100"), "X-Payout-Authorization", "forged"), 403)
		// A wrong password mints nothing.
		e.must(e.do("POST", "/api/v1/panel/payouts/authorize", c.token, map[string]any{"password": "wrong-password"}), 422)
		e.must(e.do("POST", "/api/v1/panel/payouts/authorize", "", map[string]any{"password": "user-password-1"}), 401)

		cred := e.authorizePayouts(c)
		// Another user's session, or another session of the same user, cannot use it.
		e.must(e.do("POST", "/api/v1/panel/payouts", other.token, panelPayout(other.keyID, "p-0", "100"), "X-Payout-Authorization", cred), 403)
		second := e.login(c.email, "user-password-1")
		e.must(e.do("POST", "/api/v1/panel/payouts", second, panelPayout(c.keyID, "p-0", "100"), "X-Payout-Authorization", cred), 403)
		// The credential is no access token.
		e.must(e.do("GET", "/api/v1/panel/auth/me", cred, nil), 401)
		if b, n := e.balance(c), e.hitCount(c); b != "1000.00" || n != 0 {
			t.Fatalf("refusals charged or logged: balance %s, %v hits", b, n)
		}

		// With it: the transfer, billed and logged on the named key.
		r = e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(c.keyID, "p-1", "100"), "X-Payout-Authorization", cred), 200)
		d := r.body["data"].(map[string]any)
		if d["reference_id"] != "p-1" || r.str("charged") != "5.0000" || r.str("balance_left") != "895.00" {
			t.Fatalf("panel payout: %s", r.raw)
		}
		if n := e.hitCount(c); n != 1 {
			t.Fatalf("%v hits, want 1", n)
		}
		// The same reference answers the first payout.
		r = e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(c.keyID, "p-1", "100"), "X-Payout-Authorization", cred), 200)
		if r.header.Get("Idempotent-Replayed") != "true" || r.body["data"].(map[string]any)["payout_id"] != d["payout_id"] {
			t.Fatalf("replay: %s", r.raw)
		}
		// Another user's key, or none, is refused before anything is charged.
		e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(other.keyID, "p-2", "100"), "X-Payout-Authorization", cred), 404)
		noKey := bankPayout("p-2", "100", "123456781234")
		e.must(e.do("POST", "/api/v1/panel/payouts", c.token, noKey, "X-Payout-Authorization", cred), 422)
		// A revoked key is not found either.
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, nil), 200)
		e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(c.keyID, "p-2", "100"), "X-Payout-Authorization", cred), 404)
		k := e.must(e.do("POST", "/api/v1/panel/api-keys", c.token, map[string]any{"name": "second"}), 201)

		// Five minutes later the credential has expired (the access token has not).
		e.skew.Add(int64(5*time.Minute + time.Second))
		r = e.must(e.do("POST", "/api/v1/panel/payouts", c.token, panelPayout(k.num("id"), "p-3", "100"), "X-Payout-Authorization", cred), 403)
		if r.str("error") != "payout_authorization_required" {
			t.Fatalf("expired credential: %s", r.raw)
		}
		if b, n := e.balance(c), e.hitCount(c); b != "895.00" || n != 2 {
			t.Fatalf("after the refusals: balance %s, %v hits", b, n)
		}
		e.ledgerClean()
	})
}

// TestPayoutAuthorizationIsLimitedLikeSignIn: wrong passwords at the payout
// prompt count against the account like sign-in attempts (429 with
// Retry-After), so a stolen access token cannot guess the password.
func TestPayoutAuthorizationIsLimitedLikeSignIn(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		codes := map[int]int{}
		for i := 0; i < 7; i++ {
			r := e.do("POST", "/api/v1/panel/payouts/authorize", c.token, map[string]any{"password": fmt.Sprintf("guess-%d", i)})
			codes[r.status]++
			if r.status == 429 && (r.str("error") != "too_many_login_attempts" || r.header.Get("Retry-After") == "") {
				t.Fatalf("429: %s %v", r.raw, r.header)
			}
		}
		if codes[422] == 0 || codes[429] == 0 || codes[422]+codes[429] != 7 {
			t.Fatalf("statuses %v, want 422s then 429s", codes)
		}
		// Even the right password waits now.
		e.must(e.do("POST", "/api/v1/panel/payouts/authorize", c.token, map[string]any{"password": "user-password-1"}), 429)
	})
}
