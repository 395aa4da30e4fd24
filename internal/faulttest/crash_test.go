package faulttest

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/internal/testdb"
)

// TestCrashMidLoadIsRecovered: with every call reserved before its
// upstream call (METERING_HOLDS=off), the server is killed (SIGKILL) while
// metered calls wait on a slow upstream, so their charges stay reserved
// and their hits pending. Two instances then start together on the same
// MariaDB database: their recovery (at start-up and in the worker)
// refunds every interrupted call exactly once (hit failed, "interrupted"),
// leaves the settled ones alone, and the ledger check is clean.
func TestCrashMidLoadIsRecovered(t *testing.T) {
	dbURL := testdb.MySQLURL(t)
	env := append(baseEnv(t, dbURL), "METERING_HOLDS=off")
	up := slowUpstream(t, 400*time.Millisecond)
	a := startServer(t, env)
	admin := login(t, a.base, adminEmail, adminPassword)
	setupService(admin, "slow", up, "1.00")
	userID, k := newCustomer(admin, "1000.00", 1_000_000)

	answered := killMidLoad(t, a, k, "slow", 32)
	ok200 := int64(len(answered))

	s := openStore(t, dbURL)
	before := countHits(t, s)
	pending := before["pending"]
	if pending == 0 || ok200 == 0 {
		t.Fatalf("at the crash: %d pending hits, %d answered calls; the test needs both", pending, ok200)
	}
	// A call answered 200 is settled or, when the kill came between its
	// answer and its settlement's commit, still pending (refunded below);
	// a settled call's answer may have been cut off by the kill.
	success := before["success"]
	if success+pending < ok200 || success > ok200+32 {
		t.Fatalf("%d successful and %d pending hits for %d calls answered 200", success, pending, ok200)
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
	interrupted = countInterrupted(t, s)
	s.DB().Raw("SELECT COUNT(*) FROM transactions WHERE type = 'refund' AND reference_type = 'api_hit'").Scan(&refunds)
	if interrupted != pending || refunds != pending {
		t.Fatalf("%d pending hits at the crash: %d marked interrupted, %d refunds (exactly once each)", pending, interrupted, refunds)
	}
	var balance string
	s.DB().Raw("SELECT balance FROM users WHERE id = ?", userID).Scan(&balance)
	if want := decimal.NewFromInt(1000 - success); !decimal.RequireFromString(balance).Equal(want) {
		t.Fatalf("balance %s, want %s (1000.00 less %d successful calls)", balance, want.StringFixed(2), success)
	}
	// Call by call: an answered call is charged, or (its settlement not
	// written before the kill) refunded by recovery as interrupted.
	states := chargedExactly(t, hitsByStatus(t, s), answered, 32, "interrupted")
	t.Logf("%d calls answered 200: %d refunded as interrupted, the rest charged", ok200, states["interrupted"])
	ledgerClean(t, env)
	for _, p := range []*proc{b, c} {
		if r := call(p.base, k, "slow"); r.status != 200 {
			t.Fatalf("call after the recovery: %d %s", r.status, r.body)
		}
	}
}

// TestCrashMidLoadReleasesHolds: calls run on holds (the default). The
// server is killed (SIGKILL) while metered calls wait on a slow upstream,
// so holds stay open with money and daily calls set aside. Two instances
// then start together on the same database: their recovery releases every
// hold exactly once, after its expiry and HIT_RECOVERY_AFTER. No call is
// charged without its hit log (a call answered 200 just before the kill
// may have neither: it was not charged), the money held and the daily
// calls not made come back, and the ledger check is clean.
func TestCrashMidLoadReleasesHolds(t *testing.T) {
	dbURL := testdb.MySQLURL(t)
	env := baseEnv(t, dbURL)
	up := slowUpstream(t, 400*time.Millisecond)
	a := startServer(t, env)
	admin := login(t, a.base, adminEmail, adminPassword)
	setupService(admin, "slow", up, "1.00")
	userID, k := newCustomer(admin, "1000.00", 1_000_000)

	const workers = 32
	answered := killMidLoad(t, a, k, "slow", workers)
	ok200 := int64(len(answered))

	s := openStore(t, dbURL)
	var holds int64
	var held string
	s.DB().Raw("SELECT COUNT(*) FROM call_holds").Scan(&holds)
	s.DB().Raw("SELECT held_amount FROM users WHERE id = ?", userID).Scan(&held)
	before := countHits(t, s)
	success := before["success"]
	if holds == 0 || decimal.RequireFromString(held).IsZero() || ok200 == 0 {
		t.Fatalf("at the crash: %d open holds holding %s, %d answered calls; the test needs all", holds, held, ok200)
	}
	// A call's hit and charge are written after its answer; the kill may
	// cut off answers and unwritten charges of the calls in flight.
	if before["pending"] != 0 || success > ok200+workers || success < ok200-workers {
		t.Fatalf("hits %v for %d calls answered 200", before, ok200)
	}

	// Two instances start together after the crash and race to recover.
	b := startServer(t, env)
	c := startServer(t, env)
	if !waitFor(30*time.Second, func() bool {
		s.DB().Raw("SELECT COUNT(*) FROM call_holds").Scan(&holds)
		return holds == 0
	}) {
		t.Fatalf("%d holds still open 30 s after the restart\n%s", holds, b.logs())
	}
	after := countHits(t, s)
	if after["success"] != success || after["failed"] != before["failed"] {
		t.Fatalf("hits before recovery %v, after %v", before, after)
	}
	var balance string
	var hitsToday int64
	s.DB().Raw("SELECT balance, held_amount FROM users WHERE id = ?", userID).Row().Scan(&balance, &held)
	s.DB().Raw("SELECT hits_today FROM api_keys WHERE `key` = ?", k.key).Scan(&hitsToday)
	if want := decimal.NewFromInt(1000 - success); !decimal.RequireFromString(balance).Equal(want) || !decimal.RequireFromString(held).IsZero() {
		t.Fatalf("balance %s held %s, want %s held 0 (1000.00 less %d successful calls)", balance, held, want.StringFixed(2), success)
	}
	if hitsToday != after["success"]+after["failed"] {
		t.Fatalf("the key counts %d calls today, its hit log %v", hitsToday, after)
	}
	// Call by call: an answered call is charged, or (the kill came before
	// its capture was written: decisions, "Every answered call is
	// charged") has no hit at all.
	states := chargedExactly(t, hitsByStatus(t, s), answered, workers, "none")
	t.Logf("%d calls answered 200: %d in the crash's capture window, the rest charged", ok200, states["none"])
	ledgerClean(t, env)
	for _, p := range []*proc{b, c} {
		if r := call(p.base, k, "slow"); r.status != 200 {
			t.Fatalf("call after the recovery: %d %s", r.status, r.body)
		}
	}
}

// killMidLoad runs workers goroutines calling slug back to back on a,
// kills a (SIGKILL) 1.5 s in, and returns the request ids of the calls
// answered 200; any other answer before the kill fails the test.
func killMidLoad(t *testing.T, a *proc, k key, slug string, workers int) []string {
	t.Helper()
	var other atomic.Int64
	var mu sync.Mutex
	var ok200 []string
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				r := call(a.base, k, slug)
				switch r.status {
				case 0:
					return // the server is gone
				case 200:
					mu.Lock()
					ok200 = append(ok200, r.requestID)
					mu.Unlock()
				default:
					other.Add(1)
					t.Errorf("call before the crash: %d %s", r.status, r.body)
				}
			}
		})
	}
	time.Sleep(1500 * time.Millisecond)
	a.kill()
	wg.Wait()
	if other.Load() > 0 {
		t.FailNow()
	}
	return ok200
}
