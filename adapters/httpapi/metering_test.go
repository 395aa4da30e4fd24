package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"
)

func TestMeteredCallSuccessEnvelopeLedgerAndHitLog(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		var seenKey, seenBody atomic.Value
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			seenKey.Store(r.Header.Get("X-Provider-Key"))
			seenBody.Store(string(b))
			io.WriteString(w, `{"message_id":"m1","status":"queued","delivery_status":"pending"}`)
		})
		e.newService("sms", "0.5000")
		c := e.newCustomer("user", "starter", "10.00")

		r := e.must(e.call(c, "sms", map[string]any{"phone": "9876543210", "message": "hello"}), 200)
		if r.body["success"] != true || r.str("charged") != "0.5000" || r.str("balance_left") != "9.50" {
			t.Fatalf("envelope %s", r.raw)
		}
		if !strings.HasPrefix(r.str("request_id"), "req_") || r.header.Get("X-Request-ID") != r.str("request_id") {
			t.Fatalf("request id %q / header %q", r.str("request_id"), r.header.Get("X-Request-ID"))
		}
		// The JSON access log has one line for the call, with the same id.
		found := false
		for _, line := range strings.Split(e.logs.String(), "\n") {
			var l map[string]any
			if json.Unmarshal([]byte(line), &l) == nil && l["msg"] == "request" && l["request_id"] == r.str("request_id") {
				found = l["path"] == "/api/v1/sms" && l["status"] == float64(200)
			}
		}
		if !found {
			t.Fatalf("no access log line for %s:\n%s", r.str("request_id"), e.logs.String())
		}
		data := r.body["data"].(map[string]any)
		if data["message_id"] != "m1" || data["delivery_status"] != "pending" {
			t.Fatalf("data %v", data)
		}
		if seenKey.Load() != "upstream-secret-value" || !strings.Contains(seenBody.Load().(string), `"hello"`) {
			t.Fatalf("upstream saw key %v body %v", seenKey.Load(), seenBody.Load())
		}
		if got := e.balance(c); got != "9.50" {
			t.Fatalf("balance %s", got)
		}
		tx := e.must(e.do("GET", "/api/v1/panel/transactions?type=debit", c.token, nil), 200)
		rows := tx.body["data"].([]any)
		if len(rows) != 1 {
			t.Fatalf("debits %s", tx.raw)
		}
		d := rows[0].(map[string]any)
		if d["reference_type"] != "api_hit" || d["amount"] != "0.50" || d["balance_before"] != "10.00" || d["balance_after"] != "9.50" || !strings.HasPrefix(d["txn_id"].(string), "TXN") {
			t.Fatalf("debit row %v", d)
		}
		hits := e.must(e.do("GET", "/api/v1/panel/hit-logs", c.token, nil), 200).body["data"].([]any)
		h := hits[0].(map[string]any)
		if len(hits) != 1 || h["request_id"] != r.str("request_id") || h["status"] != "success" || h["charge_amount"] != "0.5000" {
			t.Fatalf("hit %v", h)
		}
		e.ledgerClean()
	})
}

