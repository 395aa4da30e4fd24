package httpapi_test

import (
	"fmt"
	"slices"
	"testing"
)

// namedCustomer is a customer with its own name and key name, so a list
// that names rows can be told apart from one that names them all "User".
func (e *env) namedCustomer(name, keyName string) customer {
	e.t.Helper()
	n := seq.Add(1)
	email := fmt.Sprintf("named%d@example.com", n)
	u := e.must(e.do("POST", "/api/v1/panel/users", e.admin, map[string]any{
		"name": name, "email": email, "phone": fmt.Sprintf("97%08d", n), "password": "user-password-1",
		"role": "user", "status": "active", "plan": "enterprise",
	}), 201)
	c := customer{id: u.num("id"), email: email}
	e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
		map[string]any{"type": "credit", "amount": "1000.00", "description": "top-up"}), 201)
	c.token = e.login(email, "user-password-1")
	k := e.must(e.do("POST", "/api/v1/panel/api-keys", c.token, map[string]any{"name": keyName}), 201)
	c.key, c.secret, c.keyID = k.str("key"), k.str("secret"), k.num("id")
	return c
}

// TestListsNameUsersKeysAndServices: the panel's lists carry the names of
// the user, key and service beside their ids; an admin filters them by
// user; a user's lists name only their own; the gateway's answers carry no
// names.
func TestListsNameUsersKeysAndServices(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		svc := e.newService("named-svc", "0.5000")
		asha, ravi := e.namedCustomer("Asha Rao", "shop backend"), e.namedCustomer("Ravi Kumar", "ravi cron")
		e.must(e.call(asha, "named-svc", map[string]any{}), 200)
		e.must(e.call(ravi, "named-svc", map[string]any{}), 200)
		e.must(e.gw(asha, "POST", "/api/v1/payout/transfer", bankPayout("names-1", "10", "123456781234")), 200)
		e.must(e.gw(ravi, "POST", "/api/v1/payment/create", map[string]any{"amount": "20.00", "currency": "INR",
			"customer_id": "cust-1", "callback_url": "https://shop.example/cb"}), 201)
		names := map[uint64][2]string{asha.id: {"Asha Rao", asha.email}, ravi.id: {"Ravi Kumar", ravi.email}}
		keys := map[uint64]string{asha.keyID: "shop backend", ravi.keyID: "ravi cron"}

		// Hit logs: every row names its user, key and service, for the admin.
		hits, _ := e.rows("/api/v1/panel/hit-logs?service=named-svc", e.admin)
		if len(hits) != 2 {
			t.Fatalf("hits: %v", hits)
		}
		for _, h := range hits {
			uid := num(h["user_id"])
			if want := names[uid]; h["user_name"] != want[0] || h["user_email"] != want[1] ||
				h["api_key_name"] != keys[num(h["api_key_id"])] || h["api_service_name"] != "Service named-svc" || num(h["api_service_id"]) != svc {
				t.Fatalf("hit not named: %v", h)
			}
		}
		// The admin's user filter.
		mine, _ := e.rows(fmt.Sprintf("/api/v1/panel/hit-logs?service=named-svc&user_id=%d", ravi.id), e.admin)
		if len(mine) != 1 || mine[0]["user_name"] != "Ravi Kumar" {
			t.Fatalf("ravi's hits: %v", mine)
		}
		// A user's own list names their key and themselves.
		own, _ := e.rows("/api/v1/panel/hit-logs?service=named-svc", asha.token)
		if len(own) != 1 || own[0]["api_key_name"] != "shop backend" || own[0]["user_name"] != "Asha Rao" {
			t.Fatalf("asha's hits: %v", own)
		}

		// Transactions, payouts and payments name the user.
		txns, _ := e.rows(fmt.Sprintf("/api/v1/panel/transactions?user_id=%d", asha.id), e.admin)
		if len(txns) == 0 {
			t.Fatal("no transactions")
		}
		for _, tx := range txns {
			if tx["user_name"] != "Asha Rao" || tx["user_email"] != asha.email {
				t.Fatalf("transaction not named: %v", tx)
			}
		}
		payouts, _ := e.rows("/api/v1/panel/payouts", e.admin)
		if len(payouts) != 1 || payouts[0]["user_name"] != "Asha Rao" || payouts[0]["user_email"] != asha.email {
			t.Fatalf("payouts: %v", payouts)
		}
		if none, _ := e.rows(fmt.Sprintf("/api/v1/panel/payouts?user_id=%d", ravi.id), e.admin); len(none) != 0 {
			t.Fatalf("ravi's payouts: %v", none)
		}
		payments, _ := e.rows(fmt.Sprintf("/api/v1/panel/payments?user_id=%d", ravi.id), e.admin)
		if len(payments) != 1 || payments[0]["user_name"] != "Ravi Kumar" {
			t.Fatalf("payments: %v", payments)
		}
		// The gateway's answers are unchanged: no names.
		st := e.payoutStatus(asha, "reference_id=names-1")
		if _, ok := st["user_name"]; ok {
			t.Fatalf("the gateway's payout names its user: %v", st)
		}

		// The audit log names the admin and the user acted on.
		audit, _ := e.rows(fmt.Sprintf("/api/v1/panel/audit-logs?action=user.create&target_type=user&target_id=%d", asha.id), e.admin)
		if len(audit) != 1 || audit[0]["actor_name"] != "Administrator" || audit[0]["actor_email"] != adminEmail ||
			audit[0]["target_name"] != "Asha Rao" || audit[0]["target_email"] != asha.email {
			t.Fatalf("audit: %v", audit)
		}
		svcAudit, _ := e.rows(fmt.Sprintf("/api/v1/panel/audit-logs?target_type=service&target_id=%d", svc), e.admin)
		if len(svcAudit) == 0 || svcAudit[0]["target_name"] != "Service named-svc" {
			t.Fatalf("service audit: %v", svcAudit)
		}

		// The admin's exports carry the names beside the ids.
		rows := readCSV(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv&service=named-svc", e.admin, nil), "hit-logs")
		col := func(name string) int { return slices.Index(rows[0], name) }
		if len(rows) != 3 || col("user_email") < 0 || col("api_key_name") < 0 || col("api_service_name") < 0 {
			t.Fatalf("hit export: %v", rows)
		}
		for _, r := range rows[1:] {
			want := names[uint64FromCell(t, r[col("user_id")])]
			if r[col("user_name")] != want[0] || r[col("user_email")] != want[1] || r[col("api_service_name")] != "Service named-svc" ||
				r[col("api_key_name")] != keys[uint64FromCell(t, r[col("api_key_id")])] {
				t.Fatalf("hit export row: %v", r)
			}
		}
		pays := readCSV(t, e.do("GET", "/api/v1/panel/payouts?format=csv", e.admin, nil), "payouts")
		if i := slices.Index(pays[0], "user_email"); i < 0 || len(pays) != 2 || pays[1][i] != asha.email || pays[1][i+1] != "Asha Rao" {
			t.Fatalf("payout export: %v", pays)
		}
	})
}

func uint64FromCell(t *testing.T, s string) uint64 {
	t.Helper()
	var n uint64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("cell %q is not an id: %v", s, err)
	}
	return n
}

// TestResellersCustomerHitsNameKeyAndService: a reseller's list of its
// customer's hits names the customer's key and the service (the
// customer's page shows them, not "Key #6" and "Service #9").
func TestResellersCustomerHitsNameKeyAndService(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		svc := e.newService("resold-named", "0.5000")
		r := e.newCustomer("reseller", "starter", "0.00")
		cust := e.resellersCustomer(r, "20.00")
		e.must(e.call(cust, "resold-named", map[string]any{}), 200)

		hits, _ := e.rows(fmt.Sprintf(panelAPI+"/customers/%d/hit-logs", cust.id), r.token)
		if len(hits) != 1 {
			t.Fatalf("customer's hits: %v", hits)
		}
		h := hits[0]
		if num(h["api_service_id"]) != svc || h["api_service_name"] != "Service resold-named" ||
			num(h["api_key_id"]) != cust.keyID || h["api_key_name"] != "test key" || h["request_payload"] != nil {
			t.Fatalf("customer's hit not named: %v", h)
		}
		e.ledgerClean()
	})
}
