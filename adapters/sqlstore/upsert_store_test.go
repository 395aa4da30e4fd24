package sqlstore_test

import (
	"strings"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/internal/testdb"
)

// The store reads the syntax of the server it opened, and the usage
// roll-up's upsert runs there (on MariaDB: VALUES(), which it keeps).
func TestStoreUpsertsWithItsServersSyntax(t *testing.T) {
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		version, syntax := s.UpsertSyntax()
		want := "excluded"
		switch {
		case s.Dialect() == sqlstore.DialectSQLite:
		case strings.Contains(strings.ToLower(version), "mariadb"):
			want = "values"
		default:
			want = "alias" // the MySQL 8 this would run on
		}
		if syntax != want {
			t.Fatalf("server %q: syntax %s, want %s", version, syntax, want)
		}
		now := time.Now()
		for range 2 {
			if err := s.AddUsage(7, 8, now); err != nil {
				t.Fatal(err)
			}
		}
		var calls int
		if err := s.DB().Raw("SELECT calls FROM hit_usage_hours WHERE user_id = 7 AND api_service_id = 8").Scan(&calls).Error; err != nil || calls != 2 {
			t.Fatalf("calls %d, want 2 (inserted, then added to), %v", calls, err)
		}
	})
}
