package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/core/gateway"
	"paygate/core/gateway/recharge"
)

// gw calls a gateway endpoint with the customer's secret as Bearer token.
func (e *env) gw(c customer, method, path string, body any, headers ...string) resp {
	e.t.Helper()
	return e.do(method, path, c.secret, body, headers...)
}

func (e *env) hitStatuses(c customer) map[string]int {
	e.t.Helper()
	r := e.must(e.do("GET", "/api/v1/panel/hit-logs?per_page=100", c.token, nil), 200)
	out := map[string]int{}
	for _, h := range r.body["data"].([]any) {
		out[h.(map[string]any)["status"].(string)]++
	}
	return out
}

func TestGatewayVerify(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "5.00")

		r := e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "pan", "pan": "abcpe1234f"}), 200)
		d := r.body["data"].(map[string]any)
		if d["verified"] != true || d["identifier"] != "XXXXXX234F" || d["type"] != "pan" || d["name_at_source"] == nil ||
			!strings.HasPrefix(d["reference_id"].(string), "VRF") || r.str("charged") != "1.0000" || r.str("balance_left") != "4.00" {
			t.Fatalf("verify: %s", r.raw)
		}
		// Aadhaar with a bad check digit: 422, logged, not billed.
		r = e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "aadhaar", "aadhaar": "234567890123"}), 422)
		if r.body["errors"].(map[string]any)["aadhaar"] == nil {
			t.Fatalf("aadhaar: %s", r.raw)
		}
		// An unknown field and a field of the wrong type are field errors.
		r = e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "upi", "vpa": true, "extra": 1}), 422)
		if errsOf := r.body["errors"].(map[string]any); errsOf["vpa"] == nil || errsOf["extra"] == nil {
			t.Fatalf("types: %s", r.raw)
		}
		// Anything but JSON's blanks after the object is a malformed body:
		// refused before metering, nothing billed.
		for _, body := range []string{`{"type":"pan","pan":"abcpe1234f"}]`, "{\"type\":\"pan\",\"pan\":\"abcpe1234f\"}\v"} {
			r = e.must(e.gw(c, "POST", "/api/v1/account/verify", body), 400)
			if e.balance(c) != "4.00" {
				t.Fatalf("trailing bytes %q: %s, balance %s", body, r.raw, e.balance(c))
			}
		}
		// Not verified is billed; a provider outage is 503 and refunded.
		r = e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "bank_account", "account_number": "123456780000", "ifsc": "hdfc0001234"}), 200)
		if d := r.body["data"].(map[string]any); d["verified"] != false || d["identifier"] != "XXXXXXXX0000 / HDFC0001234" || r.str("balance_left") != "3.00" {
			t.Fatalf("not verified: %s", r.raw)
		}
		r = e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "upi", "vpa": "down.bank@okaxis"}), 503)
		if r.str("error") != "provider_unavailable" || e.balance(c) != "3.00" {
			t.Fatalf("outage: %s, balance %s", r.raw, e.balance(c))
		}
		// Only masked identifiers are stored: the hit logs never show the PAN.
		logs := e.must(e.do("GET", "/api/v1/panel/hit-logs?per_page=100", c.token, nil), 200).raw
		if strings.Contains(logs, "ABCPE1234F") || strings.Contains(logs, "123456780000") || !strings.Contains(logs, "XXXXXX234F") {
			t.Fatalf("hit logs keep an identifier: %s", logs)
		}
		var n int64
		e.store.DB().Raw("SELECT COUNT(*) FROM verifications WHERE masked_identifier LIKE '%1234F%' OR masked_identifier LIKE '%ABCPE%'").Scan(&n)
		if n != 0 {
			t.Fatal("a verification record keeps the PAN")
		}
		if st := e.hitStatuses(c); st["success"] != 2 || st["failed"] != 3 {
			t.Fatalf("hit statuses %v", st)
		}
		// The scheme is case-insensitive.
		e.must(e.do("POST", "/api/v1/account/verify", "", map[string]any{"type": "upi", "vpa": "rahul.sharma@okaxis"}, "Authorization", "bearer "+c.secret), 200)
		// Bad key: 401; no key: 401.
		e.must(e.do("POST", "/api/v1/account/verify", "rk_live_nope", map[string]any{"type": "upi", "vpa": "a@b"}), 401)
		e.must(e.do("POST", "/api/v1/account/verify", "", map[string]any{"type": "upi", "vpa": "a@b"}), 401)
		// Broke: 402 with an insufficient_balance hit.
		poor := e.newCustomer("user", "starter", "0.50")
		e.must(e.gw(poor, "POST", "/api/v1/account/verify", map[string]any{"type": "upi", "vpa": "rahul.sharma@okaxis"}), 402)
		if st := e.hitStatuses(poor); st["insufficient_balance"] != 1 {
			t.Fatalf("poor hits %v", st)
		}
		e.ledgerClean()
	})
}

