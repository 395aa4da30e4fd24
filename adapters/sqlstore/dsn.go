package sqlstore

import (
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	gormmysql "gorm.io/driver/mysql"
	"gorm.io/gorm"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"paygate/internal/dburl"
)

// sqlitePragmas are set on every SQLite connection: writers wait for the
// lock (busy_timeout) instead of failing, readers do not block the writer
// (WAL), foreign keys are enforced, and every transaction begins IMMEDIATE so
// a read-then-write transaction never fails to upgrade its lock.
// synchronous=FULL: in WAL mode every commit syncs the WAL, so a committed
// debit survives a power loss too (NORMAL syncs only at checkpoints and may
// lose the last commits); the metering group commit shares that sync.
// wal_autocheckpoint(0): no commit runs a checkpoint; the store's
// checkpointer does them in the background (sqlite_checkpoint.go).
// temp_store(MEMORY): a statement's sub-journal (kept so a multi-row
// statement that fails halfway inside a transaction can be undone alone)
// stays in memory instead of a temporary file that every metering batch
// would create, write and delete.
// mmap_size(1 GiB): the first GiB of the file is read through a memory
// map, not a pread per page into each connection's 2 MB page cache: a
// user's hit export, whose rows are spread over the table, read 1.3–1.7×
// faster. Writes still go through write(); the map holds file pages the
// kernel caches anyway. The cost: an I/O error on a mapped page kills the
// process instead of failing the statement (SQLite's documented trade-off).
// _time_format=sqlite writes times as "2006-01-02 15:04:05.999999999-07:00",
// the format of the databases glebarez/go-sqlite wrote.
const sqlitePragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(FULL)&_pragma=wal_autocheckpoint(0)&_pragma=temp_store(MEMORY)&_pragma=mmap_size(1073741824)&_txlock=immediate&_time_format=sqlite"

func sqliteDialector(rest string) (gorm.Dialector, *sql.DB, error) {
	path, query, _ := strings.Cut(rest, "?")
	if path == "" {
		return nil, nil, fmt.Errorf("sqlite database URL needs a path: sqlite://./data/app.db")
	}
	if path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, nil, fmt.Errorf("sqlite database URL must name a file: sqlite://./data/app.db")
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, nil, fmt.Errorf("create database folder: %w", err)
		}
	}
	dsn := path + "?" + sqlitePragmas
	if query != "" {
		dsn += "&" + query
	}
	sqlDB, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("open sqlite database %s: %w", path, err)
	}
	// One writer at a time is SQLite's rule; a few connections let readers
	// run beside it (WAL) while writers queue on busy_timeout.
	sqlDB.SetMaxOpenConns(8)
	sqlDB.SetMaxIdleConns(8)
	sqlDB.SetConnMaxIdleTime(10 * time.Minute)
	return sqliteGorm{conn: sqlDB}, sqlDB, nil
}

// mysqlConfig turns mysql://user:pass@host:port/dbname?opts into the
// driver's configuration: parseTime, UTC, found (not changed) rows counted
// by UPDATE, utf8mb4. ?socket=/path connects over a Unix socket; other
// options are the driver's own DSN parameters.
func mysqlConfig(databaseURL string) (*mysql.Config, error) {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("mysql database URL is not a valid URL (percent-encode special characters of the password)")
	}
	q := u.Query()
	socket := q.Get("socket")
	q.Del("socket")
	for _, forced := range []string{"parseTime", "loc", "clientFoundRows"} {
		q.Del(forced)
	}
	if q.Get("charset") == "" {
		q.Set("charset", "utf8mb4")
	}
	dbName := strings.TrimPrefix(u.Path, "/")
	if strings.Contains(dbName, "/") {
		return nil, fmt.Errorf("mysql database URL %s: database name must not contain '/'", dburl.Redact(databaseURL))
	}
	cfg, err := mysql.ParseDSN("/" + dbName + "?" + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("mysql database URL %s: %w", dburl.Redact(databaseURL), err)
	}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	switch {
	case socket != "":
		cfg.Net, cfg.Addr = "unix", socket
	default:
		host := u.Hostname()
		if host == "" {
			host = "127.0.0.1"
		}
		port := u.Port()
		if port == "" {
			port = "3306"
		}
		cfg.Net, cfg.Addr = "tcp", net.JoinHostPort(host, port)
	}
	// Parameters are interpolated client-side (the driver escapes them for
	// utf8mb4) unless the URL says otherwise: one round trip per statement
	// instead of prepare, execute and close.
	if !q.Has("interpolateParams") {
		cfg.InterpolateParams = true
	}
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	cfg.ClientFoundRows = true
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	// A database cut off without a reset would otherwise hold a statement
	// (and the metering writer behind it) until the kernel gives up.
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = 30 * time.Second
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = 30 * time.Second
	}
	return cfg, nil
}

func mysqlDialector(databaseURL string) (gorm.Dialector, *sql.DB, error) {
	cfg, err := mysqlConfig(databaseURL)
	if err != nil {
		return nil, nil, err
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("mysql database URL %s: %w", dburl.Redact(databaseURL), err)
	}
	sqlDB := sql.OpenDB(connector)
	sqlDB.SetMaxOpenConns(30)
	sqlDB.SetMaxIdleConns(10)
	sqlDB.SetConnMaxLifetime(30 * time.Minute)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	return gormmysql.New(gormmysql.Config{Conn: sqlDB, DSNConfig: cfg}), sqlDB, nil
}