// TestChecksInOrder walks the order of checks (docs/decisions.md, "Order of
// checks and the error body"): each check's status, message and code, and
// which of them write a hit log row.
func TestChecksInOrder(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		svc := e.newService("sms", "1.0000")
		other := e.newService("other", "1.0000")
		e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/services/%d/docs", svc), e.admin, map[string]any{
			"endpoint": "/api/v1/sms", "method": "POST", "description": "Send an SMS",
			"request_params": map[string]any{
				"phone":   map[string]any{"type": "string", "required": true, "pattern": "^[0-9]{10}$"},
				"message": map[string]any{"type": "string", "required": true, "max_length": 160},
			},
			"response_example": map[string]any{"success": true}, "error_codes": map[string]string{"401": "Invalid API credentials"},
		}), 200)
		c := e.newCustomer("user", "starter", "5.00")
		ok := map[string]any{"phone": "9876543210", "message": "hi"}

		expect := func(r resp, status int, msg, code string) {
			t.Helper()
			if r.status != status || r.str("message") != msg || r.str("error") != code || r.body["success"] != false {
				t.Fatalf("want %d %q %q, got %d %s", status, msg, code, r.status, r.raw)
			}
		}
		hitCount := func() int {
			return int(e.must(e.do("GET", "/api/v1/panel/hit-logs", c.token, nil), 200).body["meta"].(map[string]any)["total"].(float64))
		}

		expect(e.call(c, "nope", ok), 404, "Service not found", "service_not_found")
		expect(e.do("POST", "/api/v1/sms", "", ok, "X-API-Key", c.key, "X-API-Secret", "rs_wrong"), 401, "Invalid API credentials", "invalid_credentials")
		expect(e.do("POST", "/api/v1/sms", "", ok), 401, "Invalid API credentials", "invalid_credentials")
		expect(e.do("POST", "/api/v1/sms?api_key="+c.key+"&api_secret="+c.secret, "", ok), 401, "Invalid API credentials", "invalid_credentials")
		// HTTP Basic works as well as the headers.
		basic := e.do("POST", "/api/v1/sms", "", ok, "Authorization", "Basic "+basicAuth(c.key, c.secret))
		e.must(basic, 200)
		if n := hitCount(); n != 1 {
			t.Fatalf("rejections before the credentials step must not write hit logs; %d rows", n)
		}

		// IP allow list (the test client is 127.0.0.1).
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"allowed_ips": "203.0.113.7, 10.0.0.0/8"}), 200)
		expect(e.call(c, "sms", ok), 403, "IP not whitelisted", "ip_not_whitelisted")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"allowed_ips": "127.0.0.0/8"}), 200)
		e.must(e.call(c, "sms", ok), 200)

		// Allowed services.
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"allowed_services": []uint64{other}}), 200)
		expect(e.call(c, "sms", ok), 403, "Service not allowed for this key", "service_not_allowed")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"allowed_services": []uint64{}}), 200)

		// Parameters from the docs.
		r := e.call(c, "sms", map[string]any{"phone": "123", "extra": 1})
		expect(r, 422, "Invalid parameters", "validation_failed")
		errsMap := r.body["errors"].(map[string]any)
		for _, f := range []string{"phone", "message", "extra"} {
			if errsMap[f] == nil {
				t.Fatalf("no error for %s: %s", f, r.raw)
			}
		}
		r = e.do("POST", "/api/v1/sms", "", "[1,2]", "X-API-Key", c.key, "X-API-Secret", c.secret)
		expect(r, 422, "Invalid parameters", "validation_failed")
		if r.body["errors"].(map[string]any)["body"] == nil {
			t.Fatalf("no body error: %s", r.raw)
		}
		wrong := e.do("GET", "/api/v1/sms", "", nil, "X-API-Key", c.key, "X-API-Secret", c.secret)
		expect(wrong, 405, "Method not allowed for this service", "method_not_allowed")
		if wrong.header.Get("Allow") != "POST" {
			t.Fatalf("Allow header %q", wrong.header.Get("Allow"))
		}

		// Balance: 5.00 - 2 calls = 3.00; three more calls succeed, the fourth gets 402.
		for i := 0; i < 3; i++ {
			e.must(e.call(c, "sms", ok), 200)
		}
		expect(e.call(c, "sms", ok), 402, "Insufficient balance", "insufficient_balance")
		if b := e.balance(c); b != "0.00" {
			t.Fatalf("balance %s", b)
		}

		// Daily limit: the key has counted every call that passed steps 1-4.
		keys := e.must(e.do("GET", "/api/v1/panel/api-keys", c.token, nil), 200).body["data"].([]any)
		hitsToday := int(keys[0].(map[string]any)["hits_today"].(float64))
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"daily_limit": hitsToday}), 200)
		expect(e.call(c, "sms", ok), 429, "Daily limit exceeded", "daily_limit_exceeded")

		// Hit log statuses: one row for every call that got past the credentials.
		hits := e.must(e.do("GET", "/api/v1/panel/hit-logs?per_page=100", c.token, nil), 200).body["data"].([]any)
		count := map[string]int{}
		for _, h := range hits {
			hm := h.(map[string]any)
			count[hm["status"].(string)]++
			if hm["status"] != "success" && hm["charge_amount"] != "0.0000" {
				t.Fatalf("unbilled hit with a charge: %v", hm)
			}
		}
		if count["success"] != 5 || count["insufficient_balance"] != 1 || count["failed"] != 5 {
			t.Fatalf("hit statuses %v", count)
		}

		// Owner blocked: 403 Account is not active.
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", c.id), e.admin, nil), 200)
		expect(e.call(c, "sms", ok), 403, "Account is not active", "account_not_active")
		// Soft-deleted owner: 401.
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, nil), 204)
		expect(e.call(c, "sms", ok), 401, "Invalid API credentials", "invalid_credentials")
		e.ledgerClean()
	})
}