func TestGatewayKeyChecks(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "5.00")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"allowed_ips": "203.0.113.7"}), 200)
		r := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": 10, "currency": "INR", "customer_id": "c", "callback_url": "https://shop.example/cb"}), 403)
		if r.str("error") != "ip_not_whitelisted" {
			t.Fatalf("ip: %s", r.raw)
		}
		e.must(e.gw(c, "GET", "/api/v1/transaction/list", nil), 403)
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/api-keys/%d", c.keyID), c.token, map[string]any{"allowed_ips": "", "daily_limit": 1}), 200)
		e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": 10, "currency": "INR", "customer_id": "c", "callback_url": "https://shop.example/cb"}), 201)
		r = e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": 10, "currency": "INR", "customer_id": "c", "callback_url": "https://shop.example/cb"}), 429)
		if r.str("error") != "daily_limit_exceeded" {
			t.Fatalf("daily: %s", r.raw)
		}
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", c.id), e.admin, nil), 200)
		r = e.must(e.gw(c, "GET", "/api/v1/transaction/list", nil), 403)
		if r.str("error") != "account_not_active" {
			t.Fatalf("blocked: %s", r.raw)
		}
	})
}

// TestGatewayPlanLimit: Starter allows 100 billed calls a month across
// gateway and service calls; enterprise is unlimited.
func TestGatewayPlanLimit(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("plan-svc", "0.0100")
		c := e.newCustomer("user", "starter", "10.00")
		// Start the month 98 calls in, as the store would after 98 calls.
		month := time.Now().In(e.app.History.Location()).Format("2006-01")
		e.store.DB().Exec("UPDATE users SET plan_month = ?, plan_calls = 98 WHERE id = ?", month, c.id)
		e.must(e.call(c, "plan-svc", map[string]any{}), 200)
		pay := map[string]any{"amount": "10", "currency": "INR", "customer_id": "c", "callback_url": "https://shop.example/cb"}
		e.must(e.gw(c, "POST", "/api/v1/payment/create", pay), 201)
		r := e.must(e.gw(c, "POST", "/api/v1/payment/create", pay), 429)
		if r.str("message") != "Monthly plan limit reached" {
			t.Fatalf("plan: %s", r.raw)
		}
		r = e.must(e.call(c, "plan-svc", map[string]any{}), 429)
		if r.str("error") != "monthly_plan_limit_reached" {
			t.Fatalf("plan svc: %s", r.raw)
		}
		// The admin moves the user to enterprise: unlimited.
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, map[string]any{"plan": "enterprise"}), 200)
		e.must(e.gw(c, "POST", "/api/v1/payment/create", pay), 201)
		e.ledgerClean()
	})
}

