package sqlstore_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/internal/testdb"
)

// TestBackup: on SQLite the copy is a database that opens with the same
// rows; on MariaDB the store refuses and names the tools to use.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		path := filepath.Join(t.TempDir(), "copy.db")
		err := s.Backup(ctx, path)
		if s.Dialect() == sqlstore.DialectMySQL {
			if !errors.Is(err, sqlstore.ErrBackupMySQL) {
				t.Fatalf("Backup on MySQL: %v, want ErrBackupMySQL", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var want, got int64
		s.DB().Raw("SELECT COUNT(*) FROM goose_db_version").Scan(&want)
		c, err := sqlstore.Open(ctx, "sqlite://"+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.DB().Raw("SELECT COUNT(*) FROM goose_db_version").Scan(&got)
		if want == 0 || got != want {
			t.Fatalf("copy has %d migration rows, the original %d", got, want)
		}
		if err := s.Backup(ctx, path); err == nil {
			t.Fatal("Backup over an existing file succeeded")
		}
	})
}
