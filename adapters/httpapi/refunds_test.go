package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// paidPayment creates a payment of amount for c and pays it on the
// sandbox checkout page; it returns its payment_id.
func (e *env) paidPayment(c customer, amount string) string {
	e.t.Helper()
	id := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": amount, "currency": "INR",
		"customer_id": "cust", "callback_url": "https://shop.example/cb"}), 201).str("payment_id")
	e.page("GET", "/"+id, nil)
	if p := e.page("POST", "/"+id+"/pay", map[string]string{"Origin": e.url}); p.status != 303 {
		e.t.Fatalf("pay %s: %d %s", id, p.status, p.raw)
	}
	return id
}

func dec(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	return d
}

// setBalance moves c's balance to want with an admin adjustment.
func (e *env) setBalance(c customer, want string) {
	e.t.Helper()
	diff := dec(e.t, want).Sub(dec(e.t, e.balance(c)))
	typ := "credit"
	if diff.IsNegative() {
		typ = "debit"
	}
	if diff.IsZero() {
		return
	}
	e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
		map[string]any{"type": typ, "amount": diff.Abs().StringFixed(2), "description": "test balance"}), 201)
}

func (e *env) refund(c customer, body any, headers ...string) resp {
	e.t.Helper()
	return e.gw(c, "POST", "/api/v1/payment/refund", body, headers...)
}

func (e *env) eventCount(userID uint64, typ string) int64 {
	e.t.Helper()
	var n int64
	e.store.DB().Raw("SELECT COUNT(*) FROM webhook_events WHERE user_id = ? AND type = ?", userID, typ).Scan(&n)
	return n
}

func data(r resp) map[string]any { d, _ := r.body["data"].(map[string]any); return d }

// TestRefundPartialThenFull: partial refunds then the rest, never more than
// was collected; each debits the merchant once; status shows them.
func TestRefundPartialThenFull(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		other := e.newCustomer("user", "starter", "500.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "500.00")

		// Validation, ownership, state.
		r := e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "10.005", "reason": 5}), 422)
		if errs := r.body["errors"].(map[string]any); errs["amount"] == nil || errs["reason"] == nil {
			t.Fatalf("errors: %s", r.raw)
		}
		e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "0"}), 422)
		e.must(e.refund(c, map[string]any{"amount": "1"}), 422)
		e.must(e.refund(other, map[string]any{"payment_id": id, "amount": "1.00"}), 404)
		e.must(e.refund(c, map[string]any{"payment_id": "pay_01UNKNOWN", "amount": "1.00"}), 404)
		e.must(e.do("POST", "/api/v1/payment/refund", "", map[string]any{"payment_id": id, "amount": "1.00"}), 401)
		open := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": "5", "currency": "INR",
			"customer_id": "c", "callback_url": "https://shop.example/cb"}), 201).str("payment_id")
		if r := e.must(e.refund(c, map[string]any{"payment_id": open, "amount": "1.00"}), 409); r.str("error") != "payment_not_refundable" {
			t.Fatalf("open payment: %s", r.raw)
		}

		// A partial refund: amount as a JSON number, exactly.
		r = e.must(e.refund(c, `{"payment_id": "`+id+`", "amount": 40.50, "reason": "damaged item"}`), 201)
		d := data(r)
		if d["status"] != "processed" || d["amount"] != "40.50" || d["reason"] != "damaged item" || d["livemode"] != false ||
			r.str("payment_refunded_amount") != "40.50" || r.str("payment_refundable_amount") != "59.50" {
			t.Fatalf("partial: %s", r.raw)
		}
		if b := e.balance(c); b != "459.50" {
			t.Fatalf("balance after partial: %s", b)
		}
		// More than is left: 422 on amount, nothing moves.
		if r := e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "59.51"}), 422); r.body["errors"].(map[string]any)["amount"] == nil {
			t.Fatalf("too much: %s", r.raw)
		}
		// The rest.
		r = e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "59.50"}), 201)
		if r.str("payment_refundable_amount") != "0.00" || data(r)["status"] != "processed" {
			t.Fatalf("full: %s", r.raw)
		}
		e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "0.01"}), 422)
		if b := e.balance(c); b != "400.00" {
			t.Fatalf("balance after full: %s", b)
		}

		st := e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200)
		sd := data(st)
		refunds := sd["refunds"].([]any)
		if sd["refunded_amount"] != "100.00" || sd["refundable_amount"] != "0.00" || len(refunds) != 2 ||
			refunds[0].(map[string]any)["amount"] != "40.50" || refunds[1].(map[string]any)["status"] != "processed" {
			t.Fatalf("status: %s", st.raw)
		}
		if n := e.eventCount(c.id, "refund.processed"); n != 2 {
			t.Fatalf("%d refund.processed events", n)
		}
		var payload string
		e.store.DB().Raw("SELECT payload FROM webhook_events WHERE user_id = ? AND type = 'refund.processed' ORDER BY id LIMIT 1", c.id).Scan(&payload)
		var ev struct {
			Livemode bool           `json:"livemode"`
			Data     map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(payload), &ev); err != nil || ev.Livemode || ev.Data["payment_id"] != id || ev.Data["amount"] != "40.50" {
			t.Fatalf("event payload: %s", payload)
		}
		// The ledger: two debits of reference_type refund.
		var debits int64
		e.store.DB().Raw("SELECT COUNT(*) FROM transactions WHERE user_id = ? AND type = 'debit' AND reference_type = 'refund'", c.id).Scan(&debits)
		if debits != 2 {
			t.Fatalf("%d refund debits", debits)
		}
		e.ledgerClean()
	})
}

