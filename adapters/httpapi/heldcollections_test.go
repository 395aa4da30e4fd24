package httpapi_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// heldIDs are the payment_ids of the held collections the admin sees.
func (e *env) heldIDs() []string {
	e.t.Helper()
	r := e.must(e.do("GET", "/api/v1/panel/held-collections", e.admin, nil), 200)
	var ids []string
	for _, h := range r.body["data"].([]any) {
		ids = append(ids, h.(map[string]any)["payment_id"].(string))
	}
	return ids
}

// wantHeldLog fails unless the log has an error line holding payment id.
func (e *env) wantHeldLog(id string) {
	e.t.Helper()
	for _, line := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) && strings.Contains(line, "collection held") && strings.Contains(line, id) {
			return
		}
	}
	e.t.Fatalf("no error log line for held collection %s:\n%s", id, e.logs.String())
}

// TestCollectionOverflowIsHeldNotSilent (sandbox): the payer's Pay would
// overflow the merchant's balance (DECIMAL(12,2)): the payment stays
// pending and held, the page says the confirmation is delayed, the
// operator gets an error log line and a metric, admins list it; Fail
// cannot end it; a retry while the balance is still too full is 409 and
// changes nothing; once the balance allows, the admin's retry credits it,
// audited.
func TestCollectionOverflowIsHeldNotSilent(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		merchant := e.newCustomer("user", "starter", "9999999000.00")
		id := e.must(e.gw(merchant, "POST", "/api/v1/payment/create", map[string]any{"amount": "1500.00", "currency": "INR",
			"customer_id": "cust", "callback_url": "https://shop.example/cb"}), 201).str("payment_id")
		e.page("GET", "/"+id, nil)
		if p := e.page("POST", "/"+id+"/pay", nil); p.status != 303 {
			t.Fatalf("pay: %d %s", p.status, p.raw)
		}
		if d := e.must(e.gw(merchant, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200).body["data"].(map[string]any); d["status"] != "pending" {
			t.Fatalf("held payment: %v", d)
		}
		page := e.page("GET", "/"+id, nil)
		if page.status != 200 || !strings.Contains(page.raw, `id="delayed"`) || !strings.Contains(page.raw, "confirmation is delayed") {
			t.Fatalf("page of a held payment: %d %s", page.status, page.raw)
		}
		e.wantHeldLog(id)
		wantSample(t, e.scrape(), "paygate_collections_held_total", 1)
		if got := e.heldIDs(); len(got) != 1 || got[0] != id {
			t.Fatalf("held collections: %v", got)
		}
		if b := e.balance(merchant); b != "9999999000.00" {
			t.Fatalf("balance after the held payment: %s", b)
		}

		// The payer's Fail cannot end money that arrived.
		e.page("POST", "/"+id+"/fail", nil)
		if d := e.must(e.gw(merchant, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200).body["data"].(map[string]any); d["status"] != "pending" {
			t.Fatalf("held payment after Fail: %v", d)
		}

		retry := "/api/v1/panel/held-collections/" + id + "/retry"
		e.must(e.do("POST", retry, merchant.token, nil), 403)
		if r := e.must(e.do("POST", retry, e.admin, nil), 409); r.str("error") != "collection_held" {
			t.Fatalf("retry while still too full: %s", r.raw)
		}
		wantSample(t, e.scrape(), "paygate_collections_held_total", 2)

		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", merchant.id), e.admin,
			map[string]any{"type": "debit", "amount": "1000.00", "description": "payout by hand"}), 201)
		r := e.must(e.do("POST", retry, e.admin, nil), 200)
		if r.str("status") != "success" {
			t.Fatalf("retry: %s", r.raw)
		}
		if b := e.balance(merchant); b != "9999999500.00" {
			t.Fatalf("balance after the retry: %s", b)
		}
		if got := e.heldIDs(); len(got) != 0 {
			t.Fatalf("held collections after the retry: %v", got)
		}
		if r := e.must(e.do("POST", retry, e.admin, nil), 409); r.str("error") != "collection_not_held" {
			t.Fatalf("second retry: %s", r.raw)
		}
		a := e.must(e.do("GET", "/api/v1/panel/audit-logs?action=payment.credit_retry", e.admin, nil), 200)
		if a.body["meta"].(map[string]any)["total"] != 1.0 {
			t.Fatalf("audit: %s", a.raw)
		}
		if !strings.Contains(e.page("GET", "/"+id, nil).raw, "status-success") {
			t.Fatal("the page does not show the success")
		}
	})
}

