package testdb

import (
	"context"
	"testing"

	"paygate/adapters/sqlstore"
)

func TestEachRunsBothDialects(t *testing.T) {
	var seen []string
	Each(t, func(t *testing.T, s *sqlstore.Store) {
		if !s.DB().Migrator().HasTable("users") {
			t.Fatalf("%s store is not migrated", s.Dialect())
		}
		seen = append(seen, s.Dialect())
	})
	if len(seen) == 0 || seen[0] != sqlstore.DialectSQLite {
		t.Fatalf("dialects seen: %v", seen)
	}
}

func TestMySQLURLIsAFreshDatabaseDroppedAtCleanup(t *testing.T) {
	var url, name string
	t.Run("inner", func(t *testing.T) {
		url = MySQLURL(t)
		s, err := sqlstore.Open(context.Background(), url, nil)
		if err != nil {
			t.Fatalf("open %s: %v", url, err)
		}
		defer s.Close()
		if err := s.DB().Raw("SELECT DATABASE()").Scan(&name).Error; err != nil {
			t.Fatal(err)
		}
		var tables int64
		s.DB().Raw("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()").Scan(&tables)
		if tables != 0 {
			t.Fatalf("MySQLURL's database has %d tables, want an empty database", tables)
		}
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("migrate: %v", err)
		}
	})
	if name == "" {
		t.Skip("MySQL not reachable")
	}
	admin := adminStore(t, serverURL())
	var left int64
	admin.DB().Raw("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?", name).Scan(&left)
	if left != 0 {
		t.Fatalf("database %s was not dropped", name)
	}
}

func TestUnreachableServerSkipsOutsideCI(t *testing.T) {
	t.Setenv("TEST_MYSQL_URL", "mysql://root@127.0.0.1:1/?timeout=1s")
	t.Setenv("CI", "")
	t.Setenv("REQUIRE_MYSQL", "")
	var skipped bool
	t.Run("inner", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		OpenMySQL(t)
	})
	if !skipped {
		t.Fatal("an unreachable server did not skip the test")
	}
}

func TestMySQLRequired(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"CI": "true"}, true},
		{map[string]string{"CI": "false"}, false},
		{map[string]string{"REQUIRE_MYSQL": "1"}, true},
	} {
		if got := MySQLRequired(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("MySQLRequired(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}

// TESTDB_ONLY runs one database's half: Each's other subtest is skipped.
func TestOnlyRunsOneDatabase(t *testing.T) {
	for _, db := range []string{"sqlite", "mysql"} {
		t.Run(db, func(t *testing.T) {
			t.Setenv("TESTDB_ONLY", db)
			ran := map[string]bool{}
			t.Run("each", func(t *testing.T) {
				Each(t, func(t *testing.T, s *sqlstore.Store) { ran[s.Dialect()] = true })
			})
			if len(ran) != 1 || !ran[db] { // the dialects are named as TESTDB_ONLY's values
				t.Fatalf("TESTDB_ONLY=%s ran %v", db, ran)
			}
		})
	}
}