func TestGatewayPaymentCreateAndCheckout(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		other := e.newCustomer("user", "starter", "0.00")
		body := `{"amount": 100000.00, "currency": "INR", "customer_id": "cust-9", "callback_url": "https://shop.example/orders/9/cb"}`
		r := e.must(e.gw(c, "POST", "/api/v1/payment/create", body), 201)
		id, payURL := r.str("payment_id"), r.str("payment_url")
		if r.str("status") != "success" || !strings.HasPrefix(id, "pay_") || !strings.HasSuffix(payURL, "/"+id) {
			t.Fatalf("create: %s", r.raw)
		}
		// Amounts are exact: never through a float.
		e.must(e.gw(c, "POST", "/api/v1/payment/create", `{"amount": 0.1e1, "currency": "INR", "customer_id": "c", "callback_url": "https://x.example/"}`), 422)
		r = e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": "10.005", "currency": "USD", "callback_url": "ftp://x"}), 422)
		for _, f := range []string{"amount", "currency", "customer_id", "callback_url"} {
			if r.body["errors"].(map[string]any)[f] == nil {
				t.Errorf("no error on %s: %s", f, r.raw)
			}
		}

		st := e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200)
		d := st.body["data"].(map[string]any)
		if d["status"] != "created" || d["amount"] != "100000.00" || d["customer_id"] != "cust-9" {
			t.Fatalf("status: %s", st.raw)
		}
		// Another merchant does not see it; an unknown id is 404.
		e.must(e.gw(other, "GET", "/api/v1/payment/status?payment_id="+id, nil), 404)
		e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id=pay_nope", nil), 404)

		// The payer opens the page: created → pending.
		page := e.page("GET", "/"+id, nil)
		if page.status != 200 || !strings.Contains(page.raw, "₹1,00,000.00") || !strings.Contains(page.raw, "upi://pay?pa=") ||
			!strings.Contains(page.raw, "tr="+id) || !strings.Contains(page.raw, "data:image/png;base64,") ||
			!strings.Contains(page.raw, "https://shop.example/") || !strings.Contains(page.raw, "User") {
			t.Fatalf("page %d: %s", page.status, page.raw)
		}
		if s := e.must(e.do("GET", "/"+id+"/status", "", nil), 200); s.str("status") != "pending" {
			t.Fatalf("page status: %s", s.raw)
		}
		// A cross-site post is refused; a same-origin one pays.
		if p := e.page("POST", "/"+id+"/pay", map[string]string{"Origin": "https://evil.example"}); p.status != 403 {
			t.Fatalf("cross-site pay: %d", p.status)
		}
		if p := e.page("POST", "/"+id+"/pay", map[string]string{"Origin": e.url}); p.status != 303 {
			t.Fatalf("pay: %d %s", p.status, p.raw)
		}
		st = e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200)
		if d := st.body["data"].(map[string]any); d["status"] != "success" || d["completed_at"] == nil {
			t.Fatalf("after pay: %s", st.raw)
		}
		// Only forward: "Fail" after success changes nothing.
		e.page("POST", "/"+id+"/fail", nil)
		if s := e.must(e.do("GET", "/"+id+"/status", "", nil), 200); s.str("status") != "success" {
			t.Fatalf("moved back: %s", s.raw)
		}
		if p := e.page("GET", "/pay_01UNKNOWN", nil); p.status != 404 || !strings.Contains(p.raw, "Payment not found") {
			t.Fatalf("unknown page: %d", p.status)
		}

		// The panel lists it for its owner and admins only.
		list := e.must(e.do("GET", "/api/v1/panel/payments", c.token, nil), 200)
		if list.body["meta"].(map[string]any)["total"].(float64) != 1 {
			t.Fatalf("owner list: %s", list.raw)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/payments", other.token, nil), 200); l.body["meta"].(map[string]any)["total"].(float64) != 0 {
			t.Fatalf("other list: %s", l.raw)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/payments?status=success", e.admin, nil), 200); l.body["meta"].(map[string]any)["total"].(float64) != 1 {
			t.Fatalf("admin list: %s", l.raw)
		}
		// A zero charge writes no ledger row; the hit log records 0.0000.
		if l := e.must(e.gw(c, "GET", "/api/v1/transaction/list?type=debit", nil), 200); l.body["meta"].(map[string]any)["total"].(float64) != 0 {
			t.Fatalf("ledger rows for a free call: %s", l.raw)
		}
		e.ledgerClean()
	})
}

