package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
)

// On a MariaDB Galera cluster (synchronous, multi-primary) a row lock is
// local to the node that took it: two instances writing the same rows
// through two nodes both proceed, and the one certified second fails with a
// deadlock (1213), at the latest at commit. The store detects a cluster
// node at Open (wsrep_on) and then takes the migration lock as a row
// (galeraMigrationLock): GET_LOCK is local to one node. A metering batch
// the cluster aborted runs again (WithinBatchTx, ConflictRetries); any
// other transaction answers 503, retryable, nothing written
// (ConflictAborts): its use case's closure is not known to be safe to run
// twice.
//
// The rest needs no switch: a multi-row INSERT's ids are not consecutive
// on a cluster (auto_increment_increment is the cluster size,
// innodb_autoinc_lock_mode 2), which Open already reads (consecutiveIDs);
// the webhook claim's SKIP LOCKED passes over rows locked on this node
// only, and a claim of the same rows through another node fails
// certification instead of sending twice; every other worker claims by a
// conditional update of a lease column. Reads that must see another
// node's commit need wsrep_sync_wait, set per session by the database URL
// (?wsrep_sync_wait=1); Open warns without it.

// detectGalera reports whether db is a Galera cluster node with
// replication on (MariaDB's wsrep_on; MySQL has no such variable).
func detectGalera(ctx context.Context, db *sql.DB, log *slog.Logger) bool {
	var on, wait sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT @@wsrep_on, @@wsrep_sync_wait").Scan(&on, &wait); err != nil || on.Int64 != 1 {
		return false
	}
	if wait.Int64&1 == 0 {
		log.Warn("galera cluster node without wsrep_sync_wait: a read may miss a write just committed through another node; add ?wsrep_sync_wait=1 to DATABASE_URL")
	} else {
		log.Info("galera cluster node: conflicting metering batches rerun, other conflicting transactions answer 503, migrations lock a row", "wsrep_sync_wait", wait.Int64)
	}
	return true
}

// galeraMigrationLock is goose's session locker on a Galera cluster: one
// row of paygate_migration_lock, held by a random token until a lease
// runs out and renewed while held. Taking it is an insert or a takeover
// of an expired lease in one autocommit statement: two nodes taking it at
// once conflict in certification, and the loser sees the winner's row on
// its next try. An instance that dies holding it blocks the others for one
// lease at most.
type galeraMigrationLock struct {
	db    *sql.DB
	log   *slog.Logger
	token string
	stop  chan struct{}
	done  sync.WaitGroup
}

const (
	galeraLockLease = 60 * time.Second
	galeraLockWait  = 300 * time.Second
)

const galeraLockTable = `CREATE TABLE IF NOT EXISTS paygate_migration_lock (
	name VARCHAR(32) NOT NULL PRIMARY KEY,
	holder CHAR(32) NOT NULL,
	expires_at DATETIME(6) NOT NULL
) ENGINE=InnoDB`

// galeraLockTake inserts the lock row, or takes it over when its lease
// ran out, or renews it when the token already holds it.
const galeraLockTake = `INSERT INTO paygate_migration_lock (name, holder, expires_at)
VALUES ('migrate', ?, UTC_TIMESTAMP(6) + INTERVAL ? SECOND)
ON DUPLICATE KEY UPDATE
	holder = IF(expires_at < UTC_TIMESTAMP(6), VALUES(holder), holder),
	expires_at = IF(holder = VALUES(holder), VALUES(expires_at), expires_at)`

func (l *galeraMigrationLock) SessionLock(ctx context.Context, conn *sql.Conn) error {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	l.token = hex.EncodeToString(b)
	if _, err := conn.ExecContext(ctx, galeraLockTable); err != nil {
		return fmt.Errorf("create migration lock table: %w", err)
	}
	// Read the row as the cluster committed it, not as this node applied it so far.
	if _, err := conn.ExecContext(ctx, "SET SESSION wsrep_sync_wait = 1"); err != nil {
		return fmt.Errorf("take migration lock: %w", err)
	}
	deadline := time.Now().Add(galeraLockWait)
	for {
		got, err := l.try(ctx, conn)
		if err != nil {
			return err
		}
		if got {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("take migration lock: timed out after %s", galeraLockWait)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("take migration lock: %w", ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
	l.stop = make(chan struct{})
	l.done.Add(1)
	go l.renew()
	return nil
}

// try takes the lock once; a certification failure is a lost race.
func (l *galeraMigrationLock) try(ctx context.Context, conn *sql.Conn) (bool, error) {
	if _, err := conn.ExecContext(ctx, galeraLockTake, l.token, int(galeraLockLease/time.Second)); err != nil {
		if f, _ := sqlbase.Classify(err); f == sqlbase.FailBusy {
			return false, nil
		}
		return false, fmt.Errorf("take migration lock: %w", err)
	}
	var holder string
	err := conn.QueryRowContext(ctx, "SELECT holder FROM paygate_migration_lock WHERE name = 'migrate'").Scan(&holder)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // released since the insert: try again
	}
	if err != nil {
		return false, fmt.Errorf("read migration lock: %w", err)
	}
	return holder == l.token, nil
}

// renew extends the lease every third of it while the lock is held.
func (l *galeraMigrationLock) renew() {
	defer l.done.Done()
	t := time.NewTicker(galeraLockLease / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			_, err := l.db.Exec("UPDATE paygate_migration_lock SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? SECOND WHERE name = 'migrate' AND holder = ?",
				int(galeraLockLease/time.Second), l.token)
			if err != nil {
				l.log.Warn("renew migration lock", "err", err)
			}
		}
	}
}

func (l *galeraMigrationLock) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	if l.stop != nil {
		close(l.stop)
		l.done.Wait()
		l.stop = nil
	}
	_, err := conn.ExecContext(ctx, "DELETE FROM paygate_migration_lock WHERE name = 'migrate' AND holder = ?", l.token)
	if err != nil {
		return errors.Join(errors.New("release migration lock"), err)
	}
	return nil
}
