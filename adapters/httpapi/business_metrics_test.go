package httpapi_test

import (
	"context"
	"testing"
	"time"
)

// TestMetricsPaymentsAndRefundsByState: a payment is counted once when it
// ends (paid on the checkout page, failed there, expired by the worker), a
// refund once when it is processed; open payments are not counted, and a
// second "fail" on a paid payment changes nothing.
func TestMetricsPaymentsAndRefundsByState(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		paid := e.paidPayment(c, "100.00")
		e.page("POST", "/"+paid+"/fail", map[string]string{"Origin": e.url}) // already ended: nothing moves
		create := func() string {
			return e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": "5", "currency": "INR",
				"customer_id": "c", "callback_url": "https://shop.example/cb"}), 201).str("payment_id")
		}
		failed := create()
		e.page("GET", "/"+failed, nil)
		if p := e.page("POST", "/"+failed+"/fail", map[string]string{"Origin": e.url}); p.status != 303 {
			t.Fatalf("fail: %d %s", p.status, p.raw)
		}
		create() // expires below
		open := create()
		e.store.DB().Exec("UPDATE payments SET expires_at = ? WHERE public_id <> ? AND status IN ('created', 'pending')",
			time.Now().UTC().Add(-time.Second), open)
		if n, err := e.app.Gateway.ExpirePayments(context.Background(), 100); err != nil || n != 1 {
			t.Fatalf("expired %d: %v", n, err)
		}
		e.must(e.refund(c, map[string]any{"payment_id": paid, "amount": "10.00"}), 201)

		m := e.scrape()
		for series, n := range map[string]float64{
			`paygate_payments_total{state="success"}`: 1, `paygate_payments_total{state="failed"}`: 1,
			`paygate_payments_total{state="expired"}`: 1, `paygate_refunds_total{state="processed"}`: 1,
			`paygate_refunds_total{state="failed"}`: 0, `paygate_account_openings_total{state="opened"}`: 0,
		} {
			wantSample(t, m, series, n)
		}
	})
}
