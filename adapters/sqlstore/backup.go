package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrBackupMySQL: Backup copies SQLite databases only; a MySQL or MariaDB
// server is backed up with its own tools (mariadb-backup, or mariadb-dump
// --single-transaction), which copy a consistent snapshot without stopping
// writers.
var ErrBackupMySQL = errors.New("backup copies SQLite databases only; back up MariaDB/MySQL with mariadb-dump --single-transaction or mariadb-backup (docs/operations.md, Backups and restore)")

// Backup writes a consistent copy of a running SQLite database to path,
// which must not exist. VACUUM INTO reads one snapshot (a read transaction,
// so writers go on meanwhile under WAL) and writes a compacted database; the
// copy is written beside path, synced, then renamed, so path is either
// absent or complete.
func (s *Store) Backup(ctx context.Context, path string) error {
	if s.dialect != DialectSQLite {
		return ErrBackupMySQL
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("backup: %s exists; choose a new file name", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	partial := path + ".partial"
	_ = os.Remove(partial) // a copy cut off earlier
	if err := s.db.WithContext(ctx).Exec("VACUUM INTO ?", partial).Error; err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(partial); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(partial, path); err != nil {
		_ = os.Remove(partial)
		return fmt.Errorf("backup: %w", err)
	}
	return syncFile(filepath.Dir(path)) // the rename itself
}

// syncFile flushes a file (or a directory's entries) to disk.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