// browserPost gives a POST without Origin and Sec-Fetch-Site the
// Sec-Fetch-Site a browser sends with a form of the same page (the checkout
// refuses a post with neither).
func browserPost(req *http.Request) {
	if req.Method == "POST" && req.Header.Get("Origin") == "" && req.Header.Get("Sec-Fetch-Site") == "" {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
}

// page requests a checkout page (outside the JSON API) as a browser would,
// without following redirects.
func (e *env) page(method, path string, headers map[string]string) resp {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.url+path, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	browserPost(req)
	return e.sendPage(req)
}

// sendPage sends a request outside the JSON API without following
// redirects.
func (e *env) sendPage(req *http.Request) resp {
	e.t.Helper()
	cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := cl.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, raw: string(raw), header: res.Header}
}

func TestGatewayPaymentIdempotency(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		body := map[string]any{"amount": "250", "currency": "INR", "customer_id": "c1", "callback_url": "https://shop.example/cb"}

		// Concurrent duplicates: one payment, every answer the same.
		const n = 8
		ids := make([]string, n)
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.gw(c, "POST", "/api/v1/payment/create", body, "Idempotency-Key", "order-1")
				ids[i], codes[i] = r.str("payment_id"), r.status
			}()
		}
		wg.Wait()
		for i := range n {
			if codes[i] != 201 || ids[i] != ids[0] || ids[i] == "" {
				t.Fatalf("duplicate %d: %d %q (first %q)", i, codes[i], ids[i], ids[0])
			}
		}
		var count int64
		e.store.DB().Raw("SELECT COUNT(*) FROM payments WHERE user_id = ?", c.id).Scan(&count)
		if count != 1 {
			t.Fatalf("%d payments for one Idempotency-Key", count)
		}
		// "250" and 250.00 are the same request.
		r := e.must(e.gw(c, "POST", "/api/v1/payment/create", `{"amount": 250.00, "currency": "INR", "customer_id": "c1", "callback_url": "https://shop.example/cb"}`,
			"Idempotency-Key", "order-1"), 201)
		if r.str("payment_id") != ids[0] || r.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %s", r.raw)
		}
		// The same key with another body: 409.
		body["amount"] = "251"
		r = e.must(e.gw(c, "POST", "/api/v1/payment/create", body, "Idempotency-Key", "order-1"), 409)
		if r.str("error") != "idempotency_key_reused" {
			t.Fatalf("reuse: %s", r.raw)
		}
		// Another key: another payment. After 24 h the key is free again.
		if r := e.must(e.gw(c, "POST", "/api/v1/payment/create", body, "Idempotency-Key", "order-2"), 201); r.str("payment_id") == ids[0] {
			t.Fatal("another key answered the first payment")
		}
		e.store.DB().Exec("UPDATE payment_idempotency_keys SET expires_at = ? WHERE idem_key = 'order-1'", time.Now().UTC().Add(-time.Minute))
		if r := e.must(e.gw(c, "POST", "/api/v1/payment/create", body, "Idempotency-Key", "order-1"), 201); r.str("payment_id") == ids[0] {
			t.Fatal("an expired key still answered")
		}
		e.ledgerClean()
	})
}

func TestGatewayPaymentExpiry(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		pay := map[string]any{"amount": "99", "currency": "INR", "customer_id": "c", "callback_url": "https://shop.example/cb"}
		a := e.must(e.gw(c, "POST", "/api/v1/payment/create", pay), 201).str("payment_id")
		b := e.must(e.gw(c, "POST", "/api/v1/payment/create", pay), 201).str("payment_id")
		e.page("GET", "/"+b, nil) // pending
		past := time.Now().UTC().Add(-time.Second)
		e.store.DB().Exec("UPDATE payments SET expires_at = ?", past)

		n, err := e.app.Gateway.ExpirePayments(context.Background(), 100)
		if err != nil || n != 2 {
			t.Fatalf("expired %d: %v", n, err)
		}
		if n, _ := e.app.Gateway.ExpirePayments(context.Background(), 100); n != 0 {
			t.Fatalf("expired again: %d", n)
		}
		for _, id := range []string{a, b} {
			st := e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200)
			if st.body["data"].(map[string]any)["status"] != "expired" {
				t.Fatalf("%s: %s", id, st.raw)
			}
			if p := e.page("GET", "/"+id, nil); p.status != 410 || !strings.Contains(p.raw, "expired") {
				t.Fatalf("expired page %d: %s", p.status, p.raw)
			}
		}
		// Paying an expired payment changes nothing.
		e.page("POST", "/"+a+"/pay", nil)
		if s := e.must(e.do("GET", "/"+a+"/status", "", nil), 200); s.str("status") != "expired" {
			t.Fatalf("paid after expiry: %s", s.raw)
		}
	})
}

