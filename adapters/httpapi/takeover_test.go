package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"paygate/core/accounts/user"
)

// confirmInvite is a reseller's new customer using its invite (the mailed
// link): its email confirmed, its password set, the account active.
func (e *env) confirmInvite(email, password string) {
	e.t.Helper()
	link := e.link(email, resetPrefix)
	// Each invitee from an address of its own: many customers confirmed
	// in one test stay clear of the per-address reset limit.
	n := seq.Add(1)
	e.must(e.do("POST", panelAPI+"/auth/reset-password", "", map[string]any{"email": email, "token": link.Query().Get("token"),
		"password": password}, "X-Forwarded-For", fmt.Sprintf("198.18.%d.%d", n/250%250, n%250+1)), 200)
}

// Issue 43 (3), the repro: a reseller creates a "customer" with an address
// it does not own. The account is pending: it cannot sign in, the reseller
// can neither activate nor block it nor move money either way. The real
// owner registers: the claim link goes to the owner's mailbox (the asker is
// told so), and using it takes the account, detached from the reseller
// (audited). The owner, activated by an admin, adds ₹500.00 by checkout;
// the reseller cannot pull it (the account is not its customer any more).
func TestResellerCannotTakeOverAnAddressItDoesNotOwn(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "100.00")
		n := seq.Add(1)
		email := fmt.Sprintf("owner%d@example.com", n)
		c := e.must(e.do("POST", panelAPI+"/customers", r.token, map[string]any{"name": "Not Yours", "email": email,
			"phone": fmt.Sprintf("92%08d", n), "password": "reseller-knows-1"}), 201)
		cid := c.num("id")
		if c.str("status") != "pending" || c.num("parent_id") != r.id || c.body["email_verified_at"] != nil || c.body["api_key"] != nil {
			t.Fatalf("customer: %s", c.raw)
		}
		invite := e.link(email, resetPrefix)
		if !strings.HasPrefix(invite.Query().Get("token"), user.InvitePrefix) {
			t.Fatalf("invite link %s", invite)
		}
		// Pending: no sign-in with the reseller's password, no money either
		// way, no activation or block by the reseller.
		if got := e.do("POST", panelAPI+"/auth/login", "", map[string]any{"email": email, "password": "reseller-knows-1"}); got.status != 403 {
			t.Fatalf("pending customer's login: %d %s", got.status, got.raw)
		}
		path := fmt.Sprintf(panelAPI+"/customers/%d/transfers", cid)
		for _, dir := range []string{"to_customer", "from_customer"} {
			if got := e.do("POST", path, r.token, map[string]any{"amount": "1.00", "direction": dir}); got.status != 409 || got.str("error") != "customer_not_confirmed" {
				t.Fatalf("%s to a pending customer: %d %s", dir, got.status, got.raw)
			}
		}
		for _, act := range []string{"activate", "block"} {
			if got := e.do("POST", fmt.Sprintf(panelAPI+"/customers/%d/%s", cid, act), r.token, map[string]any{}); got.status != 409 || got.str("error") != "customer_not_confirmed" {
				t.Fatalf("%s a pending customer: %d %s", act, got.status, got.raw)
			}
		}

		// The real owner registers: told to look in its mailbox, which
		// gets the claim link (the asker gets nothing else).
		reg := e.must(e.do("POST", panelAPI+"/auth/register", "", map[string]any{"name": "Real Owner", "email": email,
			"phone": fmt.Sprintf("91%08d", n), "password": "owner-password-1"}), 422)
		if got := fieldErr(reg, "email"); got != user.UnconfirmedMessage {
			t.Fatalf("registration: %s", reg.raw)
		}
		claims := e.sentAbout(email, "Claim your account")
		if len(claims) != 1 || !strings.Contains(claims[0].Text, "User") || !strings.Contains(claims[0].Text, "&stay=1") {
			t.Fatalf("claim mail: %+v", claims)
		}
		claim := e.link(email, resetPrefix)
		if !strings.HasPrefix(claim.Query().Get("token"), user.ResetPrefix) || claim.Query().Get("stay") != "" {
			t.Fatalf("claim link %s", claim)
		}
		// The invite no longer works (one token per address), the claim does.
		if got := e.do("POST", panelAPI+"/auth/reset-password", "", map[string]any{"email": email, "token": invite.Query().Get("token"),
			"password": "reseller-password-1", "stay_with_reseller": true}); got.status != 422 {
			t.Fatalf("the replaced invite: %d %s", got.status, got.raw)
		}
		e.must(e.do("POST", panelAPI+"/auth/reset-password", "", map[string]any{"email": email, "token": claim.Query().Get("token"),
			"password": "owner-password-1"}), 200)

		// Detached: nobody's customer, pending an admin like any
		// registration; the reseller sees it no more.
		u := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/users/%d", cid), e.admin, nil), 200)
		if u.body["parent_id"] != nil || u.str("status") != "pending" || u.body["email_verified_at"] == nil {
			t.Fatalf("after the claim: %s", u.raw)
		}
		e.must(e.do("GET", fmt.Sprintf(panelAPI+"/customers/%d", cid), r.token, nil), 404)
		logs := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/audit-logs?actor_id=%d", cid), e.admin, nil), 200).body["data"].([]any)
		if len(logs) != 1 || logs[0].(map[string]any)["action"] != "customer.detach" {
			t.Fatalf("audit: %v", logs)
		}
		e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/users/%d", cid), e.admin, map[string]any{"status": "active"}), 200)
		owner := customer{id: cid, email: email, token: e.login(email, "owner-password-1")}
		if got := e.do("POST", panelAPI+"/auth/login", "", map[string]any{"email": email, "password": "reseller-knows-1"}); got.status != 401 {
			t.Fatalf("the reseller's password: %d %s", got.status, got.raw)
		}

		// The owner adds ₹500.00 by checkout; the reseller cannot pull it.
		id := e.must(e.do("POST", panelAPI+"/balance/checkout", owner.token, map[string]any{"amount": "500.00"}), 201).str("payment_id")
		e.payByCheckout(id)
		if b := e.balance(owner); b != "500.00" {
			t.Fatalf("owner's balance %s", b)
		}
		if got := e.do("POST", path, r.token, map[string]any{"amount": "500.00", "direction": "from_customer"}); got.status != 404 {
			t.Fatalf("pull from the claimed account: %d %s", got.status, got.raw)
		}
		if b := e.balance(owner); b != "500.00" {
			t.Fatalf("owner's balance after the attempt %s", b)
		}
		if b := e.balance(r); b != "100.00" {
			t.Fatalf("reseller's balance %s", b)
		}
		e.ledgerClean()
	})
}

