package sqlstore_test

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore"
	"paygate/internal/testdb"
)

// Times are stored as "2006-01-02 15:04:05.999999999-07:00" text, the format
// the earlier driver (glebarez/go-sqlite) wrote, so a database it made keeps
// comparing and sorting its times with new rows; they read back exactly.
func TestSQLiteStoresTimesInTheEarlierDriversFormat(t *testing.T) {
	s := testdb.OpenSQLite(t)
	db := s.DB()
	at := time.Date(2026, 11, 22, 4, 5, 6, 123456000, time.UTC)
	if err := db.Exec("CREATE TABLE times (id INTEGER PRIMARY KEY, at DATETIME NOT NULL)").Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("INSERT INTO times (at) VALUES (?)", at).Error; err != nil {
		t.Fatal(err)
	}
	var text string
	if err := db.Raw("SELECT CAST(at AS TEXT) FROM times").Row().Scan(&text); err != nil {
		t.Fatal(err)
	}
	if want := "2026-11-22 04:05:06.123456+00:00"; text != want {
		t.Fatalf("stored %q, want %q", text, want)
	}
	// A row as the earlier driver wrote it reads back as the same instant.
	if err := db.Exec("INSERT INTO times (at) VALUES ('2026-11-22 04:05:06.123456+00:00')").Error; err != nil {
		t.Fatal(err)
	}
	var got []time.Time
	if err := db.Raw("SELECT at FROM times ORDER BY id").Scan(&got).Error; err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Equal(at) || !got[1].Equal(at) {
		t.Fatalf("read back %v, want %v twice", got, at)
	}
}

// GORM's statements go through the dialect: quoted identifiers (a dotted
// name quoted per part), LIMIT with OFFSET, and FOR UPDATE dropped (SQLite
// has no row locks; the transaction holds the write lock).
func TestSQLiteDialectBuildsStatementsSQLiteRuns(t *testing.T) {
	s, err := sqlstore.Open(context.Background(), "sqlite://"+filepath.Join(t.TempDir(), "d.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	db := s.DB()
	if err := db.Exec("CREATE TABLE `order` (id INTEGER PRIMARY KEY, name TEXT)").Error; err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c", "d"} {
		if err := db.Table("order").Create(map[string]any{"name": n}).Error; err != nil {
			t.Fatal(err)
		}
	}
	if q := db.Statement.Quote("order.name"); q != "`order`.`name`" {
		t.Fatalf("Quote(order.name) = %s, want `order`.`name`", q)
	}
	sql := db.ToSQL(func(tx *gorm.DB) *gorm.DB {
		var out []string
		return tx.Table("order").Select("name").Clauses(clause.Locking{Strength: "UPDATE"}).Order("id").Limit(2).Offset(1).Find(&out)
	})
	if ok, _ := regexp.MatchString("^SELECT name FROM `order` ORDER BY id LIMIT 2 OFFSET 1 *$", sql); !ok {
		t.Fatalf("statement %q", sql)
	}
	var names []string
	err = db.Transaction(func(tx *gorm.DB) error {
		return tx.Table("order").Clauses(clause.Locking{Strength: "UPDATE"}).Order("id").Offset(2).Pluck("name", &names).Error
	})
	if err != nil || len(names) != 2 || names[0] != "c" || names[1] != "d" {
		t.Fatalf("offset without a limit read %v, %v; want [c d]", names, err)
	}
}
