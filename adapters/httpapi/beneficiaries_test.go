package httpapi_test

import (
	"fmt"
	"testing"
)

// TestBeneficiariesAreVerifiedOnceThenChosen: a payee is saved only after
// one billed account verification found it, is listed masked to its owner
// only, and a payout names it by id; another user's is 404, and without
// the payout credential nothing is verified, saved or charged.
func TestBeneficiariesAreVerifiedOnceThenChosen(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "1000.00")
		other := e.newCustomer("user", "starter", "1000.00")
		bank := map[string]any{"api_key_id": c.keyID, "type": "bank_account", "name": "Asha Traders",
			"account_number": "123456781234", "ifsc": "hdfc0001234"}

		// Without the payout credential: refused, nothing charged or saved.
		r := e.must(e.do("POST", "/api/v1/panel/beneficiaries", c.token, bank), 403)
		if r.str("error") != "payout_authorization_required" {
			t.Fatalf("without the credential: %s", r.raw)
		}
		cred := e.authorizePayouts(c)
		h := []string{"X-Payout-Authorization", cred}

		// Verified: saved, masked, with the name at source; the verification charged (1.00).
		r = e.must(e.do("POST", "/api/v1/panel/beneficiaries", c.token, bank, h...), 201)
		id := r.num("id")
		if r.str("account_number") != "XXXXXXXX1234" || r.str("ifsc") != "HDFC0001234" || r.str("verified_at") == "" || r.body["vpa"] != nil {
			t.Fatalf("saved: %s", r.raw)
		}
		if b := e.balance(c); b != "999.00" {
			t.Fatalf("balance after one verification %s", b)
		}
		// Not found by the verification: not saved, still charged.
		closed := map[string]any{"api_key_id": c.keyID, "type": "bank_account", "name": "Closed", "account_number": "123456780000", "ifsc": "HDFC0001234"}
		r = e.must(e.do("POST", "/api/v1/panel/beneficiaries", c.token, closed, h...), 422)
		if r.str("error") != "beneficiary_not_verified" {
			t.Fatalf("unverified: %s", r.raw)
		}
		// Bad fields are refused before any verification.
		e.must(e.do("POST", "/api/v1/panel/beneficiaries", c.token, map[string]any{"api_key_id": c.keyID, "type": "vpa", "name": "X", "vpa": "nope"}, h...), 422)
		e.must(e.do("POST", "/api/v1/panel/beneficiaries", c.token, map[string]any{"type": "vpa", "name": "X", "vpa": "ravi@okaxis"}, h...), 422)
		// Another user's key: 404.
		e.must(e.do("POST", "/api/v1/panel/beneficiaries", c.token, map[string]any{"api_key_id": other.keyID, "type": "vpa", "name": "Ravi", "vpa": "ravi@okaxis"}, h...), 404)
		r = e.must(e.do("POST", "/api/v1/panel/beneficiaries", c.token, map[string]any{"api_key_id": c.keyID, "type": "vpa", "name": "Ravi", "vpa": "Ravi@okaxis"}, h...), 201)
		if r.str("vpa") == "" || r.body["account_number"] != nil {
			t.Fatalf("vpa saved: %s", r.raw)
		}
		if b := e.balance(c); b != "997.00" {
			t.Fatalf("balance after three verifications %s", b)
		}

		// The owner's list, by name; nobody else's.
		l := e.must(e.do("GET", "/api/v1/panel/beneficiaries", c.token, nil), 200).body["data"].([]any)
		if len(l) != 2 || l[0].(map[string]any)["name"] != "Asha Traders" || l[0].(map[string]any)["account_number"] != "XXXXXXXX1234" {
			t.Fatalf("list %v", l)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/beneficiaries", other.token, nil), 200).body["data"].([]any); len(l) != 0 {
			t.Fatalf("other's list %v", l)
		}

		// A payout to the saved beneficiary, chosen by id.
		pay := map[string]any{"api_key_id": c.keyID, "beneficiary_id": id, "amount": "100", "reference_id": "b-1"}
		r = e.must(e.do("POST", "/api/v1/panel/payouts", c.token, pay, h...), 200)
		d := r.body["data"].(map[string]any)
		if b := d["beneficiary"].(map[string]any); b["name"] != "Asha Traders" || b["account_number"] != "XXXXXXXX1234" || d["mode"] != "IMPS" {
			t.Fatalf("payout to a saved beneficiary: %s", r.raw)
		}
		// Another user's beneficiary is not found, with its own credential too; nothing charged.
		otherCred := e.authorizePayouts(other)
		e.must(e.do("POST", "/api/v1/panel/payouts", other.token, map[string]any{"api_key_id": other.keyID, "beneficiary_id": id, "amount": "100", "reference_id": "o-1"},
			"X-Payout-Authorization", otherCred), 404)
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/beneficiaries/%d", id), other.token, nil), 404)
		if b := e.balance(other); b != "1000.00" {
			t.Fatalf("the other user was charged: %s", b)
		}
		// Both the id and the object: 422.
		both := map[string]any{"api_key_id": c.keyID, "beneficiary_id": id, "beneficiary": bankPayout("x", "1", "123456781234")["beneficiary"], "amount": "100", "reference_id": "b-2"}
		e.must(e.do("POST", "/api/v1/panel/payouts", c.token, both, h...), 422)

		// Deleted: gone from the list; the payout keeps its payee.
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/beneficiaries/%d", id), c.token, nil), 204)
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/beneficiaries/%d", id), c.token, nil), 404)
		pay["reference_id"] = "b-3"
		e.must(e.do("POST", "/api/v1/panel/payouts", c.token, pay, h...), 404)
		if l := e.must(e.do("GET", "/api/v1/panel/beneficiaries", c.token, nil), 200).body["data"].([]any); len(l) != 1 {
			t.Fatalf("list after delete %v", l)
		}
		e.ledgerClean()
	})
}