func TestGatewayRecharge(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "500.00")
		ops := e.must(e.do("GET", "/api/v1/recharge/operators", "", nil), 200)
		circles := e.must(e.do("GET", "/api/v1/recharge/circles", "", nil), 200)
		if len(ops.body["data"].([]any)) != 4 || len(circles.body["data"].([]any)) != 22 {
			t.Fatalf("lists: %s %s", ops.raw, circles.raw)
		}
		rc := map[string]any{"mobile": "9876543210", "operator": "jio", "circle": "delhi", "amount": 199, "reference_id": "r-1"}
		r := e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", rc), 200)
		d := r.body["data"].(map[string]any)
		if d["status"] != "pending" || d["amount"] != "199.00" || r.str("balance_left") != "301.00" || r.str("charged") != "0.0000" {
			t.Fatalf("recharge: %s", r.raw)
		}
		// The same reference and request: the same recharge, no second debit.
		r = e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "9876543210", "operator": "JIO", "circle": "delhi", "amount": "199.00", "reference_id": "r-1"}), 200)
		if r.body["data"].(map[string]any)["id"] != d["id"] || r.header.Get("Idempotent-Replayed") != "true" || e.balance(c) != "301.00" {
			t.Fatalf("retry: %s balance %s", r.raw, e.balance(c))
		}
		// The same reference with another request: 409.
		rc["amount"] = 200
		if r := e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", rc), 409); r.str("error") != "reference_id_reused" {
			t.Fatalf("reuse: %s", r.raw)
		}
		// An amount ending in 7 fails after the pending phase; 0000 fails at once.
		e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "9876543211", "operator": "airtel", "circle": "mumbai", "amount": "47", "reference_id": "r-2"}), 200)
		r = e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "9876540000", "operator": "vi", "circle": "kerala", "amount": "10", "reference_id": "r-3"}), 200)
		if d := r.body["data"].(map[string]any); d["status"] != "failed" || d["fail_reason"] != "Invalid mobile number" || r.str("balance_left") != "254.00" {
			t.Fatalf("immediate failure: %s", r.raw)
		}
		// Two checkers at once (two instances), once the first check is due:
		// each recharge finishes once.
		e.skew.Store(int64(recharge.FirstCheck))
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := e.app.Gateway.CheckRecharges(context.Background(), 100); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		s := e.must(e.gw(c, "GET", "/api/v1/recharge/status?reference_id=r-1", nil), 200)
		if d := s.body["data"].(map[string]any); d["status"] != "success" || d["operator_ref"] == nil {
			t.Fatalf("r-1: %s", s.raw)
		}
		s = e.must(e.gw(c, "GET", "/api/v1/recharge/status?reference_id=r-2", nil), 200)
		if d := s.body["data"].(map[string]any); d["status"] != "failed" || d["fail_reason"] != "Operator declined" {
			t.Fatalf("r-2: %s", s.raw)
		}
		r2ID := uint64(s.body["data"].(map[string]any)["id"].(float64))
		e.must(e.gw(c, "GET", "/api/v1/recharge/status?reference_id=r-9", nil), 404)
		if b := e.balance(c); b != "301.00" {
			t.Fatalf("balance %s after one success and two refunded failures", b)
		}
		// Exactly one refund per failed recharge.
		refunds := e.must(e.gw(c, "GET", "/api/v1/transaction/list?type=refund", nil), 200)
		if refunds.body["meta"].(map[string]any)["total"].(float64) != 2 {
			t.Fatalf("refunds: %s", refunds.raw)
		}
		all := e.must(e.gw(c, "GET", "/api/v1/transaction/list?per_page=2&page=1", nil), 200)
		rows := all.body["data"].([]any)
		if all.body["meta"].(map[string]any)["total"].(float64) != 6 || len(rows) != 2 ||
			rows[0].(map[string]any)["reference_type"] != "recharge" || rows[0].(map[string]any)["id"].(float64) < rows[1].(map[string]any)["id"].(float64) {
			t.Fatalf("ledger list: %s", all.raw)
		}
		e.must(e.gw(c, "GET", "/api/v1/transaction/list?type=nope", nil), 422)
		if l := e.must(e.do("GET", "/api/v1/panel/recharges?status=failed", c.token, nil), 200); l.body["meta"].(map[string]any)["total"].(float64) != 2 {
			t.Fatalf("panel recharges: %s", l.raw)
		}
		// Validation: 422 with the fields.
		r = e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "12345", "operator": "x", "circle": "atlantis", "amount": 5}), 422)
		for _, f := range []string{"mobile", "operator", "circle", "amount", "reference_id"} {
			if r.body["errors"].(map[string]any)[f] == nil {
				t.Errorf("no error on %s: %s", f, r.raw)
			}
		}
		e.ledgerClean()

		// The ledger check notices a second refund of a failed recharge.
		e.store.DB().Exec(`INSERT INTO transactions (user_id, txn_id, type, amount, balance_before, balance_after, reference_type,
			reference_id, description, status, created_at) VALUES (?, 'TXN1', 'refund', '47.00', '301.00', '348.00', 'recharge', ?, 'x', 'completed', ?)`,
			c.id, r2ID, time.Now().UTC())
		ds, err := e.app.Ledger.Check(context.Background())
		found := false
		for _, d := range ds {
			found = found || strings.Contains(d.What, "failed recharge r-2 has 2 refunds")
		}
		if err != nil || !found {
			t.Fatalf("double refund not reported: %v %v", ds, err)
		}
	})
}