// The claim mail's second link keeps the reseller (audited as a
// confirmation), and a forgotten-password request of an unconfirmed
// customer is a claim too. A confirmed customer stays its reseller's.
func TestOwnerMayStayWithTheReseller(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "0.00")
		n := seq.Add(1)
		email := fmt.Sprintf("stays%d@example.com", n)
		cid := e.must(e.do("POST", panelAPI+"/customers", r.token, map[string]any{"name": "Stays", "email": email,
			"phone": fmt.Sprintf("92%08d", n)}), 201).num("id")
		e.must(e.do("POST", panelAPI+"/auth/forgot-password", "", map[string]any{"email": email}), 200)
		var claims int
		for range 50 {
			if claims = len(e.sentAbout(email, "Claim your account")); claims > 0 {
				break
			}
		}
		if claims != 1 {
			t.Fatalf("%d claim mails", claims)
		}
		claim := e.link(email, resetPrefix)
		e.must(e.do("POST", panelAPI+"/auth/reset-password", "", map[string]any{"email": email, "token": claim.Query().Get("token"),
			"password": "owner-password-1", "stay_with_reseller": true}), 200)
		got := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/customers/%d", cid), r.token, nil), 200)
		if got.num("parent_id") != r.id || got.str("status") != "pending" || got.body["email_verified_at"] == nil {
			t.Fatalf("stayed: %s", got.raw)
		}
		// Confirmed now: its reseller may activate it.
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/customers/%d/activate", cid), r.token, map[string]any{}), 200)
		e.login(email, "owner-password-1")
		logs := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/audit-logs?actor_id=%d", cid), e.admin, nil), 200).body["data"].([]any)
		if len(logs) != 1 || logs[0].(map[string]any)["action"] != "customer.confirm" {
			t.Fatalf("audit: %v", logs)
		}
		// A later reset of the confirmed customer leaves it its reseller's.
		e.skew.Add(int64(6 * 60 * 1e9)) // past the mail cooldown
		e.must(e.do("POST", panelAPI+"/auth/forgot-password", "", map[string]any{"email": email}), 200)
		for range 50 {
			if len(e.sentAbout(email, "Reset your password")) > 0 {
				break
			}
		}
		reset := e.link(email, resetPrefix)
		e.must(e.do("POST", panelAPI+"/auth/reset-password", "", map[string]any{"email": email, "token": reset.Query().Get("token"),
			"password": "owner-password-2"}), 200)
		if got := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/customers/%d", cid), r.token, nil), 200); got.num("parent_id") != r.id {
			t.Fatalf("after a confirmed customer's reset: %s", got.raw)
		}
		e.ledgerClean()
	})
}

