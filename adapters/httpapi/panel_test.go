package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"paygate/core/gateway"
)

func TestAuthLoginRefreshLogout(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		bad := e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": adminEmail, "password": "wrong-password"})
		unknown := e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": "nobody@example.com", "password": "wrong-password"})
		if bad.status != 401 || unknown.status != 401 || bad.str("message") != unknown.str("message") {
			t.Fatalf("login failures differ: %s / %s", bad.raw, unknown.raw)
		}
		r := e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": adminEmail, "password": adminPassword}), 200)
		if r.str("token_type") != "Bearer" || r.num("expires_in") != 900 || r.body["user"].(map[string]any)["role"] != "admin" {
			t.Fatalf("login %s", r.raw)
		}
		if strings.Contains(r.raw, "password") {
			t.Fatalf("login response mentions a password: %s", r.raw)
		}
		refresh := r.str("refresh_token")
		n := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": refresh}), 200)
		e.must(e.do("GET", "/api/v1/panel/auth/me", n.str("access_token"), nil), 200)
		// The old refresh token stops working; presenting it ends the
		// session (reuse detection, auth_cookie_test.go).
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": refresh}), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", n.str("access_token"), nil), 401)
		r = e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": adminEmail, "password": adminPassword}), 200)
		n = e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": r.str("refresh_token")}), 200)
		e.must(e.do("POST", "/api/v1/panel/auth/logout", n.str("access_token"), map[string]any{"refresh_token": n.str("refresh_token")}), 204)
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": n.str("refresh_token")}), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", "not-a-token", nil), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", "", nil), 401)
	})
}

func TestConcurrentRefreshHasOneWinner(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": adminEmail, "password": adminPassword}), 200)
		codes := hammer(10, func() int {
			return e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": r.str("refresh_token")}).status
		})
		if codes[200] != 1 || codes[401] != 9 {
			t.Fatalf("statuses %v", codes)
		}
	})
}

func TestRolesAndScoping(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		a := e.newCustomer("user", "starter", "5.00")
		b := e.newCustomer("reseller", "starter", "5.00")
		// Admin-only routes answer 403 to others.
		for _, rt := range []struct{ method, path string }{
			{"GET", "/api/v1/panel/users"}, {"POST", "/api/v1/panel/users"}, {"GET", fmt.Sprintf("/api/v1/panel/users/%d", a.id)},
			{"POST", fmt.Sprintf("/api/v1/panel/users/%d/activate", a.id)}, {"POST", "/api/v1/panel/services"},
			{"POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", a.id)},
		} {
			if r := e.do(rt.method, rt.path, a.token, map[string]any{}); r.status != 403 || r.str("error") != "forbidden" {
				t.Fatalf("%s %s as user: %d %s", rt.method, rt.path, r.status, r.raw)
			}
		}
		// B cannot see or touch A's key: 404, never 403.
		for _, rt := range []struct{ method, path string }{
			{"PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", a.keyID)},
			{"DELETE", fmt.Sprintf("/api/v1/panel/api-keys/%d", a.keyID)},
			{"POST", fmt.Sprintf("/api/v1/panel/api-keys/%d/rotate-secret", a.keyID)},
		} {
			e.must(e.do(rt.method, rt.path, b.token, map[string]any{"name": "mine now"}), 404)
		}
		keys := e.must(e.do("GET", "/api/v1/panel/api-keys", b.token, nil), 200).body["data"].([]any)
		for _, k := range keys {
			if uint64(k.(map[string]any)["id"].(float64)) == a.keyID {
				t.Fatal("B lists A's key")
			}
		}
		// A user's ledger is only theirs, even when asking for another user_id.
		tx := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/transactions?user_id=%d", a.id), b.token, nil), 200)
		for _, row := range tx.body["data"].([]any) {
			if uint64(row.(map[string]any)["user_id"].(float64)) != b.id {
				t.Fatalf("B sees another user's row: %v", row)
			}
		}
		// Blocking ends the user's panel session at once.
		e.must(e.do("GET", "/api/v1/panel/auth/me", a.token, nil), 200)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", a.id), e.admin, nil), 200)
		e.must(e.do("GET", "/api/v1/panel/auth/me", a.token, nil), 401)
		blocked := e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": fmt.Sprintf("user%d@example.com", seq.Load()-1), "password": "user-password-1"})
		if blocked.status != 403 && blocked.status != 401 {
			t.Fatalf("blocked login %d", blocked.status)
		}
	})
}