// TestRefundConcurrentNeverMoreThanCollected: 20 refunds of 30.00 at once
// on a 100.00 payment: exactly three pass, the rest are refused, and the
// balance, the ledger and the payment's total agree.
func TestRefundConcurrentNeverMoreThanCollected(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "1000.00")
		const n = 20
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = e.refund(c, map[string]any{"payment_id": id, "amount": "30.00", "reason": fmt.Sprintf("r%d", i)}).status
			}()
		}
		wg.Wait()
		ok := 0
		for _, code := range codes {
			switch code {
			case 201:
				ok++
			case 422:
			default:
				t.Fatalf("answers: %v", codes)
			}
		}
		if ok != 3 {
			t.Fatalf("%d refunds passed of 30.00 on 100.00: %v", ok, codes)
		}
		if b := e.balance(c); b != "910.00" {
			t.Fatalf("balance %s, want 910.00", b)
		}
		sd := data(e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200))
		if sd["refunded_amount"] != "90.00" || len(sd["refunds"].([]any)) != 3 {
			t.Fatalf("status: %v", sd)
		}
		e.ledgerClean()
	})
}

// TestRefundIdempotency: the same key and body answer the first refund
// (also at once), another body 409; one debit.
func TestRefundIdempotency(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "100.00")
		body := map[string]any{"payment_id": id, "amount": "25", "reason": "late delivery"}
		const n = 6
		ids := make([]string, n)
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.refund(c, body, "Idempotency-Key", "refund-1")
				codes[i] = r.status
				if d := data(r); d != nil {
					ids[i], _ = d["refund_id"].(string)
				}
			}()
		}
		wg.Wait()
		for i := range n {
			if codes[i] != 201 || ids[i] != ids[0] || ids[i] == "" {
				t.Fatalf("duplicate %d: %d %q (first %q)", i, codes[i], ids[i], ids[0])
			}
		}
		// 25.00 as a number is the same request; a replay says so.
		r := e.must(e.refund(c, `{"payment_id": "`+id+`", "amount": 25.00, "reason": "late delivery"}`, "Idempotency-Key", "refund-1"), 201)
		if data(r)["refund_id"] != ids[0] || r.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %s", r.raw)
		}
		body["amount"] = "26"
		if r := e.must(e.refund(c, body, "Idempotency-Key", "refund-1"), 409); r.str("error") != "idempotency_key_reused" {
			t.Fatalf("reuse: %s", r.raw)
		}
		e.must(e.refund(c, body, "Idempotency-Key", ""), 201) // no key: a new refund
		e.must(e.refund(c, body, "Idempotency-Key", "bad key with spaces"), 422)
		if b := e.balance(c); b != "49.00" {
			t.Fatalf("balance %s, want 49.00 (one debit of 25 and one of 26)", b)
		}
		e.ledgerClean()
	})
}

