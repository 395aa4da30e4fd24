package httpapi_test

import (
	"fmt"
	"sync"
	"testing"
)

// A reseller's customers end to end: creation with the set-password mail,
// transfers (idempotent, never overdrawing), a customer's balance request
// decided by its reseller, the admins' view and the reseller's dashboard.
func TestResellerCustomers(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "10.00")
		hook := map[string]any{"webhook_url": "https://hooks.example.com/paygate"}
		e.must(e.do("PATCH", panelAPI+"/auth/me", r.token, hook), 200)
		n := seq.Add(1)
		email := fmt.Sprintf("shop%d@example.com", n)
		c := e.must(e.do("POST", panelAPI+"/customers", r.token, map[string]any{"name": "Corner Shop", "email": email,
			"phone": fmt.Sprintf("94%08d", n)}), 201)
		cid := c.num("id")
		if c.num("parent_id") != r.id || c.str("role") != "user" || c.str("status") != "pending" || c.str("reseller_name") != "User" {
			t.Fatalf("customer: %s", c.raw)
		}
		// The customer confirms its email and chooses its password through
		// the mailed invite, which activates it.
		e.confirmInvite(email, "customer-password-1")
		if got := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/customers/%d", cid), r.token, nil), 200); got.str("status") != "active" || got.body["api_key"] == nil {
			t.Fatalf("confirmed customer: %s", got.raw)
		}
		ctoken := e.login(email, "customer-password-1")
		e.must(e.do("PATCH", panelAPI+"/auth/me", ctoken, hook), 200)
		if n := e.eventCount(r.id, "customer.created"); n != 1 {
			t.Errorf("%d customer.created events", n)
		}

		// Transfers: idempotent, 402 when short, 409 for a reused key.
		path := fmt.Sprintf(panelAPI+"/customers/%d/transfers", cid)
		first := e.must(e.do("POST", path, r.token, map[string]any{"amount": "4.00", "direction": "to_customer"}, "Idempotency-Key", "t-1"), 201)
		if first.str("reseller_balance") != "6.00" || first.str("customer_balance") != "4.00" || first.num("customer_id") != cid {
			t.Fatalf("transfer: %s", first.raw)
		}
		again := e.must(e.do("POST", path, r.token, map[string]any{"amount": "4", "direction": "to_customer"}, "Idempotency-Key", "t-1"), 201)
		if again.num("id") != first.num("id") || again.header.Get("Idempotent-Replayed") != "true" || again.str("reseller_balance") != "6.00" {
			t.Errorf("replay: %s %v", again.raw, again.header)
		}
		if r := e.do("POST", path, r.token, map[string]any{"amount": "5.00", "direction": "to_customer"}, "Idempotency-Key", "t-1"); r.status != 409 {
			t.Errorf("reused key: %d %s", r.status, r.raw)
		}
		if r := e.do("POST", path, r.token, map[string]any{"amount": "6.01", "direction": "to_customer"}); r.status != 402 || r.str("error") != "insufficient_balance" {
			t.Errorf("overdraw: %d %s", r.status, r.raw)
		}
		back := e.must(e.do("POST", path, r.token, map[string]any{"amount": "1.50", "direction": "from_customer"}), 201)
		if back.str("customer_balance") != "2.50" || back.str("reseller_balance") != "7.50" {
			t.Errorf("from customer: %s", back.raw)
		}
		// Each transfer tells both sides (a replay and a refusal nothing).
		if nr, nc := e.eventCount(r.id, "transfer.created"), e.eventCount(cid, "transfer.created"); nr != 2 || nc != 2 {
			t.Errorf("transfer.created events: reseller %d, customer %d; want 2 each", nr, nc)
		}
		list := e.must(e.do("GET", path, r.token, nil), 200)
		if data := list.body["data"].([]any); len(data) != 2 {
			t.Errorf("transfers: %s", list.raw)
		}
		// The admins' audit log has both, by the reseller (the contract
		// check holds target_type "transfer" to the document).
		audited := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/audit-logs?target_type=transfer&actor_id=%d", r.id), e.admin, nil), 200)
		if data := audited.body["data"].([]any); len(data) != 2 || data[0].(map[string]any)["action"] != "transfer.create" {
			t.Errorf("audited transfers: %s", audited.raw)
		}
		tx := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/customers/%d/transactions?reference_type=transfer", cid), r.token, nil), 200)
		if data := tx.body["data"].([]any); len(data) != 2 {
			t.Errorf("customer's transactions: %s", tx.raw)
		}

		// The customer's balance request, decided by its reseller.
		shot := pngFile(t)
		req := e.must(e.upload(ctoken, map[string]string{"amount": "20.00", "utr_number": newUTR(), "payment_method": "upi"},
			part{"screenshot", "paid.png", "image/png", shot}), 201).num("id")
		mine := e.must(e.do("GET", panelAPI+"/balance-requests?scope=customers", r.token, nil), 200).body["data"].([]any)
		if len(mine) != 1 || mine[0].(map[string]any)["user_name"] != "Corner Shop" {
			t.Errorf("customers' requests: %v", mine)
		}
		// The reseller reads the request and its screenshot before deciding;
		// another reseller cannot.
		one := fmt.Sprintf(panelAPI+"/balance-requests/%d", req)
		if got := e.must(e.do("GET", one, r.token, nil), 200); got.num("id") != req || got.str("amount") != "20.00" {
			t.Errorf("its customer's request: %s", got.raw)
		}
		if got := e.must(e.do("GET", one+"/screenshot", r.token, nil), 200); got.raw != string(shot) || got.header.Get("Content-Type") != "image/png" {
			t.Errorf("its customer's screenshot: %d bytes, %s", len(got.raw), got.header.Get("Content-Type"))
		}
		stranger := e.newCustomer("reseller", "starter", "0.00")
		for _, p := range []string{one, one + "/screenshot"} {
			if got := e.do("GET", p, stranger.token, nil); got.status != 404 {
				t.Errorf("another reseller GET %s: %d", p, got.status)
			}
		}
		approve := fmt.Sprintf(panelAPI+"/balance-requests/%d/approve", req)
		if r := e.do("POST", approve, r.token, map[string]any{}); r.status != 402 {
			t.Errorf("approve when short: %d %s", r.status, r.raw)
		}
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/users/%d/balance-adjustments", r.id), e.admin,
			map[string]any{"type": "credit", "amount": "20.00", "description": "reseller paid"}), 201)
		e.must(e.do("POST", approve, r.token, map[string]any{"admin_remarks": "paid at the counter"}), 200)
		if b := e.balance(customer{token: ctoken}); b != "22.50" {
			t.Errorf("customer's balance %s", b)
		}
		if b := e.balance(r); b != "7.50" {
			t.Errorf("reseller's balance %s", b)
		}

		// Admins see the customer's reseller and filter by it.
		users := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/users?reseller_id=%d", r.id), e.admin, nil), 200).body["data"].([]any)
		if len(users) != 1 || users[0].(map[string]any)["reseller_name"] != "User" || uint64(users[0].(map[string]any)["parent_id"].(float64)) != r.id {
			t.Errorf("admin's list: %v", users)
		}

		d := e.must(e.do("GET", panelAPI+"/reseller/dashboard", r.token, nil), 200)
		if tot := d.body["totals"].(map[string]any); tot["customers"].(float64) != 1 || tot["commission_settled"] != "0.00" {
			t.Errorf("dashboard: %s", d.raw)
		}

		// Blocking ends the customer's access.
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/customers/%d/block", cid), r.token, map[string]any{}), 200)
		if r := e.do("GET", panelAPI+"/auth/me", ctoken, nil); r.status != 401 && r.status != 403 {
			t.Errorf("blocked customer: %d", r.status)
		}
		got := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/customers?status=blocked&search=%s", email), r.token, nil), 200).body["data"].([]any)
		if len(got) != 1 {
			t.Errorf("blocked customers: %v", got)
		}
	})
}

