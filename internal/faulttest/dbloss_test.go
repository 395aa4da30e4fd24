package faulttest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/internal/dburl"
	"paygate/internal/mariadbproc/mariadbproctest"
)

// faultDBFlags are the private mariadbd's settings: small, the test
// writes little.
var faultDBFlags = []string{"--skip-log-bin", "--innodb-buffer-pool-size=32M", "--max-connections=300"}

// execOn runs one statement on the server of serverURL.
func execOn(t *testing.T, serverURL, query string) {
	t.Helper()
	db, err := dburl.OpenServer(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), query); err != nil {
		t.Fatal(err)
	}
}

// TestDatabaseLossMidLoad: the server's MariaDB is killed while calls
// flow and started again a few seconds later. During the outage every
// call answers 503 service_unavailable (never a bare 500, never a
// success); once the database is back calls succeed again, every charge
// has its hit log, calls whose settlement could not be written (after
// their answer, retried for half the recovery grace) are refunded by the
// recovery worker, and the ledger check is clean.
func TestDatabaseLossMidLoad(t *testing.T) {
	// A mariadbd of this test alone: killing it disturbs no other test.
	m := mariadbproctest.Start(t, faultDBFlags...)
	execOn(t, m.URL(), "CREATE DATABASE paygate CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
	dbURL := m.URL() + "paygate"
	env := baseEnv(t, dbURL)
	up := slowUpstream(t, 50*time.Millisecond)
	srv := startServer(t, env)
	admin := login(t, srv.base, adminEmail, adminPassword)
	setupService(admin, "echo", up, "1.00")
	userID, k := newCustomer(admin, "100000.00", 10_000_000)

	// phase: 0 before the outage, 1 while the database is dead, 2 from
	// the moment it is being restarted (a call may then succeed).
	var phase atomic.Int32
	var mu sync.Mutex
	counts := map[string]int{}
	var unexpected, answered []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				startPhase := phase.Load()
				r := call(srv.base, k, "echo")
				endPhase := phase.Load()
				mu.Lock()
				switch {
				case r.status == 200:
					counts["200"]++
					answered = append(answered, r.requestID)
					if startPhase == 1 && endPhase == 1 {
						unexpected = append(unexpected, "a call started and ended during the outage succeeded")
					}
				case r.status == 503 && r.code == "service_unavailable":
					counts["503"]++
				default:
					unexpected = append(unexpected, fmt.Sprintf("%d %s", r.status, strings.TrimSpace(r.body)))
				}
				mu.Unlock()
				if r.status != 200 {
					time.Sleep(20 * time.Millisecond)
				}
			}
		}()
	}
	time.Sleep(time.Second)
	phase.Store(1)
	m.Kill()
	time.Sleep(3 * time.Second)
	phase.Store(2)
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	okBefore := counts["200"]
	mu.Unlock()
	// Calls succeed again once the pool has reconnected.
	if !waitFor(30*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return counts["200"] > okBefore+20 }) {
		t.Fatalf("calls did not recover after the database came back: %v\n%s", counts, srv.logs())
	}
	close(stop)
	wg.Wait()
	if len(unexpected) > 0 {
		t.Fatalf("%d unexpected answers (of %v), first: %s", len(unexpected), counts, unexpected[0])
	}
	if counts["503"] == 0 {
		t.Fatalf("no 503 during a 3 s outage: %v", counts)
	}

	s := openStore(t, dbURL)
	if !waitFor(30*time.Second, func() bool { return countHits(t, s)["pending"] == 0 }) {
		t.Fatalf("hits still pending after the outage: %v", countHits(t, s))
	}
	// A call answered 200 has its hit and charge written after its answer,
	// retried while the database was away (for up to 30 s); one whose
	// settlement the outage kept from committing within its retry window
	// was refunded by recovery ("interrupted"): never charged without its
	// hit log, at worst not charged at all.
	var hits map[string]int64
	var interrupted int64
	if !waitFor(30*time.Second, func() bool {
		hits = countHits(t, s)
		interrupted = countInterrupted(t, s)
		return hits["success"]+interrupted >= int64(counts["200"])
	}) {
		t.Fatalf("%d successful and %d interrupted hits for %d calls answered 200", hits["success"], interrupted, counts["200"])
	}
	// Call by call: every call answered 200 is charged, or refunded as
	// interrupted when its settlement gave up; nothing unanswered is
	// charged (every call got an answer); the money is the successful
	// calls' at 1.00 each.
	states := chargedExactly(t, hitsByStatus(t, s), answered, 0, "interrupted")
	var balance string
	s.DB().Raw("SELECT balance FROM users WHERE id = ?", userID).Scan(&balance)
	if want := decimal.NewFromInt(100000 - hits["success"]); !decimal.RequireFromString(balance).Equal(want) {
		t.Fatalf("balance %s, want %s (100000.00 less %d successful calls)", balance, want.StringFixed(2), hits["success"])
	}
	ledgerClean(t, env)
	t.Logf("answers %v, hits %v, answered calls refunded as interrupted %d", counts, hits, states["interrupted"])
}
