package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
	"gorm.io/gorm"

	"paygate/adapters/sqlstore/accountstore"
	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/user"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
)

// The metering writer's transactions on MySQL (metering.BatchTransactor).
// The writer is serial and holds its users' row locks while a batch runs,
// so a batch makes few round trips to the database:
//   - its pool's sessions have autocommit off: the first statement opens
//     the transaction, and every use ends with COMMIT, ROLLBACK or a closed
//     connection;
//   - writes whose result the batch does not read (batchstores.go) wait in
//     batchConn and go with the next statement or the COMMIT as one
//     multi-statement query, so statements keep their order. A refused one
//     stops the query before the COMMIT and the batch rolls back; nothing
//     is checked after the COMMIT, as a committed batch reported failed
//     would be retried.
//
// multiStatements would make an SQL injection worse, so only this pool
// enables it, only WithinBatchTx uses it, and every statement sent there is
// the store's own text with ? placeholders whose values the driver escapes
// (interpolateParams). A URL that turns interpolateParams off gets no batch
// pool: server-side prepared statements cannot carry several statements.

// batchQueryBytes is how large a batch's deferred query may grow (values
// interpolated) before a hit INSERT is added to it: the smaller of 4 MiB
// and a quarter of max_allowed_packet, which every query must fit in,
// leaving room for the largest hit INSERT (a 1 MiB request body, escaped).
func batchQueryBytes(maxAllowedPacket int64) int {
	return int(min(4<<20, maxAllowedPacket/4))
}

// batchPoolSize is the batch pool's size: one writer runs at a time, a
// second connection covers the one a failed attempt discards.
const batchPoolSize = 2

// openBatchPool opens the batch pool for cfg (a copy is changed); nil when
// the configuration does not allow it.
func openBatchPool(cfg *mysql.Config) (*sql.DB, error) {
	connector, err := batchConnector(cfg)
	if connector == nil || err != nil {
		return nil, err
	}
	return batchPool(connector), nil
}

// batchConnector connects the batch pool's sessions (nil without
// interpolateParams).
func batchConnector(cfg *mysql.Config) (driver.Connector, error) {
	if !cfg.InterpolateParams {
		return nil, nil
	}
	c := cfg.Clone()
	c.MultiStatements = true
	if c.Params == nil {
		c.Params = map[string]string{}
	}
	c.Params["autocommit"] = "0"
	return mysql.NewConnector(c)
}

func batchPool(connector driver.Connector) *sql.DB {
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(batchPoolSize)
	db.SetMaxIdleConns(batchPoolSize)
	db.SetConnMaxLifetime(30 * time.Minute)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return db
}

// WithinBatchTx runs fn in one transaction like WithinTx. With a batch pool
// (MySQL) the transaction defers its writes (see above) and starts from
// this instance's snapshots of the users' rows when it has them
// (batchsnap.go); if the database shows one stale, fn runs again, reading
// the rows under their locks.
func (s *Store) WithinBatchTx(ctx context.Context, fn func(ctx context.Context, st metering.BatchStores) error) error {
	return retryBusyCounting(ctx, &s.retries, func() error {
		if s.batchDB == nil {
			return s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
				return fn(ctx, metering.Statements(metering.TxStoresOf(st)))
			})
		}
		err := s.batchTx(ctx, fn, s.snaps)
		if errors.Is(err, errStaleSnapshot) {
			s.log.Debug("metering batch: snapshot stale, reading the rows under their locks", "err", err)
			err = s.batchTx(ctx, fn, nil)
		}
		return err
	})
}

// SettlesApart is true on MySQL, which runs writers in parallel: the
// metering writer settles successful calls apart from its batches
// (metering.ApartSettler). SQLite has one writer, so everything stays in
// one queue there.
func (s *Store) SettlesApart() bool { return s.dialect == DialectMySQL }

// busyRetries is how many more times a batch the database aborted as a
// deadlock or a lock wait is run again, after a short random pause: with
// several instances locking the same users and keys, a deadlock is a
// normal outcome of a busy moment, not an outage, and the batch's
// function plans from its ops afresh each run (core/metering/batch.go).
const busyRetries = 4

// retryBusy runs run, again while it fails as busy (deadlock, lock wait,
// SQLITE_BUSY), at most busyRetries more times and never past ctx.
func retryBusy(ctx context.Context, run func() error) error {
	return retryBusyCounting(ctx, nil, run)
}

