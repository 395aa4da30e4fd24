package httpapi_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/core/gateway/payout"
)

func bankPayout(ref, amount, account string) map[string]any {
	return map[string]any{"beneficiary": map[string]any{"type": "bank_account", "name": "Asha Traders",
		"account_number": account, "ifsc": "HDFC0001234"}, "amount": amount, "reference_id": ref}
}

// payoutRounds moves the clock on by d and runs the payout worker once.
func (e *env) payoutRounds(d time.Duration) {
	e.t.Helper()
	e.skew.Add(int64(d))
	if _, err := e.app.Gateway.CheckPayouts(context.Background(), 100); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) payoutStatus(c customer, query string) map[string]any {
	e.t.Helper()
	return e.must(e.gw(c, "GET", "/api/v1/payout/status?"+query, nil), 200).body["data"].(map[string]any)
}

// TestPayoutLifecycle: through the real server, the sandbox's test inputs
// take payouts to success (with a UTR), failed (amount and fee back) and
// reversed (amount back, fee kept); status, lists, CSV and the quote agree,
// account numbers are masked everywhere, and the ledger check is clean.
func TestPayoutLifecycle(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "1000.00")
		// payout.* events are written (and checked against the contract when the test ends).
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": "https://hooks.example.com/payouts"}), 200)
		r := e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("ok-1", "100", "123456781234")), 200)
		d := r.body["data"].(map[string]any)
		if d["status"] != "processing" || d["fee"] != "5.0000" || r.str("charged") != "5.0000" || r.str("balance_left") != "895.00" ||
			d["livemode"] != false || d["mode"] != "IMPS" || !payout.ValidPublicID(d["payout_id"].(string)) {
			t.Fatalf("transfer: %s", r.raw)
		}
		if b := d["beneficiary"].(map[string]any); b["account_number"] != "XXXXXXXX1234" || b["ifsc"] != "HDFC0001234" || b["vpa"] != nil {
			t.Fatalf("beneficiary %v", b)
		}
		okID := d["payout_id"].(string)
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("fail-1", "50", "123456780000")), 200)
		vpa := e.must(e.gw(c, "POST", "/api/v1/payout/transfer", map[string]any{"beneficiary": map[string]any{"type": "vpa",
			"name": "Ravi", "vpa": "fail.ravi@okaxis"}, "amount": 20, "reference_id": "fail-2", "narration": "Invoice 42"}), 200)
		if vpa.body["data"].(map[string]any)["mode"] != "UPI" {
			t.Fatalf("vpa payout: %s", vpa.raw)
		}
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("rev-1", "200", "123456789999")), 200)
		if b := e.balance(c); b != "610.00" { // 1000 − 105 − 55 − 25 − 205
			t.Fatalf("balance after four payouts %s", b)
		}

		e.payoutRounds(payout.FirstCheck)
		ok := e.payoutStatus(c, "payout_id="+okID)
		if ok["status"] != "success" || !regexp.MustCompile(`^[0-9]{12}$`).MatchString(fmt.Sprint(ok["utr"])) || ok["processed_at"] == nil {
			t.Fatalf("ok payout %v", ok)
		}
		if s := e.payoutStatus(c, "reference_id=fail-1"); s["status"] != "failed" || s["fail_reason"] == nil {
			t.Fatalf("failed payout %v", s)
		}
		if s := e.payoutStatus(c, "reference_id=fail-2"); s["status"] != "failed" {
			t.Fatalf("failed vpa payout %v", s)
		}
		if s := e.payoutStatus(c, "reference_id=rev-1"); s["status"] != "success" {
			t.Fatalf("to-be-reversed payout %v", s)
		}
		e.payoutRounds(4 * payout.FirstCheck) // past the sandbox's reversal delay and the backoff
		if s := e.payoutStatus(c, "reference_id=rev-1"); s["status"] != "reversed" || s["reversed_at"] == nil {
			t.Fatalf("reversed payout %v", s)
		}
		// The metrics count each payout once per state it entered: four
		// created and accepted, then two successes (one reversed) and two failures.
		m := e.scrape()
		for state, n := range map[string]float64{"pending": 4, "processing": 4, "success": 2, "failed": 2, "reversed": 1} {
			wantSample(t, m, `paygate_payouts_total{state="`+state+`"}`, n)
		}
		// 1000 − 105 (success) − 5 (reversed: fee kept); failures cost nothing.
		c.token = e.login(c.email, "user-password-1")
		if b := e.balance(c); b != "890.00" {
			t.Fatalf("balance %s", b)
		}

		// Lists: the owner's own, an admin's all; filters; the CSV masked.
		other := e.newCustomer("user", "starter", "100.00")
		e.must(e.gw(other, "POST", "/api/v1/payout/transfer", bankPayout("x-1", "10", "999988887777")), 200)
		e.must(e.gw(other, "GET", "/api/v1/payout/status?payout_id="+okID, nil), 404)
		if l := e.must(e.do("GET", "/api/v1/panel/payouts", c.token, nil), 200); l.body["meta"].(map[string]any)["total"].(float64) != 4 {
			t.Fatalf("own list %s", l.raw)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/payouts?status=failed", c.token, nil), 200); len(l.body["data"].([]any)) != 2 {
			t.Fatalf("failed list %s", l.raw)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/payouts?q="+fmt.Sprint(ok["utr"]), c.token, nil), 200); len(l.body["data"].([]any)) != 1 {
			t.Fatalf("search by UTR %s", l.raw)
		}
		if l := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/payouts?user_id=%d", other.id), e.admin, nil), 200); len(l.body["data"].([]any)) != 1 {
			t.Fatalf("admin list of one user %s", l.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/payouts/"+okID, other.token, nil), 404)
		e.must(e.do("GET", "/api/v1/panel/payouts/"+okID, e.admin, nil), 200)
		e.must(e.do("GET", "/api/v1/panel/payouts?status=lost", c.token, nil), 422)
		rows := readCSV(t, e.do("GET", "/api/v1/panel/payouts?format=csv", c.token, nil), "payouts")
		if len(rows) != 5 || rows[0][0] != "payout_id" {
			t.Fatalf("csv %v", rows)
		}
		csvText := fmt.Sprint(rows)
		if strings.Contains(csvText, "123456781234") || !strings.Contains(csvText, "XXXXXXXX1234") {
			t.Fatalf("csv not masked: %v", rows)
		}
		for _, h := range e.must(e.do("GET", "/api/v1/panel/hit-logs?per_page=100", c.token, nil), 200).body["data"].([]any) {
			if s := fmt.Sprint(h); strings.Contains(s, "123456781234") {
				t.Fatalf("hit log keeps the account number: %s", s)
			}
		}

		// The quote: fee, today's use (success 100 + reversed none), balance.
		q := e.must(e.do("GET", "/api/v1/panel/payouts/quote?amount=250.50", c.token, nil), 200)
		if q.str("fee") != "5.0000" || q.str("total") != "255.5000" || q.str("used_today") != "100.00" ||
			q.str("remaining_today") != "199900.00" || q.str("balance") != "890.00" {
			t.Fatalf("quote %s", q.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/payouts/quote?amount=abc", c.token, nil), 422)

		// Limits: admin only; an admin lowers one; the next payout past it is 422.
		e.must(e.do("GET", "/api/v1/panel/payout-limits", c.token, nil), 403)
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, map[string]any{"daily_payout_limit": "150"}), 200)
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, map[string]any{"daily_payout_limit": "-1"}), 422)
		limits := e.must(e.do("GET", "/api/v1/panel/payout-limits?per_page=100", e.admin, nil), 200)
		found := false
		for _, l := range limits.body["data"].([]any) {
			m := l.(map[string]any)
			if uint64(m["user_id"].(float64)) == c.id {
				found = m["daily_payout_limit"] == "150.00" && m["used_today"] == "100.00"
			}
		}
		if !found {
			t.Fatalf("limits %s", limits.raw)
		}
		over := e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("over-1", "50.01", "123456781234")), 422)
		if over.str("error") != "daily_payout_limit_exceeded" {
			t.Fatalf("over the limit: %s", over.raw)
		}
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("at-1", "50", "123456781234")), 200)
		e.ledgerClean()
	})
}

