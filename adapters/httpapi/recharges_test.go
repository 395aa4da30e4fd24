package httpapi_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"paygate/core/gateway/recharge"
)

// TestGatewayRechargeStuckBatchDoesNotBlockOthers: 101 recharges whose
// operator never answers (mobile ending 9999), older than a normal one,
// more than one worker batch: the normal one still completes within two
// worker rounds, because each round pushes what it asked back (backoff)
// instead of picking the same oldest 100 again. After 48 h the silent ones
// are flagged for reconciliation (listable), still pending, not refunded.
func TestGatewayRechargeStuckBatchDoesNotBlockOthers(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "enterprise", "5000.00")
		const stuck = 101
		var wg sync.WaitGroup
		work := make(chan int)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					r := e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "9876549999", "operator": "jio",
						"circle": "delhi", "amount": "10", "reference_id": fmt.Sprintf("s-%d", i)})
					if r.status != 200 {
						t.Errorf("stuck %d: %s", i, r.raw)
					}
				}
			}()
		}
		for i := range stuck {
			work <- i
		}
		close(work)
		wg.Wait()
		if t.Failed() {
			return
		}
		e.skew.Store(int64(time.Second)) // the normal one comes last
		r := e.must(e.gw(c, "POST", "/api/v1/recharge/mobile", map[string]any{"mobile": "9876543210", "operator": "jio",
			"circle": "delhi", "amount": "100", "reference_id": "normal"}), 200)
		if d := r.body["data"].(map[string]any); d["status"] != "pending" || d["submitted_at"] == nil || d["needs_reconciliation"] != false {
			t.Fatalf("normal: %s", r.raw)
		}

		status := func(ref string) map[string]any {
			return e.must(e.gw(c, "GET", "/api/v1/recharge/status?reference_id="+ref, nil), 200).body["data"].(map[string]any)
		}
		// Every first check is due; a round takes 100, the oldest first.
		e.skew.Store(int64(recharge.FirstCheck + 2*time.Second))
		rounds := 0
		for ; rounds < 2 && status("normal")["status"] == "pending"; rounds++ {
			if _, err := e.app.Gateway.CheckRecharges(context.Background(), 100); err != nil {
				t.Fatal(err)
			}
		}
		if s := status("normal"); s["status"] != "success" {
			t.Fatalf("normal recharge still %v after %d rounds behind %d silent ones", s["status"], rounds, stuck)
		}
		if s := status("s-0"); s["status"] != "pending" || s["needs_reconciliation"] != false {
			t.Fatalf("silent one: %v", s)
		}

		// 48 h later, after a few rounds, the silent ones are flagged: still
		// pending, listable, nothing refunded.
		e.skew.Store(int64(recharge.ReconcileAfter + time.Hour))
		for range 2 {
			if _, err := e.app.Gateway.CheckRecharges(context.Background(), 100); err != nil {
				t.Fatal(err)
			}
		}
		admin := e.login(adminEmail, adminPassword) // the old token expired with the clock
		l := e.must(e.do("GET", "/api/v1/panel/recharges?needs_reconciliation=true&per_page=5", admin, nil), 200)
		if l.body["meta"].(map[string]any)["total"].(float64) != stuck || l.body["data"].([]any)[0].(map[string]any)["status"] != "pending" {
			t.Fatalf("reconciliation list: %s", l.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/recharges?needs_reconciliation=maybe", admin, nil), 422)
		c.token = e.login(c.email, "user-password-1")
		if b := e.balance(c); b != "3890.00" { // 5000 − 101 × 10 − 100
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}
