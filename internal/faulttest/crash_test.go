package faulttest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/internal/testdb"
)

// TestCrashMidLoadIsRecovered: the server is killed (SIGKILL) while
// metered calls wait on a slow upstream, so their charges stay reserved
// and their hits pending. Two instances then start together on the same
// MariaDB database: their recovery (at start-up and in the worker)
// refunds every interrupted call exactly once (hit failed, "interrupted"),
// leaves the settled ones alone, and the ledger check is clean.
func TestCrashMidLoadIsRecovered(t *testing.T) {
	dbURL := testdb.MySQLURL(t)
	env := baseEnv(t, dbURL)
	up := slowUpstream(t, 400*time.Millisecond)
	a := startServer(t, env)
	admin := login(t, a.base, adminEmail, adminPassword)
	setupService(admin, "slow", up, "1.00")
	userID, k := newCustomer(admin, "1000.00", 1_000_000)

	var ok200, other atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				r := call(a.base, k, "slow")
				switch r.status {
				case 0:
					return // the server is gone
				case 200:
					ok200.Add(1)
				default:
					other.Add(1)
					t.Errorf("call before the crash: %d %s", r.status, r.body)
				}
			}
		}()
	}
	time.Sleep(1500 * time.Millisecond)
	a.kill()
	wg.Wait()
	if other.Load() > 0 {
		t.FailNow()
	}

	s := openStore(t, dbURL)
	before := countHits(t, s)
	pending := before["pending"]
	if pending == 0 || ok200.Load() == 0 {
		t.Fatalf("at the crash: %d pending hits, %d answered calls; the test needs both", pending, ok200.Load())
	}
	// A call answered 200 is settled or, when the kill came between its
	// answer and its settlement's commit, still pending (refunded below);
	// a settled call's answer may have been cut off by the kill.
	success := before["success"]
	if success+pending < ok200.Load() || success > ok200.Load()+32 {
		t.Fatalf("%d successful and %d pending hits for %d calls answered 200", success, pending, ok200.Load())
	}

	// Two instances start together after the crash and race to recover.
	b := startServer(t, env)
	c := startServer(t, env)
	if !waitFor(30*time.Second, func() bool { return countHits(t, s)["pending"] == 0 }) {
		t.Fatalf("hits still pending 30 s after the restart: %v\n%s", countHits(t, s), b.logs())
	}
	after := countHits(t, s)
	if after["success"] != success || after["failed"] != before["failed"]+pending {
		t.Fatalf("hits before recovery %v, after %v", before, after)
	}
	var interrupted, refunds int64
	s.DB().Raw("SELECT COUNT(*) FROM api_hit_logs WHERE status = 'failed' AND response_payload LIKE '%interrupted%'").Scan(&interrupted)
	s.DB().Raw("SELECT COUNT(*) FROM transactions WHERE type = 'refund' AND reference_type = 'api_hit'").Scan(&refunds)
	if interrupted != pending || refunds != pending {
		t.Fatalf("%d pending hits at the crash: %d marked interrupted, %d refunds (exactly once each)", pending, interrupted, refunds)
	}
	var balance string
	s.DB().Raw("SELECT balance FROM users WHERE id = ?", userID).Scan(&balance)
	if want := decimal.NewFromInt(1000 - success); !decimal.RequireFromString(balance).Equal(want) {
		t.Fatalf("balance %s, want %s (1000.00 less %d successful calls)", balance, want.StringFixed(2), success)
	}
	ledgerClean(t, env)
	for _, p := range []*proc{b, c} {
		if r := call(p.base, k, "slow"); r.status != 200 {
			t.Fatalf("call after the recovery: %d %s", r.status, r.body)
		}
	}
}
