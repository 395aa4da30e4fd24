package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"paygate/core/gateway/recharge"
)

// receiver is a merchant's endpoint: it keeps every request and answers
// the status a test sets (200 by default).
type receiver struct {
	srv    *httptest.Server
	status atomic.Int64
	mu     sync.Mutex
	got    []received
}

type received struct {
	path   string
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.status.Store(200)
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{path: req.URL.Path, header: req.Header.Clone(), body: b})
		r.mu.Unlock()
		w.WriteHeader(int(r.status.Load()))
		io.WriteString(w, "thanks")
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) take() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.got
	r.got = nil
	return out
}

// deliver runs one round of the delivery worker.
func (e *env) deliver() int {
	e.t.Helper()
	n, err := e.app.Outbox.Deliver(context.Background(), 50)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// verify checks a request's signature with the Standard Webhooks reference
// library (not our signer) and returns its decoded body.
func verify(t *testing.T, secret string, r received) map[string]any {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(r.body, r.header); err != nil {
		t.Fatalf("reference library refuses the signature: %v (headers %v)", err, r.header)
	}
	other, _ := standardwebhooks.NewWebhook("whsec_" + strings.Repeat("A", 43) + "=")
	if other.Verify(r.body, r.header) == nil {
		t.Fatal("another secret verifies too")
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	return body
}

// A metered call whose debit crosses the threshold writes balance.low in
// its reservation batch (on MySQL the batch's deferred hit and ledger rows
// are sent before the outbox insert, the rest with the COMMIT): one event
// for the crossing, none for the next call, and the books agree.
func TestMeteredCallCrossingThresholdFiresBalanceLow(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		c := e.newCustomer("user", "enterprise", "10.00")
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{
			"webhook_url": hooks.srv.URL + "/hooks", "low_balance_alert": "9.50"}), 200)
		secret := e.must(e.do("POST", "/api/v1/panel/webhooks/rotate-secret", c.token, nil), 200).str("secret")
		e.newService("lowbal", "1.00")
		for i := 0; i < 2; i++ { // 10.00 → 9.00 crosses 9.50; 9.00 → 8.00 is below already
			e.must(e.call(c, "lowbal", map[string]any{"n": i}), 200)
		}
		if n := e.deliver(); n != 1 {
			t.Fatalf("delivered %d, want 1", n)
		}
		got := hooks.take()
		if len(got) != 1 {
			t.Fatalf("received %d", len(got))
		}
		body := verify(t, secret, got[0])
		data, _ := body["data"].(map[string]any)
		if body["type"] != "balance.low" || data["balance"] != "9.00" || data["threshold"] != "9.50" {
			t.Fatalf("body %v", body)
		}
		if b := e.balance(c); b != "8.00" {
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}

func TestWebhooksEndToEnd(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		c := e.newCustomer("user", "enterprise", "500.00")
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{
			"webhook_url": hooks.srv.URL + "/hooks", "low_balance_alert": "300.00"}), 200)
		secret := e.must(e.do("POST", "/api/v1/panel/webhooks/rotate-secret", c.token, nil), 200).str("secret")
		if !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("secret %q", secret)
		}
		if r := e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200); strings.Contains(r.raw, secret[6:]) {
			t.Fatal("the secret is shown again")
		}

		// balance.low: the debit that crosses 300.00 fires, the next one
		// (below already) does not; a credit above re-arms it.
		adjust := func(typ, amount string) {
			e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
				map[string]any{"type": typ, "amount": amount, "description": "test"}), 201)
		}
		adjust("debit", "200.00") // 500 → 300: not below
		adjust("debit", "0.01")   // 300 → 299.99: crosses
		adjust("debit", "10.00")  // below already
		if n := e.deliver(); n != 1 {
			t.Fatalf("delivered %d, want 1", n)
		}
		got := hooks.take()
		if len(got) != 1 || got[0].path != "/hooks" {
			t.Fatalf("received %+v", got)
		}
		body := verify(t, secret, got[0])
		data, _ := body["data"].(map[string]any)
		if body["type"] != "balance.low" || data["balance"] != "299.99" || data["threshold"] != "300.00" {
			t.Fatalf("body %v", body)
		}
		adjust("credit", "100.00") // 289.99 → 389.99: above again
		adjust("debit", "100.00")  // → 289.99: crosses again
		if n := e.deliver(); n != 1 || len(hooks.take()) != 1 {
			t.Fatalf("second crossing: delivered %d", n)
		}

		// A payment's outcome goes to the webhook and to its callback_url,
		// each its own delivery, signed alike.
		shop := newReceiver(t)
		p := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": "25.00", "currency": "INR",
			"customer_id": "cust-1", "callback_url": shop.srv.URL + "/cb"}), 201)
		pid := p.str("payment_id")
		e.page("GET", "/"+pid, nil)
		if r := e.page("POST", "/"+pid+"/pay", nil); r.status != 303 {
			t.Fatalf("pay: %d", r.status)
		}
		if n := e.deliver(); n != 2 {
			t.Fatalf("payment: delivered %d, want 2", n)
		}
		toHook, toShop := hooks.take(), shop.take()
		if len(toHook) != 1 || len(toShop) != 1 || toShop[0].path != "/cb" {
			t.Fatalf("payment: %d to the webhook, %d to the callback", len(toHook), len(toShop))
		}
		for _, r := range []received{toHook[0], toShop[0]} {
			b := verify(t, secret, r)
			if d := b["data"].(map[string]any); b["type"] != "payment.success" || d["payment_id"] != pid || d["amount"] != "25.00" {
				t.Fatalf("payment event %v", b)
			}
		}
		if toHook[0].header.Get("webhook-id") != toShop[0].header.Get("webhook-id") {
			t.Fatal("one event, two webhook-ids")
		}

		// The delivery log: filters, detail with the attempt.
		list := e.must(e.do("GET", "/api/v1/panel/webhooks/deliveries?event_type=payment.success", c.token, nil), 200)
		rows := list.body["data"].([]any)
		if total(list) != 2 || rows[0].(map[string]any)["status"] != "delivered" {
			t.Fatalf("list %s", list.raw)
		}
		if all := e.must(e.do("GET", "/api/v1/panel/webhooks/deliveries?status=delivered", c.token, nil), 200); total(all) != 4 {
			t.Fatalf("delivered list %s", all.raw)
		}
		e.must422(e.do("GET", "/api/v1/panel/webhooks/deliveries?status=lost&event_type=nope", c.token, nil), "status", "event_type")
		id := uint64(rows[0].(map[string]any)["id"].(float64))
		d := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/webhooks/deliveries/%d", id), c.token, nil), 200)
		log := d.body["attempt_log"].([]any)
		if len(log) != 1 || log[0].(map[string]any)["status_code"].(float64) != 200 || log[0].(map[string]any)["response_snippet"] != "thanks" {
			t.Fatalf("detail %s", d.raw)
		}

		// A failing endpoint: the attempt is logged, the delivery waits a
		// minute; redelivery sends it at once.
		hooks.status.Store(500)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
			map[string]any{"type": "credit", "amount": "500.00", "description": "test"}), 201)
		adjust("debit", "600.00") // 789.99 → 189.99
		if n := e.deliver(); n != 0 {
			t.Fatalf("delivered %d to a failing endpoint", n)
		}
		pend := e.must(e.do("GET", "/api/v1/panel/webhooks/deliveries?status=pending", c.token, nil), 200)
		row := pend.body["data"].([]any)[0].(map[string]any)
		if total(pend) != 1 || row["last_status_code"].(float64) != 500 || row["next_attempt_at"] == nil || row["attempts"].(float64) != 1 {
			t.Fatalf("pending %s", pend.raw)
		}
		if n := e.deliver(); n != 0 || len(hooks.take()) != 1 {
			t.Fatal("retried before its time")
		}
		hooks.status.Store(204)
		pendingID := uint64(row["id"].(float64))
		r := e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/webhooks/deliveries/%d/redeliver", pendingID), c.token, nil), 202)
		if r.str("status") != "pending" {
			t.Fatalf("redeliver %s", r.raw)
		}
		if n := e.deliver(); n != 1 {
			t.Fatalf("redelivery: delivered %d", n)
		}
		if got := hooks.take(); len(got) != 1 {
			t.Fatalf("redelivery sent %d", len(got))
		}

		// Another user sees none of it; the admin sees all.
		other := e.newCustomer("user", "starter", "0.00")
		e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/webhooks/deliveries/%d", id), other.token, nil), 404)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/webhooks/deliveries/%d/redeliver", id), other.token, nil), 404)
		if l := e.must(e.do("GET", "/api/v1/panel/webhooks/deliveries", other.token, nil), 200); total(l) != 0 {
			t.Fatalf("other's list %s", l.raw)
		}
		if l := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/webhooks/deliveries?user_id=%d", c.id), e.admin, nil), 200); total(l) != 5 {
			t.Fatalf("admin's list %s", l.raw)
		}

		// The backlog gauge counts what is still pending.
		hooks.status.Store(500)
		adjust("credit", "500.00")
		adjust("debit", "500.00")
		if n, err := e.app.Outbox.RefreshBacklog(context.Background()); err != nil || n != 1 {
			t.Fatalf("backlog %d, %v", n, err)
		}
		m := e.do("GET", "/metrics", "", nil, "Authorization", "Bearer "+metricsToken)
		if !strings.Contains(m.raw, "paygate_outbox_backlog 1\n") {
			t.Fatalf("metrics lack the backlog")
		}
		// Deliveries count once delivered (two balance.low, the payment's
		// two, the redelivery); the retried attempts do not.
		wantSample(t, m.raw, `paygate_webhook_deliveries_total{outcome="delivered"}`, 5)
		wantSample(t, m.raw, `paygate_webhook_deliveries_total{outcome="failed"}`, 0)
		e.ledgerClean()
	})
}

