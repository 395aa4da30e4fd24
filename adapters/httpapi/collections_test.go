package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payment"
)

// ledgerRows are the caller's ledger entries (newest first) as the panel
// shows them.
func (e *env) ledgerRows(c customer) []map[string]any {
	e.t.Helper()
	r := e.must(e.do("GET", "/api/v1/panel/transactions?per_page=100", c.token, nil), 200)
	var out []map[string]any
	for _, row := range r.body["data"].([]any) {
		out = append(out, row.(map[string]any))
	}
	return out
}

// payByCheckout opens the payment's page (created → pending) and presses the
// sandbox "Pay".
func (e *env) payByCheckout(id string) {
	e.t.Helper()
	if p := e.page("GET", "/"+id, nil); p.status != 200 {
		e.t.Fatalf("open %s: %d %s", id, p.status, p.raw)
	}
	if p := e.page("POST", "/"+id+"/pay", map[string]string{"Origin": e.url}); p.status != 303 {
		e.t.Fatalf("pay %s: %d %s", id, p.status, p.raw)
	}
}

func (e *env) paymentRowID(publicID string) uint64 {
	e.t.Helper()
	var id uint64
	if err := e.store.DB().Raw("SELECT id FROM payments WHERE public_id = ?", publicID).Scan(&id).Error; err != nil || id == 0 {
		e.t.Fatalf("payment %s: %d %v", publicID, id, err)
	}
	return id
}

func (e *env) setFee(c customer, percent string) resp {
	e.t.Helper()
	return e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, map[string]any{"collection_fee_percent": percent})
}

func (e *env) newPayment(c customer, amount string) string {
	e.t.Helper()
	return e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{
		"amount": amount, "currency": "INR", "customer_id": "cust-1", "callback_url": "https://shop.example/cb"}), 201).str("payment_id")
}

// A successful payment credits its merchant in the ledger: the amount, and
// a fee debit (rounded half-up) when the merchant has a fee; failed and
// expired payments move no money.
func TestCollectionCreditsMerchant(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		free := e.newCustomer("user", "starter", "0.00")
		if me := e.must(e.do("GET", "/api/v1/panel/auth/me", free.token, nil), 200); me.str("collection_fee_percent") != "0.00" {
			t.Fatalf("default fee: %s", me.raw)
		}
		id := e.newPayment(free, "250.00")
		e.payByCheckout(id)
		if b := e.balance(free); b != "250.00" {
			t.Fatalf("balance after a collection without fee: %s", b)
		}
		rows := e.ledgerRows(free)
		if len(rows) != 1 || rows[0]["type"] != "credit" || rows[0]["amount"] != "250.00" || rows[0]["reference_type"] != "payment" ||
			uint64(rows[0]["reference_id"].(float64)) != e.paymentRowID(id) || !strings.Contains(rows[0]["description"].(string), id) {
			t.Fatalf("ledger without fee: %v", rows)
		}

		// The admin sets a fee; bad values are 422 with a field error.
		for _, bad := range []string{"100.01", "-1", "1.234", "abc", ""} {
			r := e.must(e.setFee(free, bad), 422)
			if r.body["errors"].(map[string]any)["collection_fee_percent"] == nil {
				t.Fatalf("fee %q: %s", bad, r.raw)
			}
		}
		feeUser := e.newCustomer("user", "starter", "0.00")
		if r := e.must(e.setFee(feeUser, "2.5"), 200); r.str("collection_fee_percent") != "2.50" {
			t.Fatalf("set fee: %s", r.raw)
		}
		if r := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/users/%d", feeUser.id), e.admin, nil), 200); r.str("collection_fee_percent") != "2.50" {
			t.Fatalf("read fee: %s", r.raw)
		}
		// A user cannot set their own fee.
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", feeUser.id), feeUser.token, map[string]any{"collection_fee_percent": "0"}), 403)

		// 2.5% of 9.80 is 0.245: half-up gives 0.25 (half-even would give 0.24).
		id = e.newPayment(feeUser, "9.80")
		e.payByCheckout(id)
		if b := e.balance(feeUser); b != "9.55" {
			t.Fatalf("balance after 9.80 less a 0.25 fee: %s", b)
		}
		rows = e.ledgerRows(feeUser)
		if len(rows) != 2 || rows[1]["type"] != "credit" || rows[1]["amount"] != "9.80" || rows[1]["reference_type"] != "payment" ||
			rows[0]["type"] != "debit" || rows[0]["amount"] != "0.25" || rows[0]["reference_type"] != "payment_fee" ||
			rows[0]["reference_id"] != rows[1]["reference_id"] || rows[0]["balance_after"] != "9.55" {
			t.Fatalf("ledger with fee: %v", rows)
		}
		st := e.must(e.gw(feeUser, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200).body["data"].(map[string]any)
		if st["fee"] != "0.25" || st["purpose"] != "collection" || st["status"] != "success" {
			t.Fatalf("status with fee: %v", st)
		}

		// Failed and expired payments credit nothing.
		failed := e.newPayment(feeUser, "50.00")
		e.page("GET", "/"+failed, nil)
		e.must(e.page("POST", "/"+failed+"/fail", map[string]string{"Origin": e.url}), 303)
		expired := e.newPayment(feeUser, "60.00")
		e.store.DB().Exec("UPDATE payments SET expires_at = ? WHERE public_id = ?", time.Now().UTC().Add(-time.Second), expired)
		if n, err := e.app.Gateway.ExpirePayments(context.Background(), 10); err != nil || n != 1 {
			t.Fatalf("expired %d: %v", n, err)
		}
		if b := e.balance(feeUser); b != "9.55" || len(e.ledgerRows(feeUser)) != 2 {
			t.Fatalf("a failed or expired payment moved money: balance %s", b)
		}
		e.ledgerClean()
	})
}

