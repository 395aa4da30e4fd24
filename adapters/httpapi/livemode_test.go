package httpapi_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// A sandbox payment says it is a test everywhere: its create and status
// answers, the panel's list, the checkout page's banner, and the events
// its merchant receives (livemode false at the top and in data).
func TestSandboxPaymentIsNotLive(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		c := e.newCustomer("user", "starter", "0.00")
		r := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{
			"amount": "499.00", "currency": "INR", "customer_id": "cust-1", "callback_url": hooks.srv.URL + "/cb"}), 201)
		id := r.str("payment_id")
		if live, ok := r.body["livemode"].(bool); !ok || live {
			t.Fatalf("create: %s", r.raw)
		}
		page := e.page("GET", "/"+id, nil)
		if page.status != 200 || !strings.Contains(page.raw, `id="test-mode"`) || !strings.Contains(page.raw, "Test mode") {
			t.Fatalf("page %d without the Test mode banner: %s", page.status, page.raw)
		}
		e.must(e.page("POST", "/"+id+"/pay", map[string]string{"Origin": e.url}), 303)
		st := e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200)
		if d := st.body["data"].(map[string]any); d["status"] != "success" || d["livemode"] != false {
			t.Fatalf("status: %s", st.raw)
		}
		list := e.must(e.do("GET", "/api/v1/panel/payments", c.token, nil), 200)
		if p := list.body["data"].([]any)[0].(map[string]any); p["payment_id"] != id || p["livemode"] != false {
			t.Fatalf("list: %s", list.raw)
		}
		e.deliver()
		got := hooks.take()
		if len(got) != 1 {
			t.Fatalf("events received: %d", len(got))
		}
		var body map[string]any
		if err := json.Unmarshal(got[0].body, &body); err != nil {
			t.Fatal(err)
		}
		if body["type"] != "payment.success" || body["livemode"] != false || body["data"].(map[string]any)["livemode"] != false {
			t.Fatalf("event: %s", got[0].body)
		}
		// The delivery log shows the same body.
		ds := e.must(e.do("GET", "/api/v1/panel/webhooks/deliveries", c.token, nil), 200)
		did := uint64(ds.body["data"].([]any)[0].(map[string]any)["id"].(float64))
		d := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/webhooks/deliveries/%d", did), c.token, nil), 200)
		if d.body["payload"].(map[string]any)["livemode"] != false {
			t.Fatalf("delivery: %s", d.raw)
		}
	})
}

// Manual redelivery: at most 10 per delivery in any hour, counted in the
// database, so two instances racing 16 requests still let exactly 10
// through; the rest answer 429 with Retry-After, and an hour later the
// delivery may be sent again.
func TestRedeliveryIsLimitedAcrossInstances(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		c := e.newCustomer("user", "starter", "0.00")
		r := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{
			"amount": "10.00", "currency": "INR", "customer_id": "cust-1", "callback_url": hooks.srv.URL + "/cb"}), 201)
		id := r.str("payment_id")
		e.page("GET", "/"+id, nil)
		e.must(e.page("POST", "/"+id+"/fail", map[string]string{"Origin": e.url}), 303)
		e.deliver()
		ds := e.must(e.do("GET", "/api/v1/panel/webhooks/deliveries", c.token, nil), 200)
		path := fmt.Sprintf("/api/v1/panel/webhooks/deliveries/%d/redeliver", uint64(ds.body["data"].([]any)[0].(map[string]any)["id"].(float64)))

		other := newEnv(t, e.store) // a second instance on the same database
		const n = 16
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				inst := e
				if i%2 == 1 {
					inst = other
				}
				res := inst.do("POST", path, c.token, nil)
				codes[i] = res.status
				if res.status == 429 {
					if s, err := strconv.Atoi(res.header.Get("Retry-After")); err != nil || s < 1 || s > 3600 ||
						res.str("error") != "redelivery_limit_reached" {
						t.Errorf("429 without a Retry-After: %v %s", res.header, res.raw)
					}
				}
			}(i)
		}
		wg.Wait()
		count := map[int]int{}
		for _, code := range codes {
			count[code]++
		}
		if count[202] != 10 || count[429] != n-10 {
			t.Fatalf("answers %v, want 10 × 202 and %d × 429", count, n-10)
		}
		// Another user's delivery is still not found, limit or not.
		stranger := e.newCustomer("user", "starter", "0.00")
		e.must(e.do("POST", path, stranger.token, nil), 404)

		// An hour later the oldest have left the window.
		e.skew.Store(int64(time.Hour + time.Minute))
		c.token = e.login(c.email, "user-password-1") // the access token expired meanwhile
		e.must(e.do("POST", path, c.token, nil), 202)
	})
}

// TestPlatformEventsAreLiveOnlyWhereMoneyIsReal: events of the platform's
// own books (balance_request.*, balance.low) say what the instance's
// payments say: false on an instance whose payment provider is the
// sandbox, true on one taking live UPI (upi_direct).
func TestPlatformEventsAreLiveOnlyWhereMoneyIsReal(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		events := func(c customer, want bool) {
			t.Helper()
			e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{
				"webhook_url": hooks.srv.URL + "/hooks", "low_balance_alert": "50.00"}), 200)
			approved := e.must(e.upload(c.token, map[string]string{"amount": "100.00", "utr_number": newUTR()}), 201).num("id")
			rejected := e.must(e.upload(c.token, map[string]string{"amount": "10.00", "utr_number": newUTR()}), 201).num("id")
			e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", approved), e.admin, nil), 200)
			e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/reject", rejected), e.admin,
				map[string]any{"admin_remarks": "no such transfer"}), 200)
			e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
				map[string]any{"type": "debit", "amount": "60.00", "description": "correction"}), 201)
			e.deliver()
			seen := map[string]bool{}
			for _, g := range hooks.take() {
				var body map[string]any
				if err := json.Unmarshal(g.body, &body); err != nil {
					t.Fatal(err)
				}
				seen[body["type"].(string)] = true
				if body["livemode"] != want {
					t.Errorf("%s says livemode %v, want %v", body["type"], body["livemode"], want)
				}
			}
			for _, typ := range []string{"balance_request.approved", "balance_request.rejected", "balance.low"} {
				if !seen[typ] {
					t.Errorf("no %s event (got %v)", typ, seen)
				}
			}
		}
		events(e.newCustomer("user", "starter", "0.00"), false)
		e.useUPIDirect()
		events(e.newCustomer("user", "starter", "0.00"), true)
	})
}
