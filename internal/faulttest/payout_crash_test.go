package faulttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/internal/testdb"
)

// transfer sends one payout with the key's secret; it returns the status
// (0: no answer, the server died).
func transfer(base string, k key, ref, account, amount string) int {
	body, _ := json.Marshal(map[string]any{"beneficiary": map[string]any{"type": "bank_account", "name": "Asha Traders",
		"account_number": account, "ifsc": "HDFC0001234"}, "amount": amount, "reference_id": ref})
	req, _ := http.NewRequest("POST", base+"/api/v1/payout/transfer", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+k.secret)
	res, err := callClient.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}

// TestCrashWhilePayoutsProcessLosesNothing: payouts that succeed, fail and
// are reversed are sent from several clients; the server is killed
// (SIGKILL) while they are in flight and processing. Two instances then
// start on the same MariaDB database: every payout reaches its end state
// (success, failed, reversed; none pending or processing), the balance is
// the funding less exactly what the kept payouts cost, and the ledger
// check is clean.
func TestCrashWhilePayoutsProcessLosesNothing(t *testing.T) {
	dbURL := testdb.MySQLURL(t)
	env := baseEnv(t, dbURL)
	a := startServer(t, env)
	admin := login(t, a.base, adminEmail, adminPassword)
	userID, k := newCustomer(admin, "100000.00", 1_000_000)

	accounts := []string{"123456781234", "123456780000", "123456789999"} // success, failed, reversed
	var wg sync.WaitGroup
	var mu sync.Mutex
	answered := 0
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				s := transfer(a.base, k, fmt.Sprintf("w%d-%d", w, i), accounts[(w+i)%3], "100.00")
				if s == 0 {
					return // the server is gone
				}
				mu.Lock()
				answered++
				mu.Unlock()
			}
		}()
	}
	// Let payouts pile up in every state, then crash mid-flight.
	if !waitFor(20*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return answered >= 40 }) {
		t.Fatalf("only %d payouts answered\n%s", answered, a.logs())
	}
	a.kill()
	wg.Wait()

	s := openStore(t, dbURL)
	open := func() int64 {
		var n int64
		s.DB().Raw("SELECT COUNT(*) FROM payouts WHERE status IN ('pending', 'processing') OR (status = 'success' AND account_number LIKE '%9999')").Scan(&n)
		return n
	}
	if open() == 0 {
		t.Fatal("no payout was open at the crash: the test proves nothing")
	}
	b := startServer(t, env)
	startServer(t, env)
	if !waitFor(60*time.Second, func() bool { return open() == 0 }) {
		t.Fatalf("%d payouts still open a minute after the restart\n%s", open(), b.logs())
	}
	var rows []struct {
		Status, Amount, Fee string
	}
	s.DB().Raw("SELECT status, amount, fee FROM payouts WHERE user_id = ?", userID).Scan(&rows)
	// What the payouts cost: a success its amount and fee, a reversal its
	// fee (unless crash recovery refunded an interrupted call's fee), a
	// failure nothing.
	spent := decimal.Zero
	counts := map[string]int{}
	for _, r := range rows {
		counts[r.Status]++
		switch r.Status {
		case "success":
			spent = spent.Add(decimal.RequireFromString(r.Amount)).Add(decimal.RequireFromString(r.Fee))
		case "reversed":
			spent = spent.Add(decimal.RequireFromString(r.Fee))
		}
	}
	if counts["success"] == 0 || counts["failed"] == 0 || counts["reversed"] == 0 {
		t.Fatalf("end states %v", counts)
	}
	var refundedFees decimal.Decimal
	var interrupted []string
	s.DB().Raw("SELECT amount FROM transactions WHERE user_id = ? AND type = 'refund' AND reference_type = 'api_hit'", userID).Scan(&interrupted)
	for _, f := range interrupted {
		refundedFees = refundedFees.Add(decimal.RequireFromString(f))
	}
	var balance string
	s.DB().Raw("SELECT balance FROM users WHERE id = ?", userID).Scan(&balance)
	want := decimal.NewFromInt(100000).Sub(spent).Add(refundedFees)
	if !decimal.RequireFromString(balance).Equal(want) {
		t.Fatalf("balance %s, want %s (payouts %v, %s of fees refunded by crash recovery)", balance, want.StringFixed(2), counts, refundedFees)
	}
	ledgerClean(t, env)
}