// retryBusyCounting is retryBusy adding each rerun to retries (if not nil).
func retryBusyCounting(ctx context.Context, retries *atomic.Int64, run func() error) error {
	for attempt := 0; ; attempt++ {
		err := run()
		if f, _ := sqlbase.Classify(err); f != sqlbase.FailBusy || attempt == busyRetries || ctx.Err() != nil {
			return err
		}
		if retries != nil {
			retries.Add(1)
		}
		pause := time.Duration(1+rand.IntN(10*(attempt+1))) * time.Millisecond
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
	}
}

// batchTx is one attempt of WithinBatchTx; snaps nil: no snapshots used.
// The users whose rows the transaction locked are kept as it leaves them
// when it commits, forgotten when it fails.
func (s *Store) batchTx(ctx context.Context, fn func(ctx context.Context, st metering.BatchStores) error, snaps *userSnapshots) (err error) {
	conn, err := s.batchDB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", sqlbase.Translate(err))
	}
	bc := &batchConn{conn: conn, maxBytes: s.batchQueryBytes, snaps: snaps, usage: meteringstore.NewUsageTally(s.zone.Load()), conflict: s.conflict}
	defer func() {
		if s.snaps == nil || len(bc.rows) == 0 {
			return
		}
		if err == nil {
			s.snaps.put(bc.rows)
			return
		}
		s.snaps.drop(slices.Collect(maps.Keys(bc.rows)), errors.Is(err, errStaleSnapshot), time.Now())
	}()
	clean := false
	defer func() {
		if !clean {
			// The session may still be inside a transaction: never hand
			// it back to the pool.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}()
	tx := s.db.WithContext(ctx).Session(&gorm.Session{})
	tx.Statement.ConnPool = bc
	err = fn(ctx, s.storesOnBatch(tx, bc))
	if err == nil {
		err = bc.deferUsage()
	}
	if err != nil {
		if errors.Is(bc.err, errStaleSnapshot) && !errors.Is(err, errStaleSnapshot) {
			// fn saw the failed check as another error (a QueryRow
			// after the flush): the batch is still to run again.
			err = fmt.Errorf("%w (then: %v)", bc.err, err)
		}
		bc.discard()
		bc.forgetIDs()
		if _, rbErr := conn.ExecContext(ctx, "ROLLBACK"); rbErr != nil {
			return errors.Join(err, fmt.Errorf("roll back: %w", sqlbase.Translate(rbErr)))
		}
		clean = true
		return err
	}
	if err := s.commitBatch(ctx, bc, conn); err != nil {
		bc.forgetIDs()
		if _, rbErr := conn.ExecContext(ctx, "ROLLBACK"); rbErr == nil {
			clean = true
		}
		return fmt.Errorf("commit transaction: %w", err)
	}
	clean = true
	return nil
}

// commitBatch sends the deferred writes and the COMMIT in one round trip.
// On a Galera cluster the COMMIT goes alone, after the writes answered:
// with conflicts between nodes, the ledger check found balances debited
// without their hit and ledger rows when it was sent with them (most
// likely the statement the cluster aborted failed and the ones after it
// ran in a new transaction, which the query's COMMIT committed); sent
// apart, a failed write is rolled back with everything after it.
func (s *Store) commitBatch(ctx context.Context, bc *batchConn, conn *sql.Conn) error {
	if !s.galera {
		return bc.flush(ctx, "COMMIT")
	}
	if err := bc.flush(ctx, ""); err != nil {
		return err
	}
	_, err := conn.ExecContext(ctx, "COMMIT")
	return err
}

// batchConn is the batch transaction's connection as GORM's ConnPool: it
// holds the deferred writes and sends them before any other statement.
type batchConn struct {
	conn  *sql.Conn
	query strings.Builder
	args  []any
	n     int   // deferred statements
	bytes int   // their size with the values interpolated, about
	err   error // a failed flush: the transaction can only roll back

	// snaps: the snapshots this transaction may start from (nil: none);
	// guarded: its deferred query checks them (batchsnap.go); rows: the
	// rows of the users this transaction locked, as it leaves them.
	snaps   *userSnapshots
	guarded bool
	rows    map[uint64]accountstore.UserRow

	// Deferred hit INSERTs (batchInserts) and the entries referencing
	// their hits: the ids come with the result of the query that sends
	// them. given and referred are what this transaction's queries set,
	// unset again when it fails.
	maxBytes int // a hit INSERT is not added to a deferred query past this size
	vars     int // user variables @paygate_hits_<i> used
	hits     []deferredHits
	refs     []deferredRef
	given    []*hitlog.Hit
	referred []*ledger.Entry

	conflict sqlbase.ConflictSyntax // the server's upsert syntax (sqlbase/upsert.go)
	// usage: the final hits this transaction wrote, added to the usage
	// roll-up by one statement before the COMMIT (meteringstore/usage.go).
	usage *meteringstore.UsageTally
}

// deferredHits is a deferred hit INSERT: its statement's index in the
// deferred query, and its hits in row order.
type deferredHits struct {
	stmt int
	hits []*hitlog.Hit
}

// deferredRef is an entry whose ReferenceID is hit's id.
type deferredRef struct {
	entry *ledger.Entry
	hit   *hitlog.Hit
}

var _ gorm.ConnPool = (*batchConn)(nil)

// UsageTally is the roll-up this transaction sends before its COMMIT.
func (c *batchConn) UsageTally() *meteringstore.UsageTally { return c.usage }

// deferExec queues one statement (its own ? placeholders and args), sent
// before the next statement or with the COMMIT.
func (c *batchConn) deferExec(query string, args ...any) {
	c.deferStatements(query, 1, args...)
}

// deferStatements queues query, n statements separated by semicolons, like
// deferExec (the driver reports each statement's result: n counts them).
func (c *batchConn) deferStatements(query string, n int, args ...any) {
	c.query.WriteString(query)
	c.query.WriteByte(';')
	c.args = append(c.args, args...)
	c.n += n
	c.bytes += len(query) + 1 + valueBytes(args)
}

// deferHits queues a hit INSERT (query, args) of part's rows and keeps its
// first id in a user variable, whose name it returns (the ledger rows that
// reference these hits add the row's index to it), then the INSERT of
// their payloads, which payloads builds from that name. When the deferred
// query would grow past maxBytes, what is deferred is sent first.
func (c *batchConn) deferHits(ctx context.Context, query string, args []any, part []*hitlog.Hit,
	payloads func(v string) (string, []any)) (string, error) {
	v := "@paygate_hits_" + strconv.Itoa(c.vars)
	pq, pargs := payloads(v)
	if c.n > 0 && c.bytes+len(query)+valueBytes(args)+len(pq)+valueBytes(pargs) > c.maxBytes {
		if err := c.flush(ctx, ""); err != nil {
			return "", err
		}
	}
	c.vars++
	c.hits = append(c.hits, deferredHits{stmt: c.n, hits: part})
	c.deferExec(query, args...)
	c.deferExec("SET " + v + " = LAST_INSERT_ID()")
	c.deferExec(pq, pargs...)
	return v, nil
}

// valueBytes is about how long args are once interpolated (a string may
// double by escaping).
func valueBytes(args []any) int {
	n := 0
	for _, a := range args {
		switch v := a.(type) {
		case string:
			n += 2*len(v) + 2
		case *string:
			if v != nil {
				n += 2*len(*v) + 2
			}
		case []byte:
			n += 2*len(v) + 3
		}
		n += 28 // a number, a time, NULL, the separator
	}
	return n
}

func (c *batchConn) discard() {
	c.query.Reset()
	c.args, c.n, c.bytes = nil, 0, 0
	c.hits, c.refs = nil, nil
}

// setIDs gives the hits of the deferred INSERTs just sent (hits) their ids
// and then the entries that reference them (refs) their ReferenceID. A
// multi-row INSERT took consecutive ids (consecutiveIDs), and the driver
// reports each statement's first one (mysql.Result, go-sql-driver ≥ 1.8;
// the batch tests check it, so the error below is not expected: it would
// fail a committed batch).
func (c *batchConn) setIDs(res driver.Result, hits []deferredHits, refs []deferredRef) error {
	all, ok := res.(mysql.Result)
	if !ok {
		return fmt.Errorf("mysql driver result %T has no insert id per statement", res)
	}
	ids := all.AllLastInsertIds()
	for _, d := range hits {
		if d.stmt >= len(ids) || ids[d.stmt] <= 0 {
			return fmt.Errorf("insert %d hits: no insert id in the result of %d statements", len(d.hits), len(ids))
		}
		first := uint64(ids[d.stmt])
		for k, h := range d.hits {
			h.ID = first + uint64(k)
		}
		c.given = append(c.given, d.hits...)
	}
	for _, r := range refs {
		id := r.hit.ID
		r.entry.ReferenceID = &id
		c.referred = append(c.referred, r.entry)
	}
	return nil
}

// forgetIDs unsets what setIDs set: the transaction failed, its rows are
// gone.
func (c *batchConn) forgetIDs() {
	for _, h := range c.given {
		h.ID = 0
	}
	for _, e := range c.referred {
		e.ReferenceID = nil
	}
	c.given, c.referred = nil, nil
}

// keep records r as the row of a user this transaction locked, as it
// leaves it (batchUsers.SaveBalance keeps the saved row).
func (c *batchConn) keep(r accountstore.UserRow) {
	if c.rows == nil {
		c.rows = map[uint64]accountstore.UserRow{}
	}
	c.rows[r.ID] = r
}

// lockedRow is the row of user id as this transaction leaves it, if the
// transaction holds its lock.
func (c *batchConn) lockedRow(id uint64) (accountstore.UserRow, bool) {
	r, ok := c.rows[id]
	return r, ok
}

// lockUser records that this transaction holds the row lock of r's user
// (its balance goes with the COMMIT) and adds the user to users.
func (c *batchConn) lockUser(b sqlbase.Base, r accountstore.UserRow, users map[uint64]*user.User) error {
	u, err := accountstore.OpenUser(b, &r)
	if err != nil {
		return err
	}
	users[u.ID] = u
	c.keep(r)
	return nil
}

// deferUsage defers the statement adding the final hits this transaction
// wrote to the usage roll-up (sent with the COMMIT).
func (c *batchConn) deferUsage() error {
	q, args, err := c.usage.Upsert(c.conflict)
	if q != "" {
		c.deferExec(q, args...)
	}
	return err
}

// flush sends the deferred statements, followed by last when not empty
// (COMMIT), as one query.
func (c *batchConn) flush(ctx context.Context, last string) error {
	if c.err != nil {
		return c.err
	}
	if c.n == 0 && last == "" {
		return nil
	}
	q := c.query.String() + last
	args, n, hits, refs := c.args, c.n, c.hits, c.refs
	c.discard()
	var res driver.Result
	err := c.conn.Raw(func(dc any) error {
		ex, ok := dc.(driver.ExecerContext)
		if !ok {
			return errors.New("mysql driver connection cannot execute")
		}
		named := make([]driver.NamedValue, len(args))
		checker, _ := dc.(driver.NamedValueChecker)
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
			if checker != nil {
				if err := checker.CheckNamedValue(&named[i]); err != nil {
					return fmt.Errorf("argument %d: %w", i+1, err)
				}
			} else if v, err := driver.DefaultParameterConverter.ConvertValue(a); err == nil {
				named[i].Value = v
			} else {
				return fmt.Errorf("argument %d: %w", i+1, err)
			}
		}
		var err error
		if res, err = ex.ExecContext(ctx, q, named); err != nil {
			if n > 0 {
				return fmt.Errorf("%d deferred writes: %w", n, err)
			}
			return err
		}
		return nil
	})
	if err == nil && len(hits)+len(refs) > 0 {
		err = c.setIDs(res, hits, refs)
	}
	if err != nil {
		if c.guarded && isSnapshotCheckFailure(err) {
			err = fmt.Errorf("%w: %w", errStaleSnapshot, err)
		} else {
			err = sqlbase.Translate(err)
		}
		c.err = err
	}
	return err
}

func (c *batchConn) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	if err := c.flush(ctx, ""); err != nil {
		return nil, err
	}
	return c.conn.PrepareContext(ctx, query)
}

func (c *batchConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := c.flush(ctx, ""); err != nil {
		return nil, err
	}
	return c.conn.ExecContext(ctx, query, args...)
}

func (c *batchConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := c.flush(ctx, ""); err != nil {
		return nil, err
	}
	return c.conn.QueryContext(ctx, query, args...)
}

// QueryRowContext cannot return the flush's error by itself: after a failed
// flush it runs the query with a canceled context, so the row reports an
// error, and the transaction can only roll back (c.err).
func (c *batchConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if err := c.flush(ctx, ""); err != nil {
		canceled, cancel := context.WithCancel(ctx)
		cancel()
		return c.conn.QueryRowContext(canceled, query, args...)
	}
	return c.conn.QueryRowContext(ctx, query, args...)
}
