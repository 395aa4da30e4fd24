package sqlstore

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"time"
)

// SQLite's WAL checkpoints run in the background. With the default
// wal_autocheckpoint, the commit that takes the WAL past 1,000 pages also
// copies the WAL into the database file and syncs it (synchronous=FULL)
// before it returns, and every writer queued behind that commit waits: the
// metering writer's batches, and so the slowest calls. The connections
// have wal_autocheckpoint(0) (dsn.go) and this loop checkpoints instead,
// PASSIVE: it copies what no reader still needs, beside the writers,
// without taking their lock; once a checkpoint has copied the whole WAL,
// the next writer starts it again from the beginning, so it stays small.
// Like SQLite's own automatic checkpoints, only PASSIVE ones run: a reader
// that holds an old snapshot for long (a CSV export) lets the WAL grow
// until it ends; a RESTART or TRUNCATE checkpoint would block every writer
// while it waited for that reader.
const checkpointEvery = 200 * time.Millisecond

type checkpointer struct {
	db       *sql.DB
	log      *slog.Logger
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

func startCheckpointer(db *sql.DB, log *slog.Logger) *checkpointer {
	c := &checkpointer{db: db, log: log, quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

func (c *checkpointer) run() {
	defer close(c.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-c.quit:
			return
		case <-t.C:
		}
		if err := c.checkpoint(); err != nil {
			c.log.Warn("sqlite checkpoint failed", "err", err)
		}
	}
}

// checkpoint runs one PASSIVE checkpoint.
func (c *checkpointer) checkpoint() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var busy, frames, copied int
	return c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied)
}

// stop ends the loop, after a checkpoint under way.
func (c *checkpointer) stop() {
	c.stopOnce.Do(func() { close(c.quit) })
	<-c.done
}