func TestUpstreamFailureIsRefunded(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("flaky", "1.2500")
		c := e.newCustomer("reseller", "enterprise", "10.00")
		cases := []struct {
			name    string
			handler func(w http.ResponseWriter, r *http.Request)
			message string
		}{
			{"500 with message", func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(503)
				io.WriteString(w, `{"message":"Provider down for maintenance"}`)
			}, "Provider down for maintenance"},
			{"invalid json", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `not json`) }, "Service error: upstream answered invalid JSON"},
			{"plain 404", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(404) }, "Service error"},
		}
		for _, tc := range cases {
			e.setUpstream(tc.handler)
			r := e.call(c, "flaky", map[string]any{})
			if r.status != 500 || r.str("message") != tc.message || r.str("error") != "upstream_error" || r.str("request_id") == "" {
				t.Fatalf("%s: %d %s", tc.name, r.status, r.raw)
			}
		}
		if b := e.balance(c); b != "10.00" {
			t.Fatalf("balance after refunds %s", b)
		}
		tx := e.must(e.do("GET", "/api/v1/panel/transactions?type=refund", c.token, nil), 200)
		if tx.body["meta"].(map[string]any)["total"].(float64) != 3 {
			t.Fatalf("refunds %s", tx.raw)
		}
		hits := e.must(e.do("GET", "/api/v1/panel/hit-logs?status=failed", c.token, nil), 200).body["data"].([]any)
		if len(hits) != 3 {
			t.Fatalf("failed hits %d", len(hits))
		}
		for _, h := range hits {
			hm := h.(map[string]any)
			if hm["charge_amount"] != "0.0000" || hm["response_payload"] == nil {
				t.Fatalf("failed hit %v", hm)
			}
		}
		e.ledgerClean()
	})
}

// TestConcurrentCallsNeverOverdraw: 200 concurrent calls from a user whose
// balance covers exactly 57.
func TestConcurrentCallsNeverOverdraw(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("race", "0.7500")
		c := e.newCustomer("user", "enterprise", "42.75") // 57 × 0.75
		codes := hammer(200, func() int { return e.call(c, "race", map[string]any{}).status })
		if codes[200] != 57 || codes[402] != 143 || len(codes) != 2 {
			t.Fatalf("statuses %v", codes)
		}
		if b := e.balance(c); b != "0.00" {
			t.Fatalf("balance %s", b)
		}
		if got := e.upHits.Load(); got != 57 {
			t.Fatalf("upstream called %d times", got)
		}
		hits := e.must(e.do("GET", "/api/v1/panel/hit-logs?status=success", c.token, nil), 200)
		ib := e.must(e.do("GET", "/api/v1/panel/hit-logs?status=insufficient_balance", c.token, nil), 200)
		debits := e.must(e.do("GET", "/api/v1/panel/transactions?type=debit", c.token, nil), 200)
		if total(hits) != 57 || total(ib) != 143 || total(debits) != 57 {
			t.Fatalf("hits %d, insufficient %d, debits %d", total(hits), total(ib), total(debits))
		}
		e.ledgerClean()
	})
}

