package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// statementOf is a bank statement with one UPI credit of amount under utr.
func statementOf(utr, amount string) []byte {
	return []byte(fmt.Sprintf("Date,Narration,Ref No,Debit,Credit,Balance\n01/04/2024,UPI/CR/%s/PAYER,%s,,%s,100000.00\n", utr, utr, amount))
}

// curlPost posts a form as a script would: no Origin, no Sec-Fetch-Site.
func (e *env) curlPost(path string, values url.Values) resp {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.url+path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return e.sendPage(req)
}

// TestUTRAttackOfIssue30IsRefused replays the attack of issue 30 against
// a upi_direct server: a payer reports UTR 444444444444 for ₹300; another
// user's balance request for ₹300 with the same UTR is refused (409, also
// spelled with spaces and in lower case); a script's post with neither
// Origin nor Sec-Fetch-Site is 403 with the error body; the page refuses to
// replace the UTR; the bank statement line then completes the payment and
// credits nobody else.
func TestUTRAttackOfIssue30IsRefused(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.useUPIDirect()
		merchant := e.newCustomer("user", "starter", "0.00")
		other := e.newCustomer("user", "starter", "500.00")
		id := e.createPayment(merchant, "300.00")
		e.page("GET", "/"+id, nil)
		if r := e.postForm("/"+id+"/utr", url.Values{"utr": {"444444444444"}}, nil); r.status != 303 {
			t.Fatalf("payer's utr: %d %s", r.status, r.raw)
		}

		for _, spelled := range []string{"444444444444", " 444444444444 "} {
			r := e.must(e.upload(other.token, map[string]string{"amount": "300.00", "utr_number": spelled, "payment_method": "upi"}), 409)
			if r.str("error") != "utr_taken" {
				t.Fatalf("balance request with the payment's UTR %q: %s", spelled, r.raw)
			}
		}

		r := e.curlPost("/"+id+"/utr", url.Values{"utr": {"555555555555"}})
		if r.status != 403 || !strings.Contains(r.raw, `"error":"cross_site_request"`) {
			t.Fatalf("script's post: %d %s", r.status, r.raw)
		}
		for _, path := range []string{"/pay", "/fail"} {
			if r := e.curlPost("/"+id+path, nil); r.status != 403 {
				t.Fatalf("script's post to %s: %d", path, r.status)
			}
		}
		// From the page itself: one UTR per payment.
		r = e.postForm("/"+id+"/utr", url.Values{"utr": {"555555555555"}}, nil)
		if r.status != 409 || !strings.Contains(r.raw, "ask the merchant to correct it") || strings.Contains(r.raw, `name="utr"`) {
			t.Fatalf("second utr from the page: %d %s", r.status, r.raw)
		}
		if r := e.postForm("/"+id+"/utr", url.Values{"utr": {"444444444444"}}, nil); r.status != 303 {
			t.Fatalf("same utr again: %d", r.status)
		}
		if d := e.paymentData(merchant, id); d["utr"] != "444444444444" || d["status"] != "pending" {
			t.Fatalf("payment after the attack: %v", d)
		}

		st := e.must(e.importStatement(e.admin, "s.csv", statementOf("444444444444", "300.00"), nil), 201)
		if st.body["matched"] != 1.0 {
			t.Fatalf("import: %s", st.raw)
		}
		if d := e.paymentData(merchant, id); d["status"] != "success" {
			t.Fatalf("payment after the statement: %v", d)
		}
		if b := e.balance(merchant); b != "300.00" {
			t.Errorf("merchant balance %s, want 300.00", b)
		}
		if b := e.balance(other); b != "500.00" {
			t.Errorf("other user's balance %s, want 500.00", b)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/balance-requests", other.token, nil), 200); l.body["meta"].(map[string]any)["total"] != 0.0 {
			t.Errorf("other user's balance requests: %s", l.raw)
		}
	})
}

