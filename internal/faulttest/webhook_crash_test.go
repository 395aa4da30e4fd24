package faulttest

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"paygate/core/events/webhook"
	"paygate/internal/testdb"
)

// heldReceiver answers every webhook at once except the very first
// request, which it holds open until the sender goes away (a crash).
type heldReceiver struct {
	url      string
	mu       sync.Mutex
	held     chan string         // the first request's webhook-id
	received map[string]int      // requests per webhook-id
	ok       map[string]bool     // answered 204
	bodies   map[string][]byte   // per webhook-id
	headers  map[string][]string // webhook-timestamp and webhook-signature of the answered one
}

func newHeldReceiver(t *testing.T) *heldReceiver {
	r := &heldReceiver{held: make(chan string, 1), received: map[string]int{}, ok: map[string]bool{},
		bodies: map[string][]byte{}, headers: map[string][]string{}}
	first := true
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		id := req.Header.Get("webhook-id")
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.received[id]++
		hold := first
		first = false
		r.mu.Unlock()
		if hold {
			r.held <- id
			<-req.Context().Done() // the server is killed while waiting for this answer
			return
		}
		r.mu.Lock()
		r.ok[id], r.bodies[id] = true, body
		r.headers[id] = []string{req.Header.Get("webhook-timestamp"), req.Header.Get("webhook-signature")}
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	r.url = "http://" + ln.Addr().String() + "/hooks"
	return r
}

// TestCrashMidDeliveryLosesNoEvent: the server is killed (SIGKILL) while
// a receiver holds the first attempt of a webhook open, so that attempt
// is never recorded and its delivery stays claimed. After a restart on the
// same MariaDB database, once the dead instance's lease has ended (6 ×
// WEBHOOK_TIMEOUT: 12 s here), every event is delivered, the interrupted
// one again under the same webhook-id and correctly signed, and nothing is
// lost or left pending.
func TestCrashMidDeliveryLosesNoEvent(t *testing.T) {
	dbURL := testdb.MySQLURL(t)
	env := append(baseEnv(t, dbURL), "WEBHOOK_TIMEOUT=2s", "WEBHOOK_POLL_INTERVAL=200ms")
	rcv := newHeldReceiver(t)
	a := startServer(t, env)
	admin := login(t, a.base, adminEmail, adminPassword)
	u := admin.do("POST", "/api/v1/panel/users", map[string]any{"name": "Shop", "email": "shop@example.com", "phone": "9712345678",
		"password": "customer-password-1", "role": "user", "status": "active", "plan": "enterprise"}, 201)
	id := int(u["id"].(float64))
	c := login(t, a.base, "shop@example.com", "customer-password-1")
	c.do("PATCH", "/api/v1/panel/auth/me", map[string]any{"webhook_url": rcv.url, "low_balance_alert": "50.00"}, 200)
	secret := c.do("POST", "/api/v1/panel/webhooks/rotate-secret", nil, 200)["secret"].(string)

	// Three crossings of the threshold: three balance.low events.
	adjust := func(typ, amount string) {
		admin.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", id), map[string]any{
			"type": typ, "amount": amount, "description": "test"}, 201)
	}
	adjust("credit", "100.00")
	for range 3 {
		adjust("debit", "60.00") // 100 → 40: below 50
		adjust("credit", "60.00")
	}

	var heldID string
	select {
	case heldID = <-rcv.held:
	case <-time.After(10 * time.Second):
		t.Fatalf("no delivery attempt arrived\n%s", a.logs())
	}
	a.kill()

	s := openStore(t, dbURL)
	var rows []struct {
		Status   string
		Attempts int
		Claimed  bool
	}
	if err := s.DB().Raw(`SELECT status, attempts, claimed_until IS NOT NULL AS claimed FROM webhook_deliveries d
		JOIN webhook_events e ON e.id = d.event_id WHERE e.public_id = ?`, heldID).Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Status != "pending" || rows[0].Attempts != 0 || !rows[0].Claimed {
		t.Fatalf("the interrupted delivery after the crash: %+v", rows)
	}

	start := time.Now()
	b := startServer(t, env)
	delivered := func() bool {
		var n int64
		s.DB().Raw("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'").Scan(&n)
		return n == 3
	}
	if !waitFor(20*time.Second, delivered) {
		t.Fatalf("not all delivered 20 s after the restart\n%s", b.logs())
	}
	t.Logf("all delivered %s after the restart", time.Since(start).Round(100*time.Millisecond))

	var events, pending int64
	s.DB().Raw("SELECT COUNT(*) FROM webhook_events WHERE type = 'balance.low'").Scan(&events)
	s.DB().Raw("SELECT COUNT(*) FROM webhook_deliveries WHERE status <> 'delivered'").Scan(&pending)
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if events != 3 || pending != 0 || len(rcv.ok) != 3 || !rcv.ok[heldID] || rcv.received[heldID] != 2 {
		t.Fatalf("%d events, %d not delivered; received %v, answered %v", events, pending, rcv.received, rcv.ok)
	}
	ts, _ := strconv.ParseInt(rcv.headers[heldID][0], 10, 64)
	want, err := webhook.Sign(secret, heldID, time.Unix(ts, 0), rcv.bodies[heldID])
	if err != nil || rcv.headers[heldID][1] != want {
		t.Fatalf("signature after the restart %q, want %q (%v)", rcv.headers[heldID][1], want, err)
	}
	ledgerClean(t, env)
}