// TestRefundInsufficientBalance: a refund the merchant's balance cannot
// cover is 402 and changes nothing.
func TestRefundInsufficientBalance(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "20.00")
		if r := e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "20.01"}), 402); r.str("error") != "insufficient_balance" {
			t.Fatalf("402: %s", r.raw)
		}
		sd := data(e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200))
		if sd["refunded_amount"] != "0.00" || len(sd["refunds"].([]any)) != 0 || e.balance(c) != "20.00" {
			t.Fatalf("after 402: %v, balance %s", sd, e.balance(c))
		}
		e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "20.00"}), 201)
		if b := e.balance(c); b != "0.00" {
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}

// TestRefundProviderFailure: a failure gives the money back exactly once,
// and what was refused is refundable again.
func TestRefundProviderFailure(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "100.00")
		r := e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "60.00", "reason": "fail: sandbox"}), 201)
		d := data(r)
		if d["status"] != "failed" || d["fail_reason"] == nil || r.str("payment_refunded_amount") != "0.00" {
			t.Fatalf("failed refund: %s", r.raw)
		}
		if b := e.balance(c); b != "100.00" {
			t.Fatalf("balance after failure %s", b)
		}
		if n := e.eventCount(c.id, "refund.failed"); n != 1 {
			t.Fatalf("%d refund.failed events", n)
		}
		// The workers find nothing to do: it ended once.
		if n, err := e.app.Gateway.CheckRefunds(context.Background(), 100); err != nil || n != 0 {
			t.Fatalf("worker: %d %v", n, err)
		}
		var giveBacks int64
		e.store.DB().Raw("SELECT COUNT(*) FROM transactions WHERE user_id = ? AND type = 'refund' AND reference_type = 'refund'", c.id).Scan(&giveBacks)
		if giveBacks != 1 {
			t.Fatalf("%d give-backs", giveBacks)
		}
		e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "100.00"}), 201)
		e.ledgerClean()
	})
}

// TestRefundPendingResolvedByWorker: a refund the provider did not answer
// stays pending (its debit kept); the worker asks again; one pending past
// its deadline fails and is given back once, however many workers race.
func TestRefundPendingResolvedByWorker(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "100.00")
		r := e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "30.00", "reason": "timeout504"}), 201)
		if data(r)["status"] != "pending" || e.balance(c) != "70.00" {
			t.Fatalf("pending refund: %s", r.raw)
		}
		// A crash between the commit and the provider's answer: a pending
		// refund whose question the provider will answer.
		r2 := e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "10.00", "reason": "timeout504 then ok"}), 201)
		e.store.DB().Exec("UPDATE payment_refunds SET reason = 'crashed' WHERE public_id = ?", data(r2)["refund_id"])
		e.ledgerClean() // pending within its deadline is fine

		// Not due yet: nothing happens.
		if n, _ := e.app.Gateway.CheckRefunds(context.Background(), 100); n != 0 {
			t.Fatalf("worker before due: %d", n)
		}
		e.skew.Store(int64(5 * time.Minute))
		if n, err := e.app.Gateway.CheckRefunds(context.Background(), 100); err != nil || n != 1 {
			t.Fatalf("worker round: %d %v", n, err)
		}
		st := data(e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200))
		rs := st["refunds"].([]any)
		if rs[0].(map[string]any)["status"] != "pending" || rs[1].(map[string]any)["status"] != "processed" {
			t.Fatalf("after a round: %v", rs)
		}
		// Past the deadline: four workers at once fail it exactly once.
		e.skew.Store(int64(25 * time.Hour))
		var wg sync.WaitGroup
		var mu sync.Mutex
		total := 0
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := e.app.Gateway.CheckRefunds(context.Background(), 100)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += n
				mu.Unlock()
			}()
		}
		wg.Wait()
		if total != 1 {
			t.Fatalf("%d refunds ended past the deadline, want 1", total)
		}
		e.skew.Store(0) // the panel token would have expired
		st = data(e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200))
		if rs := st["refunds"].([]any); rs[0].(map[string]any)["status"] != "failed" || st["refunded_amount"] != "10.00" {
			t.Fatalf("after deadline: %v", st)
		}
		if b := e.balance(c); b != "90.00" {
			t.Fatalf("balance %s, want 90.00", b)
		}
		e.ledgerClean()
	})
}