// A from_customer transfer takes back at most what the reseller put in and
// has not taken back, never the customer's own money: not what it
// collected by checkout, nor what an admin credited.
func TestFromCustomerTakesBackOnlyWhatTheResellerPutIn(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "100.00")
		c := e.resellersCustomer(r, "10.00") // an admin's credit: the customer's
		path := fmt.Sprintf(panelAPI+"/customers/%d/transfers", c.id)
		refused := func(amount string) {
			t.Helper()
			got := e.do("POST", path, r.token, map[string]any{"amount": amount, "direction": "from_customer"})
			if got.status != 422 || got.str("error") != "transfer_exceeds_funded" || fieldErr(got, "amount") == "" {
				t.Fatalf("from_customer %s: %d %s", amount, got.status, got.raw)
			}
		}
		refused("0.01")
		e.must(e.do("POST", path, r.token, map[string]any{"amount": "30.00", "direction": "to_customer"}), 201)
		// The customer collects ₹500.00 of its own at a checkout.
		pay := e.newPayment(c, "500.00")
		e.payByCheckout(pay)
		if b := e.balance(c); b != "540.00" {
			t.Fatalf("customer's balance %s", b)
		}
		refused("30.01")
		e.must(e.do("POST", path, r.token, map[string]any{"amount": "20.00", "direction": "from_customer"}), 201)
		refused("10.01")
		e.must(e.do("POST", path, r.token, map[string]any{"amount": "10.00", "direction": "from_customer"}), 201)
		refused("0.01")
		if b, rb := e.balance(c), e.balance(r); b != "510.00" || rb != "100.00" {
			t.Fatalf("balances: customer %s, reseller %s", b, rb)
		}
		e.ledgerClean()
	})
}

// Issue 43 (4): an admin promoting a customer (to admin or reseller) ends
// its reseller relation, audited; the former reseller gets 404 on it and
// cannot transfer from it or block it. The database refuses an admin or a
// reseller with a parent, whatever writes the row.
func TestPromotedCustomerIsNobodysCustomer(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		for _, role := range []string{"admin", "reseller"} {
			r := e.newCustomer("reseller", "starter", "0.00")
			c := e.resellersCustomer(r, "100.00")
			u := e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/users/%d", c.id), e.admin, map[string]any{"role": role}), 200)
			if u.body["parent_id"] != nil || u.str("role") != role {
				t.Fatalf("%s: promoted %s", role, u.raw)
			}
			logs := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/audit-logs?action=user.update&target_type=user&target_id=%d", c.id), e.admin, nil), 200).body["data"].([]any)
			if len(logs) != 1 {
				t.Fatalf("%s: audit %v", role, logs)
			}
			entry := logs[0].(map[string]any)
			before, _ := entry["before"].(map[string]any)
			after, _ := entry["after"].(map[string]any)
			if before["parent_id"] != float64(r.id) || after["parent_id"] != nil {
				t.Fatalf("%s: audit entry %v", role, entry)
			}
			for _, p := range []string{"", "/api-keys", "/transactions", "/transfers"} {
				e.must(e.do("GET", fmt.Sprintf(panelAPI+"/customers/%d%s", c.id, p), r.token, nil), 404)
			}
			e.must(e.do("POST", fmt.Sprintf(panelAPI+"/customers/%d/transfers", c.id), r.token, map[string]any{"amount": "100.00", "direction": "from_customer"}), 404)
			e.must(e.do("POST", fmt.Sprintf(panelAPI+"/customers/%d/block", c.id), r.token, map[string]any{}), 404)
			if b := e.balance(c); b != "100.00" {
				t.Fatalf("%s: balance %s", role, b)
			}
			e.must(e.do("GET", panelAPI+"/auth/me", c.token, nil), 200)

			// The database itself: a parent on a reseller or an admin is refused.
			db := e.store.DB()
			if err := db.Exec("UPDATE users SET parent_id = ? WHERE id = ?", r.id, c.id).Error; err == nil {
				t.Fatalf("%s: the database took a parent", role)
			}
			other := e.resellersCustomer(e.newCustomer("reseller", "starter", "0.00"), "0.00")
			if err := db.Exec("UPDATE users SET role = ? WHERE id = ?", role, other.id).Error; err == nil {
				t.Fatalf("%s: the database made a customer %s", role, role)
			}
		}
		e.ledgerClean()
	})
}