// TestPayoutRequestsAreCheckedAndIdempotent: nested field errors, modes,
// a retry answered from the first payout, another request with its
// reference 409.
func TestPayoutRequestsAreCheckedAndIdempotent(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "1000.00")
		bad := e.must(e.gw(c, "POST", "/api/v1/payout/transfer", map[string]any{"beneficiary": map[string]any{"type": "bank_account",
			"name": "A", "account_number": "12", "ifsc": "HDFC1234", "extra": "x"}, "amount": "0.5", "mode": "UPI", "reference_id": "r 1"}), 422)
		errsOf := bad.body["errors"].(map[string]any)
		for _, k := range []string{"beneficiary.account_number", "beneficiary.ifsc", "beneficiary.extra", "amount", "mode", "reference_id"} {
			if errsOf[k] == nil {
				t.Errorf("no error for %s: %s", k, bad.raw)
			}
		}
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", map[string]any{"beneficiary": "acct", "amount": "10", "reference_id": "r"}), 422)
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", map[string]any{"beneficiary": map[string]any{"type": "vpa", "name": "A",
			"vpa": "a@okaxis"}, "amount": "10", "mode": "NEFT", "reference_id": "r"}), 422)
		body := bankPayout("same", "10.00", "123456781234")
		first := e.must(e.gw(c, "POST", "/api/v1/payout/transfer", body), 200)
		again := e.must(e.gw(c, "POST", "/api/v1/payout/transfer", body), 200)
		if again.header.Get("Idempotent-Replayed") != "true" || again.str("charged") != "0.0000" ||
			again.body["data"].(map[string]any)["payout_id"] != first.body["data"].(map[string]any)["payout_id"] {
			t.Fatalf("retry %s", again.raw)
		}
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("same", "11.00", "123456781234")), 409)
		e.must(e.gw(c, "GET", "/api/v1/payout/status", nil), 422)
		e.must(e.gw(c, "GET", "/api/v1/payout/status?payout_id=pay_1", nil), 422)
		e.must(e.gw(c, "GET", "/api/v1/payout/status?reference_id=none", nil), 404)
		if b := e.balance(c); b != "985.00" {
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}