func TestWebhookURLsFollowTheSSRFRules(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.strict.Store(true)
		c := e.newCustomer("user", "enterprise", "100.00")
		for _, u := range []string{"http://127.0.0.1/x", "http://localhost:8080/x", "https://10.1.2.3/x", "http://[::1]/x",
			"http://169.254.169.254/latest", "http://api.localhost/x"} {
			e.must422(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": u}), "webhook_url")
		}
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": "https://hooks.example/x"}), 200)
		e.must422(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": "5.00", "currency": "INR",
			"customer_id": "c", "callback_url": "http://192.168.1.10/cb"}), "callback_url")
	})
}

func TestRechargeOutcomeIsAnEvent(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		c := e.newCustomer("user", "enterprise", "500.00")
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": hooks.srv.URL}), 200)
		secret := e.must(e.do("POST", "/api/v1/panel/webhooks/rotate-secret", c.token, nil), 200).str("secret")
		// The sandbox operator declines a mobile ending 0000 at once: refunded, recharge.failed.
		e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "9876540000", "operator": "jio",
			"circle": "delhi", "amount": "50", "reference_id": "ref-wh-1"}), 200)
		if n := e.deliver(); n != 1 {
			t.Fatalf("delivered %d", n)
		}
		got := hooks.take()
		b := verify(t, secret, got[0])
		if d := b["data"].(map[string]any); b["type"] != "recharge.failed" || d["reference_id"] != "ref-wh-1" || d["amount"] != "50.00" {
			t.Fatalf("event %v", b)
		}
	})
}

