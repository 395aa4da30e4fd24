package httpapi_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/core/accounts/apikey"
)

// gwAs calls GET /api/v1/transaction/list (authenticated, not billed) with
// the given header pairs.
func (e *env) gwAs(headers ...string) resp {
	e.t.Helper()
	return e.do("GET", "/api/v1/transaction/list", "", nil, headers...)
}

func (e *env) expectInvalidCredentials(r resp, what string) {
	e.t.Helper()
	if r.status != 401 || r.str("error") != "invalid_credentials" || r.str("message") != "Invalid API credentials" {
		e.t.Fatalf("%s: status %d %s, want 401 invalid_credentials", what, r.status, r.raw)
	}
}

// TestGatewayCredentials: the Bearer credential is the key's secret; the
// key and secret headers and Basic work too; a key id alone, a rotated-away
// secret and a revoked key's secret are 401.
func TestGatewayCredentials(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "enterprise", "100.00")
		pay := map[string]any{"amount": "10.00", "currency": "INR", "customer_id": "c1", "callback_url": "https://shop.example/cb"}

		works := func(c customer) {
			t.Helper()
			e.must(e.gwAs("Authorization", "Bearer "+c.secret), 200)
			e.must(e.gwAs("X-API-Key", c.key, "X-API-Secret", c.secret), 200)
			e.must(e.gwAs("Authorization", "Basic "+basicAuth(c.key, c.secret)), 200)
		}
		fails := func(c customer, what string) {
			t.Helper()
			e.expectInvalidCredentials(e.gwAs("Authorization", "Bearer "+c.secret), what+", Bearer")
			e.expectInvalidCredentials(e.gwAs("X-API-Key", c.key, "X-API-Secret", c.secret), what+", headers")
			e.expectInvalidCredentials(e.gwAs("Authorization", "Basic "+basicAuth(c.key, c.secret)), what+", Basic")
			e.expectInvalidCredentials(e.gw(c, "POST", "/api/v1/payment/create", pay), what+", payment")
		}

		works(c)
		e.must(e.gw(c, "POST", "/api/v1/payment/create", pay), 201)
		e.must(e.do("POST", "/api/v1/payment/create", "", pay, "X-API-Key", c.key, "X-API-Secret", c.secret), 201)
		e.must(e.do("POST", "/api/v1/payment/create", "", pay, "Authorization", "Basic "+basicAuth(c.key, c.secret)), 201)
		e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "upi", "vpa": "rahul.sharma@okaxis"}), 200)

		// A key id alone authorizes nothing, wherever it is put.
		e.expectInvalidCredentials(e.gwAs("Authorization", "Bearer "+c.key), "Bearer key id")
		e.expectInvalidCredentials(e.do("POST", "/api/v1/payment/create", c.key, pay), "Bearer key id, payment")
		e.expectInvalidCredentials(e.do("POST", "/api/v1/recharge/mobile", c.key, map[string]any{"mobile": "9876543210",
			"operator": "jio", "circle": "delhi", "amount": "10", "reference_id": "rc-keyid"}), "Bearer key id, recharge")
		e.expectInvalidCredentials(e.gwAs("X-API-Key", c.key), "key header alone")
		e.expectInvalidCredentials(e.gwAs("Authorization", "Basic "+basicAuth(c.key, "")), "Basic without secret")
		e.expectInvalidCredentials(e.gwAs("X-API-Key", c.key, "X-API-Secret", c.key), "key id as secret")
		e.expectInvalidCredentials(e.gwAs("Authorization", "Bearer rs_"+strings.Repeat("x", 48)), "unknown secret")
		e.newService("cred-svc", "0.0100")
		e.expectInvalidCredentials(e.do("POST", "/api/v1/cred-svc", "", map[string]any{}, "X-API-Key", c.key), "service call with a key id")
		e.expectInvalidCredentials(e.do("POST", "/api/v1/cred-svc", "", map[string]any{}, "Authorization", "Bearer "+c.key), "service call with a Bearer key id")
		// A secret with another key's id is no credential either.
		other := e.newCustomer("user", "enterprise", "0.00")
		e.expectInvalidCredentials(e.gwAs("X-API-Key", other.key, "X-API-Secret", c.secret), "secret of another key")

		// Rotation: the old secret is refused at once in every form.
		rot := e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/api-keys/%d/rotate-secret", c.keyID), c.token, nil), 200)
		old := c
		c.secret = rot.str("secret")
		fails(old, "rotated-away secret")
		works(c)

		// Revocation: nothing works any more.
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, nil), 200)
		fails(c, "revoked key")
		if logs := e.logs.String(); strings.Contains(logs, c.secret) || strings.Contains(logs, old.secret) {
			t.Fatal("a secret appears in the logs")
		}
		e.ledgerClean()
	})
}