// TestConcurrentPayoutsNeverOverdraw: 20 payouts at once against a balance
// that pays for 9 (each 100.00 + 5.00 fee): exactly 9 accepted, the others
// 402, and the balance is exactly zero.
func TestConcurrentPayoutsNeverOverdraw(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "945.00")
		codes := parallel(20, func(i int) int {
			return e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout(fmt.Sprintf("p-%d", i), "100", "123456781234")).status
		})
		if codes[200] != 9 || codes[402] != 11 {
			t.Fatalf("answers %v", codes)
		}
		if b := e.balance(c); b != "0.00" {
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}

// TestSameReferenceTenTimesAtOnce: one payout, one debit of its amount and
// one fee, however the ten requests interleave.
func TestSameReferenceTenTimesAtOnce(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "1000.00")
		codes := parallel(10, func(int) int {
			return e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("once", "100", "123456781234")).status
		})
		if codes[200] != 10 {
			t.Fatalf("answers %v", codes)
		}
		l := e.must(e.do("GET", "/api/v1/panel/payouts", c.token, nil), 200)
		if l.body["meta"].(map[string]any)["total"].(float64) != 1 {
			t.Fatalf("payouts %s", l.raw)
		}
		if b := e.balance(c); b != "895.00" {
			t.Fatalf("balance %s", b)
		}
		e.ledgerClean()
	})
}

// TestConcurrentPayoutsKeepTheDailyLimit: a limit of 500.00 and ten
// payouts of 100.00 at once: exactly five pass.
func TestConcurrentPayoutsKeepTheDailyLimit(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "5000.00")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, map[string]any{"daily_payout_limit": "500"}), 200)
		codes := parallel(10, func(i int) int {
			return e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout(fmt.Sprintf("l-%d", i), "100", "123456781234")).status
		})
		if codes[200] != 5 || codes[422] != 5 {
			t.Fatalf("answers %v", codes)
		}
		e.ledgerClean()
	})
}

// parallel runs fn n times at once and counts the answers by status.
func parallel(n int, fn func(i int) int) map[int]int {
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s := fn(i)
			mu.Lock()
			codes[s]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return codes
}

// A beneficiary name that is a formula after a ; (a separator in some
// locales), or in fullwidth signs, reaches the admin's payouts CSV quoted
// and defused.
func TestPayoutsCSVDefusesFormulasInBeneficiaryNames(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "1000.00")
		for i, name := range []string{"Asha;=1+1", "＝1+1", "Ravi, -2+3"} {
			p := bankPayout(fmt.Sprintf("csv-%d", i), "10", "123456781234")
			p["beneficiary"].(map[string]any)["name"] = name
			e.must(e.gw(c, "POST", "/api/v1/payout/transfer", p), 200)
		}
		r := e.do("GET", "/api/v1/panel/payouts?format=csv", e.admin, nil)
		rows := readCSV(t, r, "payouts")
		col := slices.Index(rows[0], "beneficiary_name")
		if col < 0 {
			t.Fatalf("no beneficiary_name column: %v", rows[0])
		}
		var names []string
		for _, row := range rows[1:] {
			names = append(names, row[col])
		}
		slices.Sort(names)
		if want := []string{"'＝1+1", "Asha;'=1+1", "Ravi, '-2+3"}; !slices.Equal(names, want) {
			t.Fatalf("names in the CSV %q, want %q", names, want)
		}
		for _, line := range strings.Split(strings.TrimSpace(r.raw), "\n") {
			if !strings.HasPrefix(line, `"`) || !strings.HasSuffix(line, `"`) || strings.Contains(line, `";=`) {
				t.Fatalf("a line with an unquoted cell: %q", line)
			}
		}
	})
}
