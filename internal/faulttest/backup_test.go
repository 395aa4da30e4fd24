package faulttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBackupUnderLoad: `server backup` copies a running SQLite database
// while metered calls write to it. Each copy opens as a database of its own
// whose ledger check is clean (every balance equals its ledger, every
// settled call charged once), and it holds the calls settled before it.
func TestBackupUnderLoad(t *testing.T) {
	dir := t.TempDir()
	dbURL := "sqlite://" + filepath.Join(dir, "live.db")
	env := baseEnv(t, dbURL)
	up := slowUpstream(t, 0)
	a := startServer(t, env)
	admin := login(t, a.base, adminEmail, adminPassword)
	setupService(admin, "fast", up, "1.00")
	_, k := newCustomer(admin, "100000.00", 1_000_000)

	var ok atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r := call(a.base, k, "fast"); r.status == 200 {
					ok.Add(1)
				}
			}
		}()
	}
	waitFor(30*time.Second, func() bool { return ok.Load() >= 200 })
	// Answered calls are written a moment later (holds' captures): the
	// copies are taken once settled calls are in the live database.
	live := openStore(t, dbURL)
	if !waitFor(30*time.Second, func() bool { return countHits(t, live)["success"] >= 100 }) {
		t.Fatalf("no settled calls in the live database after 30 s: %v", countHits(t, live))
	}

	var copies []string
	for i := range 3 {
		path := filepath.Join(dir, "copy"+strconv.Itoa(i)+".db")
		out, err := serverCommand(t, env, "backup", path).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "backup: wrote") {
			t.Fatalf("backup %d: %v\n%s", i, err, out)
		}
		copies = append(copies, path)
		time.Sleep(300 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if ok.Load() < 200 {
		t.Fatalf("only %d calls succeeded during the backups; the test needs load", ok.Load())
	}

	// The command refuses to overwrite a file.
	if out, err := serverCommand(t, env, "backup", copies[0]).CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "exists") {
		t.Fatalf("backup over an existing file: %v\n%s", err, out)
	}

	for i, path := range copies {
		if _, err := os.Stat(path + ".partial"); !os.IsNotExist(err) {
			t.Errorf("copy %d left its .partial file behind", i)
		}
		copyEnv := baseEnv(t, "sqlite://"+path)
		ledgerClean(t, copyEnv)
		s := openStore(t, "sqlite://"+path)
		if n := countHits(t, s)["success"]; n == 0 {
			t.Errorf("copy %d holds no settled calls: %v", i, countHits(t, s))
		}
	}
}

// serverCommand is the binary running an operator command with env.
func serverCommand(t *testing.T, env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(serverBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}