// Confirmed money (reconciliation's path, CompletePayment) completes an open
// payment once; a second confirmation is ErrFinal, and one past the
// payment's lifetime ErrExpired, and neither posts anything.
func TestCompletePaymentByReference(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		m := e.newCustomer("user", "starter", "0.00")
		e.must(e.setFee(m, "1.00"), 200)
		id := e.newPayment(m, "1000.00") // created: nobody opened the page
		p, err := e.app.Gateway.CompletePayment(context.Background(), e.paymentRowID(id), "412345678901", "reconciliation")
		if err != nil || p.Status != payment.StatusSuccess || p.ProviderRef == nil || *p.ProviderRef != "412345678901" || p.Fee.StringFixed(2) != "10.00" {
			t.Fatalf("complete: %+v %v", p, err)
		}
		if _, err := e.app.Gateway.CompletePayment(context.Background(), e.paymentRowID(id), "412345678901", "reconciliation"); !errors.Is(err, payment.ErrFinal) {
			t.Fatalf("second completion: %v", err)
		}
		late := e.newPayment(m, "500.00")
		e.page("GET", "/"+late, nil) // pending
		e.store.DB().Exec("UPDATE payments SET expires_at = ? WHERE public_id = ?", time.Now().UTC().Add(-time.Minute), late)
		if _, err := e.app.Gateway.CompletePayment(context.Background(), e.paymentRowID(late), "", "reconciliation"); !errors.Is(err, payment.ErrExpired) {
			t.Fatalf("completion past the lifetime: %v", err)
		}
		if b := e.balance(m); b != "990.00" {
			t.Fatalf("balance %s, want 1000.00 less 10.00", b)
		}
		st := e.must(e.gw(m, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200).body["data"].(map[string]any)
		if st["status"] != "success" || st["fee"] != "10.00" {
			t.Fatalf("status: %v", st)
		}
		e.ledgerClean()
	})
}

// Two instances, the expiry worker and confirmed money race to end the same
// payments: each ends once, and only a success credits, exactly once.
func TestCollectionCreditedOnceUnderRace(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		other := newEnv(t, e.store) // a second instance on the same database
		m := e.newCustomer("user", "starter", "0.00")
		e.must(e.setFee(m, "1.50"), 200)
		const payments, racers = 6, 20
		ids := make([]string, payments)
		for i := range ids {
			ids[i] = e.newPayment(m, "100.00")
			e.page("GET", "/"+ids[i], nil) // pending
		}
		// Half of the payments are past their lifetime: there the payer's
		// button expires them, confirmed money is refused, and the worker
		// competes for real.
		for _, id := range ids[payments/2:] {
			e.store.DB().Exec("UPDATE payments SET expires_at = ? WHERE public_id = ?", time.Now().UTC().Add(-time.Second), id)
		}
		rowIDs := make([]uint64, payments)
		for i, id := range ids {
			rowIDs[i] = e.paymentRowID(id)
		}
		var wg sync.WaitGroup
		for r := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				inst := e
				if r%2 == 1 {
					inst = other
				}
				for i, id := range ids {
					var err error
					switch r % 4 {
					case 0, 1: // the payer's button, on either instance
						inst.page("POST", "/"+id+"/pay", nil)
					case 2: // the expiry worker
						_, err = inst.app.Gateway.ExpirePayments(context.Background(), 100)
					case 3: // confirmed money (reconciliation)
						_, err = inst.app.Gateway.CompletePayment(context.Background(), rowIDs[i], "", "reconciliation")
						if errors.Is(err, payment.ErrFinal) || errors.Is(err, payment.ErrExpired) {
							err = nil
						}
					}
					if err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		success := 0
		for _, id := range ids {
			st := e.must(e.gw(m, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200).body["data"].(map[string]any)
			switch st["status"] {
			case "success":
				success++
			case "expired":
			default:
				t.Fatalf("%s ended %v", id, st["status"])
			}
		}
		credits, fees := 0, 0
		for _, row := range e.ledgerRows(m) {
			switch row["reference_type"] {
			case "payment":
				credits++
			case "payment_fee":
				fees++
			}
		}
		if credits != success || fees != success || success != payments/2 {
			t.Fatalf("%d successes, %d credits, %d fees", success, credits, fees)
		}
		want := decimal.RequireFromString("98.50").Mul(decimal.NewFromInt(int64(success))).StringFixed(2) // 100.00 less 1.50
		if b := e.balance(m); b != want {
			t.Fatalf("balance %s after %d successes, want %s", b, success, want)
		}
		e.ledgerClean()
	})
}