// TestGatewayConcurrentRechargesNeverOverdraw: recharges that together
// exceed the balance are accepted only while it lasts.
func TestGatewayConcurrentRechargesNeverOverdraw(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "enterprise", "1000.00")
		const n = 12 // 12 × 100 > 1000
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{
					"mobile": "9876543210", "operator": "bsnl", "circle": "assam", "amount": "100", "reference_id": fmt.Sprintf("c-%d", i)}).status
			}()
		}
		wg.Wait()
		ok, broke := 0, 0
		for _, code := range codes {
			switch code {
			case 200:
				ok++
			case 402:
				broke++
			default:
				t.Errorf("status %d", code)
			}
		}
		if ok != 10 || broke != 2 || e.balance(c) != "0.00" {
			t.Fatalf("%d accepted, %d refused, balance %s", ok, broke, e.balance(c))
		}
		e.ledgerClean()
	})
}

// TestGatewayBuiltinServices: the built-in rows exist on a fresh database,
// documented at their gateway paths, priced, undeletable, and not callable
// as /api/v1/<slug>; an admin's price change bills the next call.
func TestGatewayBuiltinServices(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		list := e.must(e.do("GET", "/api/v1/panel/services?category=gateway", e.admin, nil), 200)
		ids := map[string]uint64{}
		for _, row := range list.body["data"].([]any) {
			s := row.(map[string]any)
			ids[s["slug"].(string)] = uint64(s["id"].(float64))
			if s["builtin"] != true || !strings.HasPrefix(s["endpoint"].(string), "/api/v1/") || strings.HasSuffix(s["endpoint"].(string), s["slug"].(string)) {
				t.Errorf("built-in service %v", s)
			}
		}
		if len(ids) != len(gateway.Services()) {
			t.Fatalf("built-in services: %s", list.raw)
		}
		doc := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/docs", ids["account-verify"]), e.admin, nil), 200)
		if doc.str("endpoint") != "/api/v1/account/verify" {
			t.Fatalf("docs: %s", doc.raw)
		}
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/services/%d", ids["payment-create"]), e.admin, nil), 409)
		c := e.newCustomer("user", "starter", "5.00")
		e.must(e.do("POST", "/api/v1/account-verify", "", map[string]any{}, "X-API-Key", c.key, "X-API-Secret", c.secret), 404)

		// Admins price gateway operations like any service.
		prices := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/pricing", ids["payment-create"]), e.admin, nil), 200)
		priceID := uint64(prices.body["data"].([]any)[0].(map[string]any)["id"].(float64))
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", priceID), e.admin, map[string]any{"user_price": "0.5000"}), 200)
		e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": "1", "currency": "INR", "customer_id": "c", "callback_url": "https://x.example/"}), 201)
		if b := e.balance(c); b != "4.50" {
			t.Fatalf("balance %s after a 0.50 payment-create", b)
		}
		// An inactive built-in service is not sold.
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/services/%d", ids["payment-create"]), e.admin, map[string]any{"status": "inactive"}), 200)
		if r := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{}), 404); r.str("error") != "service_not_found" {
			t.Fatalf("inactive: %s", r.raw)
		}
		e.ledgerClean()
	})
}

