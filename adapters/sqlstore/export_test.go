package sqlstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"paygate/adapters/sqlstore/accountstore"
	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
)

// MySQLConfig exposes the URL-to-driver-config conversion to the tests.
var MySQLConfig = mysqlConfig

// MigrateTo applies the migrations up to version only.
func (s *Store) MigrateTo(ctx context.Context, version int64) error { return s.migrateTo(ctx, version) }

// NewestGoMigration is the newest version among the migrations written in Go.
var NewestGoMigration = slices.Max(slices.Collect(maps.Keys((&Store{}).goMigrationSteps())))

// PayloadMonth is the hit_payloads month of a hit created at t.
var PayloadMonth = meteringstore.PayloadMonth

// Translate exposes the driver-error mapping to the tests.
var Translate = sqlbase.Translate

// ReadBackIDs makes InsertMany read hit ids back by request_id, as on a
// MySQL whose multi-row INSERTs may take non-consecutive ids.
func (s *Store) ReadBackIDs() { s.consecutiveIDs = false }

// ConsecutiveIDs reports whether Open found that multi-row INSERTs take
// consecutive ids.
func (s *Store) ConsecutiveIDs() bool { return s.consecutiveIDs }

// CountBatchRoundTrips replaces the batch pool (WithinBatchTx's, on MySQL)
// by one on databaseURL whose connections count every query, statement
// preparation and ping they send, each one round trip to the server (the
// connection's handshake is not counted).
func (s *Store) CountBatchRoundTrips(databaseURL string) (*atomic.Int64, error) {
	if s.batchDB == nil {
		return nil, errors.New("no batch pool")
	}
	cfg, err := mysqlConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	connector, err := batchConnector(cfg)
	if err != nil {
		return nil, err
	}
	n := new(atomic.Int64)
	_ = s.batchDB.Close()
	s.batchDB = batchPool(countingConnector{connector, n})
	return n, nil
}

type countingConnector struct {
	driver.Connector
	n *atomic.Int64
}

func (c countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	full, ok := dc.(mysqlDriverConn)
	if !ok {
		_ = dc.Close()
		return nil, errors.New("the mysql driver's connection lacks an interface")
	}
	return countingConn{full, c.n}, nil
}

// mysqlDriverConn is what go-sql-driver/mysql's connection implements.
type mysqlDriverConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.NamedValueChecker
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

type countingConn struct {
	mysqlDriverConn
	n *atomic.Int64
}

func (c countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.n.Add(1)
	return c.mysqlDriverConn.ExecContext(ctx, query, args)
}

func (c countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.n.Add(1)
	return c.mysqlDriverConn.QueryContext(ctx, query, args)
}

func (c countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.n.Add(1)
	return c.mysqlDriverConn.PrepareContext(ctx, query)
}

func (c countingConn) Prepare(query string) (driver.Stmt, error) {
	c.n.Add(1)
	return c.mysqlDriverConn.Prepare(query)
}

func (c countingConn) Ping(ctx context.Context) error {
	c.n.Add(1)
	return c.mysqlDriverConn.Ping(ctx)
}

// SnapshotCondition is the optimistic batch's guard condition for one users
// row, and its number of arguments.
func SnapshotCondition() (string, int) {
	cond, args := snapshotMatch(&accountstore.UserRow{})
	return cond, len(args)
}

// SnapshotIgnored are the users columns the guard leaves out, with why.
func SnapshotIgnored() map[string]string { return maps.Clone(snapshotIgnored) }

// UpsertSyntax is the server's version (empty on SQLite) and the upsert
// syntax the store chose for it: excluded, values or alias.
func (s *Store) UpsertSyntax() (string, string) {
	var version string
	if s.dialect == DialectMySQL {
		_ = s.sqlDB.QueryRow("SELECT VERSION()").Scan(&version)
	}
	return version, map[sqlbase.ConflictSyntax]string{sqlbase.ConflictExcluded: "excluded", sqlbase.ConflictValues: "values", sqlbase.ConflictAlias: "alias"}[s.conflict]
}

// AddUsage adds one successful call of user to service at t to the usage
// roll-up with the store's upsert.
func (s *Store) AddUsage(user, service uint64, at time.Time) error {
	t := meteringstore.NewUsageTally(time.UTC)
	if err := t.Add(report.Hit{UserID: user, ServiceID: service, Status: hitlog.StatusSuccess, CreatedAt: at}); err != nil {
		return err
	}
	q, args, err := t.Upsert(s.conflict)
	if err != nil {
		return err
	}
	return s.db.Exec(q, args...).Error
}

// OneExchangeInserts reports whether ins is the batch's own multi-row
// insert (batchInserts), not the statement-by-statement one.
func OneExchangeInserts(ins metering.BatchInserts) bool {
	_, ok := ins.(batchInserts)
	return ok
}

// Busy reports whether err is a lock wait, a deadlock or a Galera
// certification failure: a write to run again.
func Busy(err error) bool { f, _ := sqlbase.Classify(err); return f == sqlbase.FailBusy }
