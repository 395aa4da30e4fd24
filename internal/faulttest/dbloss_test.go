package faulttest

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// privateMariaDB is a mariadbd of this test alone, on a temporary data
// folder and a free port: stopping it disturbs no other test.
type privateMariaDB struct {
	dir, port string
	cmd       *exec.Cmd
	exited    chan struct{}
	log       *os.File
}

// startPrivateMariaDB initialises a data folder and starts mariadbd on it.
// Without the binaries the test is skipped, except in CI (CI=true or
// REQUIRE_MYSQL=1), where it fails.
func startPrivateMariaDB(t *testing.T) *privateMariaDB {
	t.Helper()
	installDB, err1 := exec.LookPath("mariadb-install-db")
	mariadbd, err2 := exec.LookPath("mariadbd")
	if err2 != nil {
		mariadbd, err2 = exec.LookPath("/usr/sbin/mariadbd")
	}
	if err1 != nil || err2 != nil {
		msg := "mariadb-install-db or mariadbd not found (scripts/ensure-mariadb.sh installs them)"
		if os.Getenv("CI") == "true" || os.Getenv("REQUIRE_MYSQL") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	// A short path: the socket's path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "pgmdb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	args := []string{"--no-defaults", "--datadir=" + filepath.Join(dir, "data"), "--auth-root-authentication-method=normal", "--skip-test-db"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	if out, err := exec.Command(installDB, args...).CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	m := &privateMariaDB{dir: dir, port: port}
	m.start(t, mariadbd)
	t.Cleanup(m.kill)
	return m
}

func (m *privateMariaDB) start(t *testing.T, mariadbd string) {
	t.Helper()
	args := []string{"--no-defaults", "--datadir=" + filepath.Join(m.dir, "data"), "--port=" + m.port, "--bind-address=127.0.0.1",
		"--socket=" + filepath.Join(m.dir, "sock"), "--pid-file=" + filepath.Join(m.dir, "pid"), "--skip-grant-tables",
		"--skip-log-bin", "--innodb-buffer-pool-size=32M", "--max-connections=300"}
	if os.Geteuid() == 0 {
		args = append(args, "--user=root")
	}
	var err error
	if m.log, err = os.OpenFile(filepath.Join(m.dir, "log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err != nil {
		t.Fatal(err)
	}
	m.cmd = exec.Command(mariadbd, args...)
	m.cmd.Stdout, m.cmd.Stderr = m.log, m.log
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m.exited = make(chan struct{})
	go func() { m.cmd.Wait(); m.log.Close(); close(m.exited) }()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr, cfg.Timeout = "root", "tcp", "127.0.0.1:"+m.port, time.Second
	db, _ := sql.Open("mysql", cfg.FormatDSN())
	defer db.Close()
	if !waitFor(60*time.Second, func() bool { return db.Ping() == nil }) {
		b, _ := os.ReadFile(filepath.Join(m.dir, "log"))
		t.Fatalf("private mariadbd did not answer within 60 s\n%s", b)
	}
}

func (m *privateMariaDB) kill() {
	if m.cmd == nil {
		return
	}
	select {
	case <-m.exited:
	default:
		m.cmd.Process.Signal(syscall.SIGKILL)
		<-m.exited
	}
}

func (m *privateMariaDB) exec(t *testing.T, query string) {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = "root", "tcp", "127.0.0.1:"+m.port
	db, err := sql.Open("mysql", cfg.FormatDSN())
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
	m := startPrivateMariaDB(t)
	m.exec(t, "CREATE DATABASE paygate CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
	dbURL := "mysql://root@127.0.0.1:" + m.port + "/paygate"
	env := baseEnv(t, dbURL)
	up := slowUpstream(t, 50*time.Millisecond)
	srv := startServer(t, env)
	admin := login(t, srv.base, adminEmail, adminPassword)
	setupService(admin, "echo", up, "1.00")
	_, k := newCustomer(admin, "100000.00", 10_000_000)

	// phase: 0 before the outage, 1 while the database is dead, 2 from
	// the moment it is being restarted (a call may then succeed).
	var phase atomic.Int32
	var mu sync.Mutex
	counts := map[string]int{}
	var unexpected []string
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
	m.kill()
	time.Sleep(3 * time.Second)
	mariadbd, _ := exec.LookPath("mariadbd")
	if mariadbd == "" {
		mariadbd = "/usr/sbin/mariadbd"
	}
	phase.Store(2)
	m.start(t, mariadbd)
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
	// A call answered 200 whose settlement the outage kept from committing
	// within its retry window was refunded by recovery ("interrupted"):
	// never charged without its hit log, at worst not charged at all.
	hits := countHits(t, s)
	var interrupted int64
	s.DB().Raw("SELECT COUNT(*) FROM api_hit_logs WHERE status = 'failed' AND response_payload LIKE '%interrupted%'").Scan(&interrupted)
	if hits["success"]+interrupted < int64(counts["200"]) {
		t.Fatalf("%d successful and %d interrupted hits for %d calls answered 200", hits["success"], interrupted, counts["200"])
	}
	ledgerClean(t, env)
	t.Logf("answers %v, hits %v", counts, hits)
}