// TestKeyChangesRaceNeverReviveOrRestore races PATCH, rotation and DELETE on
// 20 keys: afterwards every key is revoked and none of its secrets
// authenticates. Then PATCH races rotation on 20 more keys: exactly one
// secret, the one the database holds, authenticates each.
func TestKeyChangesRaceNeverReviveOrRestore(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "enterprise", "0.00")
		type key struct {
			id      uint64
			key     string
			mu      sync.Mutex
			secrets []string // every secret the key was ever given
		}
		newKeys := func(n int) []*key {
			out := make([]*key, n)
			for i := range out {
				r := e.must(e.do("POST", "/api/v1/panel/api-keys", c.token, map[string]any{"name": fmt.Sprintf("race %d", i)}), 201)
				out[i] = &key{id: r.num("id"), key: r.str("key"), secrets: []string{r.str("secret")}}
			}
			return out
		}
		race := func(keys []*key, revoke bool) {
			var wg sync.WaitGroup
			for i, k := range keys {
				for j := 0; j < 3; j++ {
					wg.Add(2)
					go func() {
						defer wg.Done()
						r := e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", k.id), c.token,
							map[string]any{"name": fmt.Sprintf("patched %d.%d", i, j), "daily_limit": 500 + j})
						if r.status != 200 && r.status != 409 {
							t.Errorf("PATCH: %d %s", r.status, r.raw)
						}
					}()
					go func() {
						defer wg.Done()
						r := e.do("POST", fmt.Sprintf("/api/v1/panel/api-keys/%d/rotate-secret", k.id), c.token, nil)
						switch r.status {
						case 200:
							k.mu.Lock()
							k.secrets = append(k.secrets, r.str("secret"))
							k.mu.Unlock()
						case 409:
						default:
							t.Errorf("rotate: %d %s", r.status, r.raw)
						}
					}()
				}
				if revoke {
					wg.Add(1)
					go func() {
						defer wg.Done()
						e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/api-keys/%d", k.id), c.token, nil), 200)
					}()
				}
			}
			wg.Wait()
		}
		authenticates := func(k *key, secret string) bool {
			t.Helper()
			r := e.gwAs("Authorization", "Bearer "+secret)
			if r.status != 200 && r.status != 401 {
				t.Fatalf("gateway: %d %s", r.status, r.raw)
			}
			h := e.gwAs("X-API-Key", k.key, "X-API-Secret", secret)
			if h.status != r.status {
				t.Fatalf("Bearer answered %d, key and secret headers %d", r.status, h.status)
			}
			return r.status == 200
		}
		statuses := func() map[uint64]string {
			l := e.must(e.do("GET", "/api/v1/panel/api-keys?per_page=100", c.token, nil), 200)
			out := map[uint64]string{}
			for _, x := range l.body["data"].([]any) {
				m := x.(map[string]any)
				out[uint64(m["id"].(float64))] = m["status"].(string)
			}
			return out
		}

		revoked := newKeys(20)
		race(revoked, true)
		st := statuses()
		for _, k := range revoked {
			if st[k.id] != string(apikey.StatusRevoked) {
				t.Errorf("key %d is %q after its DELETE answered 200", k.id, st[k.id])
			}
			for _, s := range k.secrets {
				if authenticates(k, s) {
					t.Errorf("a secret of revoked key %d authenticates", k.id)
				}
			}
		}

		rotated := newKeys(20)
		race(rotated, false)
		st = statuses()
		for _, k := range rotated {
			if st[k.id] != string(apikey.StatusActive) {
				t.Errorf("key %d is %q; nothing revoked it", k.id, st[k.id])
			}
			var stored string
			e.store.DB().Raw("SELECT secret FROM api_keys WHERE id = ?", k.id).Scan(&stored)
			good := 0
			for _, s := range k.secrets {
				if authenticates(k, s) {
					good++
					if apikey.HashSecret(s) != stored {
						t.Errorf("key %d: a secret the database no longer holds authenticates", k.id)
					}
				}
			}
			if good != 1 || len(k.secrets) != 4 {
				t.Errorf("key %d: %d of its %d secrets authenticate, want 1 of 4", k.id, good, len(k.secrets))
			}
		}
	})
}