// TestUPIDirectCollectionOverflowIsHeld: under upi_direct, the statement
// line that confirms a payment its merchant's balance cannot hold leaves
// the line unmatched (credit_held) and the payment pending and held: it
// outlives its confirmation window (money that arrived is never expired or
// failed), the page says the confirmation is delayed, the operator is told;
// matching the line by hand once the balance allows credits it.
func TestUPIDirectCollectionOverflowIsHeld(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.useUPIDirect()
		merchant := e.newCustomer("user", "starter", "9999999000.00")
		id, other := e.createPayment(merchant, "1500.00"), e.createPayment(merchant, "20.00")
		utr := newUTR()
		for pid, u := range map[string]string{id: utr, other: newUTR()} {
			e.page("GET", "/"+pid, nil)
			if r := e.postForm("/"+pid+"/utr", url.Values{"utr": {u}}, nil); r.status != 303 {
				t.Fatalf("utr: %d", r.status)
			}
		}
		st := e.must(e.importStatement(e.admin, "s.csv", statementOf(utr, "1500.00"), nil), 201)
		if st.body["matched"] != 0.0 || st.body["unmatched"] != 1.0 {
			t.Fatalf("import: %s", st.raw)
		}
		lines := e.must(e.do("GET", "/api/v1/panel/reconciliation/lines?status=unmatched", e.admin, nil), 200).body["data"].([]any)
		line := lines[0].(map[string]any)
		if line["reason"] != "credit_held" {
			t.Fatalf("line: %v", line)
		}
		e.wantHeldLog(id)
		wantSample(t, e.scrape(), "paygate_collections_held_total", 1)
		if got := e.heldIDs(); len(got) != 1 || got[0] != id {
			t.Fatalf("held collections: %v", got)
		}

		// Past the 7-day window: the held payment stays pending, the other expires.
		e.skew.Store(int64(8 * 24 * time.Hour))
		e.admin, merchant.token = e.login(adminEmail, adminPassword), e.login(merchant.email, "user-password-1") // tokens expired
		page := e.page("GET", "/"+id, nil)
		if page.status != 200 || !strings.Contains(page.raw, `id="delayed"`) || strings.Contains(page.raw, `name="utr"`) || strings.Contains(page.raw, `id="awaiting"`) {
			t.Fatalf("page of the held payment: %d %s", page.status, page.raw)
		}
		if d := e.paymentData(merchant, id); d["status"] != "pending" {
			t.Fatalf("held payment after its window: %v", d)
		}
		if d := e.paymentData(merchant, other); d["status"] != "expired" {
			t.Fatalf("unheld payment after its window: %v", d)
		}

		// Still too full: the match is 409 and the line stays.
		match := fmt.Sprintf("/api/v1/panel/reconciliation/lines/%d/match", uint64(line["id"].(float64)))
		if r := e.must(e.do("POST", match, e.admin, map[string]any{"payment_id": id}), 409); r.str("error") != "collection_held" {
			t.Fatalf("match while too full: %s", r.raw)
		}
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", merchant.id), e.admin,
			map[string]any{"type": "debit", "amount": "1000.00", "description": "payout by hand"}), 201)
		if r := e.must(e.do("POST", match, e.admin, map[string]any{"payment_id": id}), 200); r.str("status") != "matched" {
			t.Fatalf("match: %s", r.raw)
		}
		if d := e.paymentData(merchant, id); d["status"] != "success" {
			t.Fatalf("after the match: %v", d)
		}
		if b := e.balance(merchant); b != "9999999500.00" {
			t.Fatalf("balance: %s", b)
		}
		if got := e.heldIDs(); len(got) != 0 {
			t.Fatalf("held collections after the match: %v", got)
		}
	})
}

