// Package mariadbproctest starts a private mariadbd for a test: without
// the MariaDB binaries the test is skipped, except in CI (CI=true) or
// when asked (REQUIRE_MYSQL=1), where it fails.
package mariadbproctest

import (
	"context"
	"errors"
	"os"
	"testing"

	"paygate/internal/mariadbproc"
	"paygate/internal/testdb"
)

// Start starts a mariadbd with flags (mariadbproc.New) that is killed and
// removed when the test ends.
func Start(t testing.TB, flags ...string) *mariadbproc.Server {
	t.Helper()
	s, err := mariadbproc.New(context.Background(), flags...)
	if errors.Is(err, mariadbproc.ErrNotInstalled) && !testdb.MySQLRequired(os.Getenv) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