// A recharge the operator completes later: pending at the request (no
// event), then the recharge worker's check finds it done and writes
// recharge.success in the same transaction; the next delivery round sends
// it, signed. Nothing is refunded.
func TestRechargeSuccessFromTheWorkerIsAnEvent(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		hooks := newReceiver(t)
		c := e.newCustomer("user", "enterprise", "500.00")
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": hooks.srv.URL}), 200)
		secret := e.must(e.do("POST", "/api/v1/panel/webhooks/rotate-secret", c.token, nil), 200).str("secret")
		r := e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "9876543210", "operator": "jio",
			"circle": "delhi", "amount": "100", "reference_id": "ref-wh-ok"}), 200)
		if d := r.body["data"].(map[string]any); d["status"] != "pending" {
			t.Fatalf("recharge: %s", r.raw)
		}
		if n := e.deliver(); n != 0 || len(hooks.take()) != 0 {
			t.Fatalf("a pending recharge sent an event (%d)", n)
		}
		e.skew.Store(int64(recharge.FirstCheck + 2*time.Second))
		if n, err := e.app.Gateway.CheckRecharges(context.Background(), 100); err != nil || n != 1 {
			t.Fatalf("check: %d, %v", n, err)
		}
		if n := e.deliver(); n != 1 {
			t.Fatalf("delivered %d", n)
		}
		got := hooks.take()
		if len(got) != 1 {
			t.Fatalf("%d requests", len(got))
		}
		b := verify(t, secret, got[0])
		d := b["data"].(map[string]any)
		if b["type"] != "recharge.success" || d["reference_id"] != "ref-wh-ok" || d["status"] != "success" ||
			d["amount"] != "100.00" || d["operator_ref"] == nil || d["fail_reason"] != nil {
			t.Fatalf("event %v", b)
		}
		if n := e.deliver(); n != 0 || len(hooks.take()) != 0 {
			t.Fatal("sent again")
		}
		if bal := e.balance(c); bal != "400.00" {
			t.Fatalf("balance %s", bal)
		}
		e.ledgerClean()
	})
}
