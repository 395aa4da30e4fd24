package mariadbproc_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"paygate/internal/dburl"
	"paygate/internal/mariadbproc"
	"paygate/internal/mariadbproc/mariadbproctest"
)

func open(t *testing.T, s *mariadbproc.Server) *sql.DB {
	t.Helper()
	db, err := dburl.OpenServer(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxIdleConns(0) // no stale connection across the restart
	t.Cleanup(func() { db.Close() })
	return db
}

// TestServerLifecycle: the server answers with the caller's flags, keeps
// a committed row across a SIGKILL and a restart on the same folder,
// stops cleanly, and Close removes its folder.
func TestServerLifecycle(t *testing.T) {
	ctx := context.Background()
	s := mariadbproctest.Start(t, "--innodb-buffer-pool-size=32M", "--max-connections=37")
	if s.PID() <= 0 || s.URL() != "mysql://root@"+s.Addr()+"/" {
		t.Fatalf("pid %d, url %s", s.PID(), s.URL())
	}
	if comm, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(s.PID()), "comm")); err == nil && strings.TrimSpace(string(comm)) != "mariadbd" {
		t.Fatalf("PID %d is %q", s.PID(), comm)
	}
	db := open(t, s)
	var maxConns int
	if err := db.QueryRowContext(ctx, "SELECT @@max_connections").Scan(&maxConns); err != nil || maxConns != 37 {
		t.Fatalf("max_connections %d, %v", maxConns, err)
	}
	for _, q := range []string{"CREATE DATABASE t", "CREATE TABLE t.kept (v INT) ENGINE=InnoDB", "INSERT INTO t.kept VALUES (42)"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	s.Kill()
	if s.PID() != 0 {
		t.Fatalf("pid %d after Kill", s.PID())
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var v int
	if err := db.QueryRowContext(ctx, "SELECT v FROM t.kept").Scan(&v); err != nil || v != 42 {
		t.Fatalf("after the restart: %d, %v", v, err)
	}

	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := db.PingContext(ctx); err == nil {
		t.Fatal("the server answers after Stop")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Dir()); !os.IsNotExist(err) {
		t.Fatalf("folder %s still there: %v", s.Dir(), err)
	}
}