// TestKeyLimitPerUser: at most 50 active keys, also when the creations
// arrive at once; a revoked key frees its place.
func TestKeyLimitPerUser(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		active := func(c customer) int {
			l := e.must(e.do("GET", "/api/v1/panel/api-keys?per_page=100", c.token, nil), 200)
			n := 0
			for _, x := range l.body["data"].([]any) {
				if x.(map[string]any)["status"] == "active" {
					n++
				}
			}
			return n
		}
		create := func(c customer) resp {
			return e.do("POST", "/api/v1/panel/api-keys", c.token, map[string]any{"name": "more"})
		}

		// Concurrent creations never pass the limit.
		c := e.newCustomer("user", "enterprise", "0.00")
		have := active(c)
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[int]int{}
		for i := 0; i < apikey.MaxActiveKeys-have+10; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := create(c)
				mu.Lock()
				codes[r.status]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if codes[201] != apikey.MaxActiveKeys-have || codes[409] != 10 || len(codes) != 2 {
			t.Fatalf("answers %v with %d keys already; want %d created and 10 refused", codes, have, apikey.MaxActiveKeys-have)
		}
		if n := active(c); n != apikey.MaxActiveKeys {
			t.Fatalf("%d active keys, want %d", n, apikey.MaxActiveKeys)
		}

		// The 51st: a clear 409; revoking one makes room for one.
		r := e.must(create(c), 409)
		if r.str("error") != "api_key_limit_reached" || !strings.Contains(r.str("message"), "50") {
			t.Fatalf("51st key: %s", r.raw)
		}
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, nil), 200)
		e.must(create(c), 201)
		e.must(create(c), 409)
	})
}

// TestAllowedServicesCap: at most 200 ids, refused before any lookup; up to
// 200 are checked in one query that names the unknown ones.
func TestAllowedServicesCap(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		svc := e.newService("cap-svc", "0.0100")
		c := e.newCustomer("user", "enterprise", "0.00")
		path := fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID)
		ids := func(n int, first uint64) []uint64 {
			out := make([]uint64, n)
			for i := range out {
				out[i] = first + uint64(i)
			}
			return out
		}
		tooMany := func(r resp, what string) {
			t.Helper()
			fe, _ := r.body["errors"].(map[string]any)
			if r.status != 422 || fe == nil || !strings.Contains(fmt.Sprint(fe["allowed_services"]), "at most 200") {
				t.Fatalf("%s: %d %s", what, r.status, r.raw)
			}
		}
		tooMany(e.do("PATCH", path, c.token, map[string]any{"allowed_services": ids(201, svc)}), "PATCH 201 ids")
		tooMany(e.do("POST", "/api/v1/panel/api-keys", c.token, map[string]any{"name": "k", "allowed_services": ids(201, svc)}), "POST 201 ids")

		// 20,000 unknown ids are refused by their count, without a lookup each.
		start := time.Now()
		tooMany(e.do("PATCH", path, c.token, map[string]any{"allowed_services": ids(20_000, 1_000_000)}), "PATCH 20000 ids")
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("20000 ids took %s to refuse", d)
		}

		// 200 ids: checked in one query; the unknown ones are named.
		list := append([]uint64{svc}, ids(199, 5_000_000)...)
		r := e.must(e.do("PATCH", path, c.token, map[string]any{"allowed_services": list}), 422)
		msgs := fmt.Sprint(r.body["errors"].(map[string]any)["allowed_services"])
		if !strings.Contains(msgs, "service 5000000 does not exist") || strings.Contains(msgs, fmt.Sprintf("service %d does", svc)) {
			t.Fatalf("unknown ids: %s", r.raw)
		}
		// Repeats count once; a known list is kept.
		r = e.must(e.do("PATCH", path, c.token, map[string]any{"allowed_services": []uint64{svc, svc, svc}}), 200)
		if got := r.body["allowed_services"].([]any); len(got) != 1 {
			t.Fatalf("allowed_services %v", got)
		}
	})
}