func TestKeySecretShownOnceAndRotation(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("rot", "0.0000")
		c := e.newCustomer("user", "enterprise", "0.00")
		list := e.must(e.do("GET", "/api/v1/panel/api-keys", c.token, nil), 200)
		if strings.Contains(list.raw, c.secret) || strings.Contains(list.raw, `"secret"`) {
			t.Fatalf("key list shows a secret: %s", list.raw)
		}
		e.must(e.call(c, "rot", map[string]any{}), 200)
		rot := e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/api-keys/%d/rotate-secret", c.keyID), c.token, nil), 200)
		old := c.secret
		c.secret = rot.str("secret")
		if c.secret == "" || c.secret == old {
			t.Fatalf("rotation %s", rot.raw)
		}
		e.must(e.call(customer{key: c.key, secret: old}, "rot", map[string]any{}), 401)
		e.must(e.call(c, "rot", map[string]any{}), 200)
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, nil), 200)
		e.must(e.call(c, "rot", map[string]any{}), 401)
		if strings.Contains(e.logs.String(), c.secret) || strings.Contains(e.logs.String(), old) {
			t.Fatal("a key secret appears in the logs")
		}
	})
}

func TestServicesHideProviderKeyAndValidate(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		id := e.newService("hidden", "1.0000")
		c := e.newCustomer("user", "starter", "0.00")
		for _, tok := range []string{e.admin, c.token} {
			for _, path := range []string{"/api/v1/panel/services", fmt.Sprintf("/api/v1/panel/services/%d", id)} {
				r := e.must(e.do("GET", path, tok, nil), 200)
				if strings.Contains(r.raw, "upstream-secret-value") || strings.Contains(r.raw, `"provider_key"`) {
					t.Fatalf("provider_key leaked: %s", r.raw)
				}
			}
		}
		userView := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d", id), c.token, nil), 200)
		if userView.body["provider_url"] != nil || userView.body["headers"] != nil {
			t.Fatalf("user sees upstream details: %s", userView.raw)
		}
		if strings.Contains(e.logs.String(), "upstream-secret-value") {
			t.Fatal("provider_key in logs")
		}
		// Bad input: 4xx with the error body, nothing created.
		r := e.do("POST", "/api/v1/panel/services", e.admin, map[string]any{"name": "x", "slug": "panel", "category": "c", "provider_url": "ftp://x"})
		if r.status != 422 || r.body["errors"].(map[string]any)["slug"] == nil || r.body["errors"].(map[string]any)["provider_url"] == nil {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		e.must(e.do("POST", "/api/v1/panel/services", e.admin, `{"name":`), 400)
		dup := e.do("POST", "/api/v1/panel/services", e.admin, map[string]any{"name": "x", "slug": "hidden", "category": "c", "provider_url": "https://example.com"})
		if dup.status != 409 || dup.str("error") != "slug_taken" {
			t.Fatalf("duplicate slug %d %s", dup.status, dup.raw)
		}
		list := e.must(e.do("GET", "/api/v1/panel/services", e.admin, nil), 200)
		if total(list) != int64(1+len(gateway.Services())) { // with the built-in gateway services
			t.Fatalf("services %d", total(list))
		}
		// Pricing: a second default row is refused; a per-user override wins.
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", id), e.admin, map[string]any{"user_price": "2.0000"}), 409)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", id), e.admin, map[string]any{"user_price": "1.00005"}), 422)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", id), e.admin, map[string]any{"user_id": c.id, "user_price": "0.2500"}), 201)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin, map[string]any{"type": "credit", "amount": "1.00", "description": "x"}), 201)
		r = e.must(e.call(c, "hidden", map[string]any{}), 200)
		if r.str("charged") != "0.2500" {
			t.Fatalf("per-user price not applied: %s", r.raw)
		}
		// Deleting the service removes its pricing; calls then 404.
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/services/%d", id), e.admin, nil), 204)
		e.must(e.call(c, "hidden", map[string]any{}), 404)
		e.ledgerClean()
	})
}

