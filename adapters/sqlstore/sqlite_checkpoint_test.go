package sqlstore_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"paygate/adapters/sqlstore"
)

// Commits never checkpoint on SQLite (wal_autocheckpoint is 0); the
// store's checkpointer copies the WAL in the background, so after a burst
// of commits and a pause the next commit starts the WAL again from the
// beginning. Without it the WAL keeps every frame of the burst; with
// SQLite's default the commits would checkpoint themselves.
func TestSQLiteCheckpointsInTheBackground(t *testing.T) {
	before := goleak.IgnoreCurrent()
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "ckpt.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	db := s.DB()
	var auto int
	if err := db.Raw("PRAGMA wal_autocheckpoint").Scan(&auto).Error; err != nil || auto != 0 {
		t.Fatalf("wal_autocheckpoint = %d (%v), want 0: commits must not checkpoint", auto, err)
	}
	if err := db.Exec("CREATE TABLE burst (id INTEGER PRIMARY KEY, pad TEXT)").Error; err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 5000) // > one 4 KiB page per row: ≥ 2 frames per commit
	for i := 0; i < 1500; i++ {
		if err := db.Exec("INSERT INTO burst (pad) VALUES (?)", pad).Error; err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(600 * time.Millisecond) // three checkpointer ticks
	if err := db.Exec("INSERT INTO burst (pad) VALUES ('after')").Error; err != nil {
		t.Fatal(err)
	}
	var busy, frames, copied int
	// PASSIVE reports the WAL's length in frames (and copies what is left).
	if err := db.Raw("PRAGMA wal_checkpoint(PASSIVE)").Row().Scan(&busy, &frames, &copied); err != nil {
		t.Fatal(err)
	}
	if frames > 100 {
		t.Fatalf("WAL holds %d frames after 3,000+ frames of commits and a pause: the background checkpoints did not run", frames)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t, before) // Close stops the checkpointer
}
