package sqlstore_test

import (
	"context"
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/internal/testdb"
)

// eachAtVersion runs fn on a fresh SQLite and a fresh MySQL database, each
// migrated up to version only (a migration's test fills the tables as they
// were, then migrates the rest).
func eachAtVersion(t *testing.T, version int64, fn func(t *testing.T, s *sqlstore.Store)) {
	for name, url := range map[string]func(testing.TB) string{"sqlite": testdb.SQLiteURL, "mysql": testdb.MySQLURL} {
		t.Run(name, func(t *testing.T) {
			s, err := sqlstore.Open(context.Background(), url(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.MigrateTo(context.Background(), version); err != nil {
				t.Fatal(err)
			}
			fn(t, s)
		})
	}
}