// TestGatewayConcurrentMerchantsWithKeys: merchants creating payments with
// their own Idempotency-Keys at once never block or fail each other.
func TestGatewayConcurrentMerchantsWithKeys(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		var cs []customer
		for range 4 {
			cs = append(cs, e.newCustomer("user", "enterprise", "0.00"))
		}
		body := map[string]any{"amount": "5", "currency": "INR", "customer_id": "c", "callback_url": "https://x.example/"}
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[int]int{}
		for i := range 24 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.gw(cs[i%4], "POST", "/api/v1/payment/create", body, "Idempotency-Key", fmt.Sprintf("k-%02d", i))
				mu.Lock()
				codes[r.status]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if codes[201] != 24 {
			t.Fatalf("statuses %v", codes)
		}
	})
}

func TestCheckoutRules(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		create := func() string {
			body := `{"amount": "250.00", "currency": "INR", "customer_id": "cust-1", "callback_url": "https://shop.example/cb"}`
			return e.must(e.gw(c, "POST", "/api/v1/payment/create", body), 201).str("payment_id")
		}
		status := func(id string) string { return e.must(e.do("GET", "/"+id+"/status", "", nil), 200).str("status") }

		// Nobody opened the page: "Pay" completes nothing.
		id := create()
		if p := e.page("POST", "/"+id+"/pay", nil); p.status != 303 || status(id) != "created" {
			t.Fatalf("pay before opening: %d, status %s", p.status, status(id))
		}
		// A post from PUBLIC_BASE_URL's origin is same-site even when the
		// proxy in front rewrote Host (the harness runs on 127.0.0.1).
		e.page("GET", "/"+id, nil)
		if p := e.page("POST", "/"+id+"/pay", map[string]string{"Origin": "http://localhost:8080"}); p.status != 303 || status(id) != "success" {
			t.Fatalf("pay from PUBLIC_BASE_URL's origin: %d, status %s", p.status, status(id))
		}

		// A blocked merchant's open payments cannot be paid; ended ones show.
		open := create()
		e.page("GET", "/"+open, nil)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", c.id), e.admin, nil), 200)
		if p := e.page("GET", "/"+open, nil); p.status != 409 || !strings.Contains(p.raw, "cannot take payments") {
			t.Fatalf("blocked merchant's page: %d %s", p.status, p.raw)
		}
		if e.page("POST", "/"+open+"/pay", nil); status(open) != "pending" {
			t.Fatalf("a blocked merchant's payment moved to %s", status(open))
		}
		if p := e.page("GET", "/"+id, nil); p.status != 200 || !strings.Contains(p.raw, "success") {
			t.Fatalf("ended payment of a blocked merchant: %d", p.status)
		}
	})
}

func TestGatewayTransactionListChecksItsQuery(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "5.00")
		l := e.must(e.gw(c, "GET", "/api/v1/transaction/list?type=credit", nil), 200)
		if l.body["meta"].(map[string]any)["total"].(float64) != 1 {
			t.Fatalf("credits: %s", l.raw)
		}
		for _, q := range []string{"page=600", "from=2026-11-20&to=2026-11-01", "format=csv", "type=gift"} {
			if r := e.gw(c, "GET", "/api/v1/transaction/list?"+q, nil); r.status != 422 {
				t.Errorf("%s: %d %s", q, r.status, r.raw)
			}
		}
	})
}