// TestStatementTopUpOverflowStaysPending: a statement line that pays a
// balance request its owner's balance cannot hold (DECIMAL(12,2)) does not
// fail the import: the other lines match, that line stays unmatched
// (balance_full), the request stays pending, the operator gets an error
// log line; matching the line by hand once the balance allows approves it.
func TestStatementTopUpOverflowStaysPending(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		full := e.newCustomer("user", "starter", "9999999000.00")
		other := e.newCustomer("user", "starter", "0.00")
		fullUTR, otherUTR := newUTR(), newUTR()
		fullReq := e.must(e.upload(full.token, map[string]string{"amount": "1500.00", "utr_number": fullUTR}), 201).num("id")
		otherReq := e.must(e.upload(other.token, map[string]string{"amount": "20.00", "utr_number": otherUTR}), 201).num("id")
		file := fmt.Sprintf("Date,Narration,Ref No,Debit,Credit,Balance\n"+
			"01/04/2024,UPI/CR/%[1]s/FULL,%[1]s,,1500.00,100000.00\n"+
			"02/04/2024,UPI/CR/%[2]s/OTHER,%[2]s,,20.00,100020.00\n", fullUTR, otherUTR)

		st := e.must(e.importStatement(e.admin, "s.csv", []byte(file), nil), 201)
		if st.body["matched"] != 1.0 || st.body["unmatched"] != 1.0 {
			t.Fatalf("import: %s", st.raw)
		}
		request := func(id uint64) resp {
			return e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d", id), e.admin, nil), 200)
		}
		if r := request(otherReq); r.str("status") != "approved" || e.balance(other) != "20.00" {
			t.Fatalf("the other request: %s", r.raw)
		}
		if r := request(fullReq); r.str("status") != "pending" || e.balance(full) != "9999999000.00" {
			t.Fatalf("the request its balance cannot hold: %s", r.raw)
		}
		lines := e.must(e.do("GET", "/api/v1/panel/reconciliation/lines?status=unmatched", e.admin, nil), 200).body["data"].([]any)
		line := lines[0].(map[string]any)
		if len(lines) != 1 || line["utr"] != fullUTR || line["reason"] != "balance_full" {
			t.Fatalf("unmatched lines: %v", lines)
		}
		logged := false
		for _, l := range strings.Split(e.logs.String(), "\n") {
			logged = logged || strings.Contains(l, `"level":"ERROR"`) && strings.Contains(l, "balance request") &&
				strings.Contains(l, fmt.Sprintf(`"balance_request_id":%d`, fullReq))
		}
		if !logged {
			t.Fatalf("no error log line for balance request %v:\n%s", fullReq, e.logs.String())
		}

		// Still too full: matching by hand is 422 and changes nothing.
		match := fmt.Sprintf("/api/v1/panel/reconciliation/lines/%d/match", uint64(line["id"].(float64)))
		body := map[string]any{"balance_request_id": fullReq}
		if r := e.must(e.do("POST", match, e.admin, body), 422); r.str("error") != "balance_too_large" {
			t.Fatalf("match while too full: %s", r.raw)
		}
		if r := request(fullReq); r.str("status") != "pending" {
			t.Fatalf("after the refused match: %s", r.raw)
		}
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", full.id), e.admin,
			map[string]any{"type": "debit", "amount": "1000.00", "description": "payout by hand"}), 201)
		if r := e.must(e.do("POST", match, e.admin, body), 200); r.str("status") != "matched" {
			t.Fatalf("match: %s", r.raw)
		}
		if r := request(fullReq); r.str("status") != "approved" || e.balance(full) != "9999999500.00" {
			t.Fatalf("after the match: %s (balance %s)", r.raw, e.balance(full))
		}
	})
}