func TestDailyLimitExactUnderConcurrency(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("limited", "0.0100")
		c := e.newCustomer("user", "enterprise", "100.00")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"daily_limit": 30}), 200)
		codes := hammer(100, func() int { return e.call(c, "limited", map[string]any{}).status })
		if codes[200] != 30 || codes[429] != 70 {
			t.Fatalf("statuses %v", codes)
		}
		if b := e.balance(c); b != "99.70" {
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}

func TestHalfFailingUpstreamRefundsEveryFailure(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		var n atomic.Int64
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1)%2 == 0 {
				w.WriteHeader(502)
				io.WriteString(w, `{"error":"bad gateway"}`)
				return
			}
			io.WriteString(w, `{"ok":true}`)
		})
		e.newService("half", "0.3300")
		c := e.newCustomer("user", "enterprise", "50.00")
		codes := hammer(120, func() int { return e.call(c, "half", map[string]any{}).status })
		if codes[200]+codes[500] != 120 || codes[200] != 60 {
			t.Fatalf("statuses %v", codes)
		}
		want := decimal.RequireFromString("50.00").Sub(decimal.RequireFromString("0.33").Mul(decimal.NewFromInt(int64(codes[200]))))
		if b := e.balance(c); b != want.StringFixed(2) {
			t.Fatalf("balance %s, want %s", b, want.StringFixed(2))
		}
		refunds := e.must(e.do("GET", "/api/v1/panel/transactions?type=refund", c.token, nil), 200)
		if total(refunds) != int64(codes[500]) {
			t.Fatalf("refunds %d for %d failures", total(refunds), codes[500])
		}
		e.ledgerClean()
	})
}

func TestStarterPlanLimit(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("plan", "0.0100")
		c := e.newCustomer("user", "starter", "100.00")
		codes := hammer(110, func() int { return e.call(c, "plan", map[string]any{}).status })
		if codes[200] != 100 || codes[429] != 10 {
			t.Fatalf("statuses %v", codes)
		}
		r := e.call(c, "plan", map[string]any{})
		if r.status != 429 || r.str("message") != "Monthly plan limit reached" {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, map[string]any{"plan": "enterprise"}), 200)
		e.must(e.call(c, "plan", map[string]any{}), 200)
		e.ledgerClean()
	})
}

func hammer(n int, f func() int) map[int]int {
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := f()
			mu.Lock()
			codes[s]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return codes
}

func total(r resp) int64 { return int64(r.body["meta"].(map[string]any)["total"].(float64)) }

func basicAuth(k, s string) string { return base64.StdEncoding.EncodeToString([]byte(k + ":" + s)) }

// Bytes that are not UTF-8 (JSON lets them through inside strings), in a
// request or in an upstream's answer, are stored as U+FFFD: MySQL refuses
// such text, and one refused row must not fail other users' calls that
// were group-committed with it.
func TestInvalidUTF8DoesNotFailOtherCalls(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("bytes", "0.1000")
		bad := e.newCustomer("user", "starter", "5.00")
		good := e.newCustomer("user", "starter", "5.00")
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "{\"echo\":\"caf\xe9\"}")
		})
		codes := hammer(20, func() int {
			if seq.Add(1)%2 == 0 {
				return e.call(bad, "bytes", "{\"a\":\"\xff\xfe\"}").status
			}
			return e.call(good, "bytes", map[string]any{"a": "fine"}).status
		})
		if codes[200] != 20 {
			t.Fatalf("statuses %v, want every call 200", codes)
		}
		logs := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/hit-logs?user_id=%d", bad.id), e.admin, nil), 200)
		if !strings.Contains(logs.raw, "\\ufffd") && !strings.Contains(logs.raw, "\ufffd") {
			t.Fatalf("hit log payloads do not show the replacement character: %s", logs.raw)
		}
		e.ledgerClean()
	})
}