func TestBalanceAdjustments(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "10.00")
		path := fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id)
		e.must(e.do("POST", path, e.admin, map[string]any{"type": "debit", "amount": "10.01", "description": "too much"}), 402)
		for _, bad := range []map[string]any{
			{"type": "credit", "amount": "-1", "description": "x"},
			{"type": "credit", "amount": "1.001", "description": "x"},
			{"type": "credit", "amount": "1", "description": ""},
			{"type": "gift", "amount": "1", "description": "x"},
			{"type": "credit", "amount": 1, "description": "x"},
		} {
			if r := e.do("POST", path, e.admin, bad); r.status != 422 {
				t.Fatalf("%v: %d %s", bad, r.status, r.raw)
			}
		}
		r := e.must(e.do("POST", path, e.admin, map[string]any{"type": "debit", "amount": "2.50", "description": "correction"}), 201)
		if r.str("balance_before") != "10.00" || r.str("balance_after") != "7.50" || r.str("type") != "debit" {
			t.Fatalf("%s", r.raw)
		}
		if b := e.balance(c); b != "7.50" {
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}

func TestHealthAndUnknownRoutes(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.must(e.do("GET", "/healthz", "", nil), 200)
		e.must(e.do("GET", "/readyz", "", nil), 200)
		r := e.doUnknown("GET", "/api/v1/panel/nothing-here", e.admin, nil)
		if r.status != 404 || r.body["success"] != false {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})
}

func TestLoginFailuresAreRateLimited(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		for i := 0; i < 5; i++ {
			e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": adminEmail, "password": "wrong-password"}), 401)
		}
		// The sixth try is refused even with the right password.
		r := e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": adminEmail, "password": adminPassword})
		if r.status != 429 || r.str("error") != "too_many_login_attempts" {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		// Unknown emails are limited the same way: no way to tell them apart.
		for i := 0; i < 5; i++ {
			e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": "ghost@example.com", "password": "x-password"}), 401)
		}
		e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": "ghost@example.com", "password": "x-password"}), 429)
	})
}

func TestSmallListsArePaged(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		for i := 0; i < 4; i++ {
			e.must(e.do("POST", "/api/v1/panel/api-keys", c.token, map[string]any{"name": fmt.Sprintf("k%d", i)}), 201)
		}
		r := e.must(e.do("GET", "/api/v1/panel/api-keys?page=2&per_page=2", c.token, nil), 200)
		meta := r.body["meta"].(map[string]any)
		// 6 keys: the default one made at activation, the test key, and 4 more.
		if len(r.body["data"].([]any)) != 2 || meta["total"].(float64) != 6 || meta["page"].(float64) != 2 || meta["per_page"].(float64) != 2 {
			t.Fatalf("%s", r.raw)
		}
		last := e.must(e.do("GET", "/api/v1/panel/api-keys?page=2&per_page=4", c.token, nil), 200)
		if len(last.body["data"].([]any)) != 2 {
			t.Fatalf("%s", last.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/api-keys?per_page=101", c.token, nil), 422)
	})
}

func TestUserListFilters(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newCustomer("reseller", "starter", "0.00")
		e.newCustomer("user", "starter", "0.00")
		r := e.must(e.do("GET", "/api/v1/panel/users?role=reseller&status=active", e.admin, nil), 200)
		if total(r) != 1 || r.body["data"].([]any)[0].(map[string]any)["role"] != "reseller" {
			t.Fatalf("%s", r.raw)
		}
		bad := e.do("GET", "/api/v1/panel/users?role=king&status=asleep", e.admin, nil)
		errsMap, _ := bad.body["errors"].(map[string]any)
		if bad.status != 422 || errsMap["role"] == nil || errsMap["status"] == nil {
			t.Fatalf("%d %s", bad.status, bad.raw)
		}
	})
}