// TestUTRClaimedOnceUnderRace: a payer's UTR on the checkout page and a
// balance request with the same UTR, sent at once, many times: exactly one
// of the two wins each time, and the loser changed nothing.
func TestUTRClaimedOnceUnderRace(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.useUPIDirect()
		merchant := e.newCustomer("user", "starter", "0.00")
		payer := e.newCustomer("user", "starter", "0.00")
		paymentWins, requestWins := 0, 0
		for round := range 8 {
			id := e.createPayment(merchant, "10.00")
			e.page("GET", "/"+id, nil)
			utr := newUTR()
			var page, req resp
			var wg sync.WaitGroup
			wg.Add(2)
			go func() {
				defer wg.Done()
				page = e.postForm("/"+id+"/utr", url.Values{"utr": {utr}}, nil)
			}()
			go func() {
				defer wg.Done()
				req = e.upload(payer.token, map[string]string{"amount": "10.00", "utr_number": utr, "payment_method": "upi"})
			}()
			wg.Wait()
			got := e.paymentData(merchant, id)["utr"]
			switch {
			case page.status == 303 && req.status == 409 && got == utr:
				paymentWins++
			case page.status == 409 && req.status == 201 && got == nil:
				requestWins++
			default:
				t.Fatalf("round %d: page %d, balance request %d %s, payment's utr %v", round, page.status, req.status, req.raw, got)
			}
		}
		t.Logf("payment won %d, balance request won %d", paymentWins, requestWins)
	})
}

// TestAdminCorrectsAPaymentsUTR: a payer who mistyped asks the merchant; an
// admin replaces the UTR (reason required, audited); the old UTR is free
// again, the new one claimed; a UTR a balance request holds is refused.
func TestAdminCorrectsAPaymentsUTR(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.useUPIDirect()
		merchant := e.newCustomer("user", "starter", "0.00")
		payer := e.newCustomer("user", "starter", "0.00")
		id := e.createPayment(merchant, "250.00")
		e.page("GET", "/"+id, nil)
		typo, right, held := newUTR(), newUTR(), newUTR()
		if r := e.postForm("/"+id+"/utr", url.Values{"utr": {typo}}, nil); r.status != 303 {
			t.Fatalf("utr: %d", r.status)
		}
		e.must(e.upload(payer.token, map[string]string{"amount": "5.00", "utr_number": held, "payment_method": "upi"}), 201)

		path := "/api/v1/panel/payments/" + id + "/utr"
		e.must(e.do("PUT", path, merchant.token, map[string]any{"utr": right, "reason": "typo"}), 403)
		e.must422(e.do("PUT", path, e.admin, map[string]any{"utr": right, "reason": " "}), "reason")
		e.must422(e.do("PUT", path, e.admin, map[string]any{"utr": "12345", "reason": "typo"}), "utr")
		if r := e.must(e.do("PUT", path, e.admin, map[string]any{"utr": held, "reason": "typo"}), 409); r.str("error") != "utr_taken" {
			t.Fatalf("correction to a balance request's UTR: %s", r.raw)
		}
		e.must(e.do("PUT", "/api/v1/panel/payments/pay_01UNKNOWN/utr", e.admin, map[string]any{"utr": right, "reason": "typo"}), 404)

		r := e.must(e.do("PUT", path, e.admin, map[string]any{"utr": right, "reason": "payer sent a screenshot of the right UTR"}), 200)
		if r.str("utr") != right || r.str("status") != "pending" {
			t.Fatalf("corrected: %s", r.raw)
		}
		// The typo is free again; the right UTR is claimed.
		e.must(e.upload(payer.token, map[string]string{"amount": "5.00", "utr_number": typo, "payment_method": "upi"}), 201)
		e.must(e.upload(payer.token, map[string]string{"amount": "5.00", "utr_number": right, "payment_method": "upi"}), 409)

		a := e.must(e.do("GET", "/api/v1/panel/audit-logs?action=payment.utr_correct", e.admin, nil), 200)
		list := a.body["data"].([]any)
		if len(list) != 1 {
			t.Fatalf("audit: %s", a.raw)
		}
		entry := list[0].(map[string]any)
		before, after := entry["before"].(map[string]any), entry["after"].(map[string]any)
		if entry["target_type"] != "payment" || before["utr"] != typo || after["utr"] != right ||
			after["reason"] != "payer sent a screenshot of the right UTR" {
			t.Fatalf("audit entry: %v", entry)
		}

		// The statement line of the right UTR completes the payment.
		e.must(e.importStatement(e.admin, "s.csv", statementOf(right, "250.00"), nil), 201)
		if d := e.paymentData(merchant, id); d["status"] != "success" {
			t.Fatalf("after the statement: %v", d)
		}
	})
}
