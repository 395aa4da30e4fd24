package faulttest

import (
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"paygate/internal/testdb"
)

// TestSIGTERMDrainsManyCalls: 40 metered calls are waiting on a slow
// upstream when the server process gets SIGTERM. Every one completes with
// 200 and is charged with its hit log success; the server then exits 0;
// no hit is left pending and the ledger check is clean.
func TestSIGTERMDrainsManyCalls(t *testing.T) {
	const calls = 40
	var entered atomic.Int64
	release := make(chan struct{})
	upSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered.Add(1)
		<-release
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"done":true}`)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go upSrv.Serve(ln)
	t.Cleanup(func() { upSrv.Close() })

	dbURL := testdb.MySQLURL(t)
	env := append(baseEnv(t, dbURL), "UPSTREAM_TIMEOUT=10s", "HIT_RECOVERY_AFTER=60s")
	srv := startServer(t, env)
	admin := login(t, srv.base, adminEmail, adminPassword)
	setupService(admin, "slow", "http://"+ln.Addr().String()+"/x", "1.00")
	userID, k := newCustomer(admin, "100.00", 1000)

	results := make(chan callResult, calls)
	var wg sync.WaitGroup
	for range calls {
		wg.Add(1)
		go func() { defer wg.Done(); results <- call(srv.base, k, "slow") }()
	}
	if !waitFor(20*time.Second, func() bool { return entered.Load() == calls }) {
		t.Fatalf("%d of %d calls reached the upstream", entered.Load(), calls)
	}
	srv.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-srv.exited:
		t.Fatalf("server exited with %d calls in flight: %v\n%s", calls, srv.err, srv.logs())
	case <-time.After(500 * time.Millisecond):
	}
	close(release)
	wg.Wait()
	close(results)
	for r := range results {
		if r.status != 200 {
			t.Errorf("in-flight call: %d %s", r.status, r.body)
		}
	}
	select {
	case <-srv.exited:
		if srv.err != nil {
			t.Fatalf("server exit after SIGTERM: %v\n%s", srv.err, srv.logs())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server still running 30 s after SIGTERM with its calls done")
	}
	s := openStore(t, dbURL)
	if hits := countHits(t, s); hits["success"] != calls || hits["pending"] != 0 || hits["failed"] != 0 {
		t.Fatalf("hits %v, want %d successful", hits, calls)
	}
	var balance string
	s.DB().Raw("SELECT balance FROM users WHERE id = ?", userID).Scan(&balance)
	if balance != "60.00" {
		t.Fatalf("balance %s, want 60.00 (100.00 less %d calls)", balance, calls)
	}
	ledgerClean(t, env)
}