// Add balance by checkout: the user pays the platform through the same
// checkout; its success credits their own balance with no fee.
func TestBalanceCheckout(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		u := e.newCustomer("user", "starter", "0.00")
		e.must(e.setFee(u, "5.00"), 200) // a merchant's fee never applies to their own top-up
		for _, bad := range []any{"0", "-5", "abc", "10.001", "100000.01", ""} {
			r := e.must(e.do("POST", "/api/v1/panel/balance/checkout", u.token, map[string]any{"amount": bad}), 422)
			if r.body["errors"].(map[string]any)["amount"] == nil {
				t.Fatalf("amount %v: %s", bad, r.raw)
			}
		}
		e.must(e.do("POST", "/api/v1/panel/balance/checkout", "", map[string]any{"amount": "10"}), 401)

		r := e.must(e.do("POST", "/api/v1/panel/balance/checkout", u.token, map[string]any{"amount": "500"}), 201)
		id := r.str("payment_id")
		if r.str("purpose") != "balance" || r.str("amount") != "500.00" || r.str("status") != "created" || r.str("fee") != "0.00" ||
			!strings.HasSuffix(r.str("payment_url"), "/"+id) || r.num("user_id") != u.id {
			t.Fatalf("checkout: %s", r.raw)
		}
		// Its page is any payment's page, payable to the platform.
		page := e.page("GET", "/"+id, nil)
		if page.status != 200 || !strings.Contains(page.raw, "Pay Paygate") || !strings.Contains(page.raw, "upi://pay?pa=") ||
			!strings.Contains(page.raw, "₹500.00") {
			t.Fatalf("page %d: %s", page.status, page.raw)
		}
		e.must(e.page("POST", "/"+id+"/pay", map[string]string{"Origin": e.url}), 303)
		if b := e.balance(u); b != "500.00" {
			t.Fatalf("balance after a 500.00 checkout: %s", b)
		}
		rows := e.ledgerRows(u)
		if len(rows) != 1 || rows[0]["type"] != "credit" || rows[0]["amount"] != "500.00" || rows[0]["reference_type"] != "payment" {
			t.Fatalf("ledger: %v", rows)
		}
		// It is in the user's payments, marked as a balance payment.
		l := e.must(e.do("GET", "/api/v1/panel/payments", u.token, nil), 200)
		if d := l.body["data"].([]any); len(d) != 1 || d[0].(map[string]any)["purpose"] != "balance" || d[0].(map[string]any)["status"] != "success" {
			t.Fatalf("payments: %s", l.raw)
		}
		// A top-up is the payer's own balance now: it is not refunded.
		if r := e.must(e.do("POST", "/api/v1/panel/payments/"+id+"/refunds", u.token, map[string]any{"amount": "1.00"}), 409); r.str("error") != "payment_not_refundable" {
			t.Fatalf("refund of a top-up: %s", r.raw)
		}
		if b := e.balance(u); b != "500.00" {
			t.Fatalf("balance after a refused refund: %s", b)
		}
		// The largest allowed: one UPI payment's limit (below BALANCE_REQUEST_MAX).
		e.must(e.do("POST", "/api/v1/panel/balance/checkout", u.token, map[string]any{"amount": "100000.00"}), 201)
		e.ledgerClean()
	})
}