// TestRefundLedgerCheckFindsStuckAndDoubles: the check reports a refund
// left pending past its deadline and a refund given back twice.
func TestRefundLedgerCheckFindsStuckAndDoubles(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "100.00")
		e.must(e.refund(c, map[string]any{"payment_id": id, "amount": "30.00", "reason": "timeout504"}), 201)
		e.skew.Store(int64(26 * time.Hour))
		ds, err := e.app.Ledger.Check(context.Background())
		if err != nil || len(ds) != 1 {
			t.Fatalf("check of a stuck refund: %v %v", ds, err)
		}
		e.skew.Store(0)
		// A refund marked failed without its give-back.
		e.store.DB().Exec("UPDATE payment_refunds SET status = 'failed' WHERE user_id = ?", c.id)
		ds, err = e.app.Ledger.Check(context.Background())
		if err != nil || len(ds) != 2 { // no give-back; the payment's total disagrees
			t.Fatalf("check of a failed refund with its money kept: %v %v", ds, err)
		}
	})
}

// TestPanelRefunds: the signed-in merchant refunds through the panel route
// and lists a payment's refunds; others cannot.
func TestPanelRefunds(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		other := e.newCustomer("user", "starter", "100.00")
		id := e.paidPayment(c, "100.00")
		e.setBalance(c, "100.00")
		path := "/api/v1/panel/payments/" + id + "/refunds"
		r := e.must(e.do("POST", path, c.token, map[string]any{"amount": "12.34", "reason": "customer asked"}, "Idempotency-Key", "k1"), 201)
		if data(r)["status"] != "processed" || r.str("payment_refundable_amount") != "87.66" {
			t.Fatalf("panel refund: %s", r.raw)
		}
		if r := e.must(e.do("POST", path, c.token, map[string]any{"amount": "12.34", "reason": "customer asked"}, "Idempotency-Key", "k1"), 201); r.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("panel replay: %s", r.raw)
		}
		e.must(e.do("POST", path, other.token, map[string]any{"amount": "1"}), 404)
		e.must(e.do("POST", path, e.admin, map[string]any{"amount": "1"}), 404) // only the merchant refunds
		e.must(e.do("POST", path, "", map[string]any{"amount": "1"}), 401)
		e.must(e.do("POST", path, c.token, map[string]any{"amount": "1", "payment_id": id}), 422) // not a field here

		l := e.must(e.do("GET", path, c.token, nil), 200)
		if list := l.body["data"].([]any); len(list) != 1 || l.str("refunded_amount") != "12.34" || l.str("refundable_amount") != "87.66" {
			t.Fatalf("list: %s", l.raw)
		}
		e.must(e.do("GET", path, e.admin, nil), 200)
		e.must(e.do("GET", path, other.token, nil), 404)
		e.must(e.do("GET", "/api/v1/panel/payments/pay_01UNKNOWN/refunds", c.token, nil), 404)
		// The payments list carries the totals.
		pl := e.must(e.do("GET", "/api/v1/panel/payments?status=success", c.token, nil), 200)
		if p := pl.body["data"].([]any)[0].(map[string]any); p["refunded_amount"] != "12.34" {
			t.Fatalf("payments list: %s", pl.raw)
		}
		e.ledgerClean()
	})
}