// Concurrent duplicates of one Idempotency-Key make one transfer; every
// answer is that transfer.
func TestConcurrentTransferReplays(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "10.00")
		n := seq.Add(1)
		email := fmt.Sprintf("kiosk%d@example.com", n)
		cid := e.must(e.do("POST", panelAPI+"/customers", r.token, map[string]any{"name": "Kiosk", "email": email,
			"phone": fmt.Sprintf("93%08d", n), "password": "user-password-1"}), 201).num("id")
		e.confirmInvite(email, "user-password-1")
		path := fmt.Sprintf(panelAPI+"/customers/%d/transfers", cid)
		const dups = 8
		ids := make([]uint64, dups)
		var wg sync.WaitGroup
		for i := range dups {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := e.do("POST", path, r.token, map[string]any{"amount": "3.00", "direction": "to_customer"}, "Idempotency-Key", "same")
				if res.status != 201 {
					t.Errorf("duplicate %d: %d %s", i, res.status, res.raw)
				}
				ids[i] = res.num("id")
			}()
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] {
				t.Errorf("answers name different transfers: %v", ids)
				break
			}
		}
		if b := e.balance(r); b != "7.00" {
			t.Errorf("reseller's balance %s, want 7.00 (one transfer)", b)
		}
		list := e.must(e.do("GET", path, r.token, nil), 200)
		if got := list.body["meta"].(map[string]any)["total"].(float64); got != 1 {
			t.Errorf("%v transfers, want 1", got)
		}
	})
}
