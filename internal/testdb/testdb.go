// Package testdb gives tests a fresh, migrated database: a SQLite file in the
// test's temporary folder, or a new database on the MariaDB/MySQL server
// named by TEST_MYSQL_URL (default mysql://root@127.0.0.1:3306/), dropped
// when the test ends.
//
// When the server cannot be reached, MySQL tests are skipped with a message,
// unless CI=true or REQUIRE_MYSQL=1, where they fail.
//
// TESTDB_ONLY=sqlite or TESTDB_ONLY=mysql runs only that database's tests
// (the other's are skipped): make test runs the SQLite half of the race
// packages without the race detector, which would instrument the
// transpiled SQLite engine itself, and the MySQL half with it.
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"paygate/adapters/secretbox"
	"paygate/adapters/sqlstore"
	"paygate/internal/dburl"
)

// DefaultMySQLURL is the server used when TEST_MYSQL_URL is not set.
const DefaultMySQLURL = "mysql://root@127.0.0.1:3306/"

// Each runs fn as two subtests, "sqlite" and "mysql", each on a fresh
// migrated store.
func Each(t *testing.T, fn func(t *testing.T, s *sqlstore.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, OpenSQLite(t)) })
	t.Run("mysql", func(t *testing.T) { fn(t, OpenMySQL(t)) })
}

// OpenSQLite opens a migrated store on a new SQLite file in t.TempDir().
func OpenSQLite(t testing.TB) *sqlstore.Store {
	t.Helper()
	return openMigrated(t, SQLiteURL(t))
}

// SQLiteURL returns the sqlite:// URL of a new (not yet created) database
// file in t.TempDir().
func SQLiteURL(t testing.TB) string {
	t.Helper()
	only(t, "sqlite")
	return "sqlite://" + filepath.Join(t.TempDir(), "test.db")
}

// OpenMySQL opens a migrated store on a new database on the test server.
func OpenMySQL(t testing.TB) *sqlstore.Store {
	t.Helper()
	return openMigrated(t, MySQLURL(t))
}

// MySQLURL creates an empty database t_<random> on the test server and
// returns its mysql:// URL (for starting the real server against it, which
// migrates it). The database is dropped when the test ends.
func MySQLURL(t testing.TB) string {
	t.Helper()
	only(t, "mysql")
	serverURL := serverURL()
	admin := adminStore(t, serverURL)
	name := "t_" + randomHex(8)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := admin.DB().WithContext(ctx).
		Exec("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci").Error
	if err != nil {
		t.Fatalf("testdb: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := admin.DB().WithContext(ctx).Exec("DROP DATABASE IF EXISTS `" + name + "`").Error; err != nil {
			t.Errorf("testdb: drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatalf("testdb: TEST_MYSQL_URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// only skips t when TESTDB_ONLY names a database other than db.
func only(t testing.TB, db string) {
	t.Helper()
	if o := os.Getenv("TESTDB_ONLY"); o != "" && o != db {
		t.Skipf("TESTDB_ONLY=%s: the %s half runs in its own go test run", o, db)
	}
}

// serverURL is TEST_MYSQL_URL, or DefaultMySQLURL.
func serverURL() string {
	if u := os.Getenv("TEST_MYSQL_URL"); u != "" {
		return u
	}
	return DefaultMySQLURL
}

func openMigrated(t testing.TB, databaseURL string) *sqlstore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := sqlstore.Open(ctx, databaseURL, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("testdb: open %s: %v", dburl.Redact(databaseURL), err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("testdb: migrate %s: %v", dburl.Redact(databaseURL), err)
	}
	s.UseSealer(Sealer)
	return s
}

// Sealer seals the secrets of every store this package opens, as the
// server's stores do, under a key made for this test binary.
var Sealer = func() *secretbox.Box {
	k, err := secretbox.ParseKey(secretbox.GenerateKey())
	if err != nil {
		panic(err)
	}
	return secretbox.New(k)
}()

// The server connection that creates and drops test databases is opened
// once per test binary; an unreachable server is remembered so that every
// later test skips at once instead of waiting for a timeout again.
var (
	adminMu  sync.Mutex
	admins   = map[string]*sqlstore.Store{}
	unusable = map[string]error{}
)

func adminStore(t testing.TB, serverURL string) *sqlstore.Store {
	t.Helper()
	adminMu.Lock()
	defer adminMu.Unlock()
	if s, ok := admins[serverURL]; ok {
		return s
	}
	err, known := unusable[serverURL]
	if !known {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var s *sqlstore.Store
		s, err = sqlstore.Open(ctx, serverURL, slog.New(slog.DiscardHandler))
		if err == nil {
			admins[serverURL] = s
			return s
		}
		unusable[serverURL] = err
	}
	msg := fmt.Sprintf("testdb: MariaDB/MySQL not reachable at %s (set TEST_MYSQL_URL, or run scripts/ensure-mariadb.sh): %v",
		dburl.Redact(serverURL), err)
	if MySQLRequired(os.Getenv) {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return nil
}

// MySQLRequired reports whether a missing MySQL server (unreachable, or
// for mariadbproctest not installed) fails the test instead of skipping it:
// in CI (CI=true) or when asked (REQUIRE_MYSQL=1).
func MySQLRequired(getenv func(string) string) bool {
	return getenv("CI") == "true" || getenv("REQUIRE_MYSQL") == "1"
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b)
}
