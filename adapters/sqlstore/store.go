package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"paygate/core/accounts/session"
	"paygate/core/gateway/beneficiary"
	"paygate/core/gateway/verification"
	"paygate/core/metering/report"
	"paygate/core/platform/directory"
	"paygate/core/platform/export"
	"paygate/core/platform/store"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	"gorm.io/gorm"
	gormlogger "gorm.io/gorm/logger"

	"paygate/adapters/sqlstore/accountstore"
	"paygate/adapters/sqlstore/billingstore"
	"paygate/adapters/sqlstore/catalogstore"
	"paygate/adapters/sqlstore/eventstore"
	"paygate/adapters/sqlstore/gatewaystore"
	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/moneystore"
	"paygate/adapters/sqlstore/resalestore"
	"paygate/adapters/sqlstore/sqlbase"
	"paygate/internal/dburl"
	"paygate/migrations"
)

// Dialect names returned by (*Store).Dialect.
const (
	DialectMySQL  = "mysql"
	DialectSQLite = "sqlite"
)

// Sealer encrypts the secret columns (sqlbase.Sealer; UseSealer).
type Sealer = sqlbase.Sealer

// ErrInvalidReference: a row names a parent that does not exist
// (sqlbase.ErrInvalidReference).
var ErrInvalidReference = sqlbase.ErrInvalidReference

// MaxPayloadRetentionMySQL is the longest HIT_PAYLOAD_RETENTION MySQL's
// payload ring supports (meteringstore.MaxPayloadRetentionMySQL).
const MaxPayloadRetentionMySQL = meteringstore.MaxPayloadRetentionMySQL

// Store is an open database with its repositories.
type Store struct {
	db      *gorm.DB
	sqlDB   *sql.DB
	dialect string
	log     *slog.Logger
	// consecutiveIDs: see sqlbase.Base.ConsecutiveIDs; read at Open.
	consecutiveIDs bool
	// conflict: the server's upsert syntax (sqlbase/upsert.go); read at Open.
	conflict sqlbase.ConflictSyntax
	// batchDB: MySQL's pool for WithinBatchTx (batchtx.go); nil otherwise.
	batchDB *sql.DB
	// snaps: the users' rows as the last committed batches left them, for
	// optimistic batches (batchsnap.go); nil: every batch reads them.
	snaps *userSnapshots
	// batchQueryBytes: how large a batch's deferred query may grow before
	// a hit INSERT (batchConn.deferHits); from max_allowed_packet at Open.
	batchQueryBytes int
	// checkpointer: SQLite's background WAL checkpoints; nil on MySQL.
	checkpointer *checkpointer
	// sealer seals the secret columns (sqlbase/secrets.go); PlaintextSealer until
	// UseSealer.
	sealer sqlbase.Sealer
	// exportPage: rows per keyset page of an export (0: ExportPageRows).
	exportPage int
	// zone: the local hours of the usage roll-up (SetZone; UTC until
	// set), shared with every repository made from this store.
	zone *atomic.Pointer[time.Location]
	// galera: the server is a Galera cluster node (wsrep_on), read at
	// Open: migrations take a lock row (galera.go).
	galera bool
	// retries, aborts: ConflictRetries, ConflictAborts.
	retries, aborts atomic.Int64
}

var _ store.Transactor = (*Store)(nil)

// Open connects to databaseURL, either sqlite://<path> (the parent folder is
// created) or mysql://user:pass@host:port/dbname?opts (also
// ?socket=/run/mysqld/mysqld.sock), and checks that the database answers.
func Open(ctx context.Context, databaseURL string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	scheme, rest, ok := strings.Cut(databaseURL, "://")
	if !ok {
		return nil, fmt.Errorf("database URL must start with sqlite:// or mysql://")
	}
	var (
		dialector gorm.Dialector
		sqlDB     *sql.DB
		err       error
		dialect   string
	)
	switch scheme {
	case "sqlite":
		dialect = DialectSQLite
		dialector, sqlDB, err = sqliteDialector(rest)
	case "mysql":
		dialect = DialectMySQL
		dialector, sqlDB, err = mysqlDialector(databaseURL)
	default:
		return nil, fmt.Errorf("unsupported database URL scheme %q: want sqlite:// or mysql://", scheme)
	}
	if err != nil {
		return nil, err
	}
	db, err := gorm.Open(dialector, &gorm.Config{
		// SQL is never logged: statements carry secret hashes and personal data.
		// Errors are returned and logged once, at the edge.
		Logger:                 gormlogger.Discard,
		NowFunc:                func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
		SkipDefaultTransaction: true,
	})
	if err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("open %s database %s: %w", dialect, dburl.Redact(databaseURL), err)
	}
	if err := sqlbase.RegisterUnavailable(db); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("register callbacks: %w", err)
	}
	s := &Store{db: db, sqlDB: sqlDB, dialect: dialect, log: logger, sealer: sqlbase.PlaintextSealer{}, zone: new(atomic.Pointer[time.Location])}
	s.zone.Store(time.UTC)
	if err := s.Ping(ctx); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("connect to %s database %s: %w", dialect, dburl.Redact(databaseURL), err)
	}
	s.consecutiveIDs = dialect == DialectSQLite
	if dialect == DialectSQLite {
		s.checkpointer = startCheckpointer(sqlDB, logger)
	}
	if dialect == DialectMySQL {
		var mode, step, packet sql.NullInt64
		// Not readable (another engine): ids are read back instead.
		err := sqlDB.QueryRowContext(ctx, "SELECT @@innodb_autoinc_lock_mode, @@auto_increment_increment, @@max_allowed_packet").
			Scan(&mode, &step, &packet)
		if err == nil {
			s.consecutiveIDs = mode.Valid && mode.Int64 <= 1 && step.Valid && step.Int64 == 1
			s.batchQueryBytes = batchQueryBytes(packet.Int64)
		}
		var version string
		if err := sqlDB.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
			_ = s.Close()
			return nil, fmt.Errorf("read the server version of %s: %w", dburl.Redact(databaseURL), err)
		}
		s.conflict = sqlbase.ConflictSyntaxOf(version)
		s.galera = detectGalera(ctx, sqlDB, logger)
		cfg, err := mysqlConfig(databaseURL)
		if err == nil {
			s.batchDB, err = openBatchPool(cfg)
		}
		if s.batchDB != nil {
			s.snaps = newUserSnapshots()
		}
		if err != nil {
			_ = s.Close()
			return nil, fmt.Errorf("open mysql batch pool %s: %w", dburl.Redact(databaseURL), err)
		}
	}
	return s, nil
}

// Migrate applies the embedded migrations of the store's dialect with goose.
// On MySQL a named lock per database makes instances that start together
// migrate one after the other.
func (s *Store) Migrate(ctx context.Context) error { return s.migrateTo(ctx, 0) }

// migrateTo applies migrations up to version (0: all).
func (s *Store) migrateTo(ctx context.Context, version int64) error {
	fsys, err := fs.Sub(migrations.FS, s.dialect)
	if err != nil {
		return fmt.Errorf("migrations for %s: %w", s.dialect, err)
	}
	gooseDialect := goose.DialectSQLite3
	opts := []goose.ProviderOption{s.goMigrations()}
	if s.dialect == DialectMySQL {
		gooseDialect = goose.DialectMySQL
		var locker goose.ProviderOption = goose.WithSessionLocker(mysqlMigrationLock{})
		if s.galera {
			locker = goose.WithSessionLocker(&galeraMigrationLock{db: s.sqlDB, log: s.log})
		}
		opts = append(opts, locker)
	}
	p, err := goose.NewProvider(gooseDialect, s.sqlDB, fsys, opts...)
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	var results []*goose.MigrationResult
	if version > 0 {
		results, err = p.UpTo(ctx, version)
	} else {
		results, err = p.Up(ctx)
	}
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range results {
		s.log.Info("migration applied", "version", r.Source.Version, "path", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// mysqlMigrationLock is a goose session locker on GET_LOCK, named after the
// current database so that databases on one server do not wait for each other.
type mysqlMigrationLock struct{}

const migrationLockSQL = "CONCAT('paygate_migrate_', DATABASE())"

func (mysqlMigrationLock) SessionLock(ctx context.Context, conn *sql.Conn) error {
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK("+migrationLockSQL+", 300)").Scan(&got); err != nil {
		return fmt.Errorf("take migration lock: %w", err)
	}
	if !got.Valid || got.Int64 != 1 {
		return errors.New("take migration lock: timed out after 300 s")
	}
	return nil
}

func (mysqlMigrationLock) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, "SELECT RELEASE_LOCK("+migrationLockSQL+")")
	return err
}

// Stores returns the repositories on the plain database handle.
func (s *Store) Stores() store.Stores { return s.storesOn(s.db) }

// WithinTx runs fn in one transaction with repositories bound to it; fn's
// error (or panic) rolls back, nil commits. On SQLite every transaction
// begins IMMEDIATE, so writers queue on the database lock instead of failing;
// on MySQL, user.Repository.LockByID takes a row lock held until the end.
// A deadlock, a lock wait or (on a Galera cluster) a certification
// failure rolls back and answers errs.ErrUnavailable, counted in
// ConflictAborts: fn is not run again, since a use case's closure may keep
// state from an attempt whose commit failed (decisions, "Galera").
func (s *Store) WithinTx(ctx context.Context, fn func(ctx context.Context, st store.Stores) error) error {
	err := s.withinTxOnce(ctx, fn)
	if f, _ := sqlbase.Classify(err); f == sqlbase.FailBusy {
		s.aborts.Add(1)
	}
	return err
}

// ConflictRetries is how many metering batches this store ran again after
// a deadlock, a lock wait or a Galera certification failure.
func (s *Store) ConflictRetries() int64 { return s.retries.Load() }

// ConflictAborts is how many WithinTx transactions failed with a
// deadlock, a lock wait or a Galera certification failure.
func (s *Store) ConflictAborts() int64 { return s.aborts.Load() }

// Galera reports whether the database is a Galera cluster node (wsrep_on).
func (s *Store) Galera() bool { return s.galera }

func (s *Store) withinTxOnce(ctx context.Context, fn func(ctx context.Context, st store.Stores) error) (err error) {
	tx := s.db.WithContext(ctx).Begin()
	if tx.Error != nil {
		return fmt.Errorf("begin transaction: %w", sqlbase.Translate(tx.Error))
	}
	done := false
	defer func() {
		if !done {
			tx.Rollback()
		}
	}()
	if err := fn(ctx, s.storesOn(tx)); err != nil {
		done = true
		if rbErr := tx.Rollback().Error; rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("roll back: %w", rbErr))
		}
		return err
	}
	done = true
	if err := tx.Commit().Error; err != nil {
		return fmt.Errorf("commit transaction: %w", sqlbase.Translate(err))
	}
	return nil
}

// Names reads the names beside a list's ids; no transaction needs it.
func (s *Store) Names() directory.Repository { return &nameStore{s.baseOn(s.db)} }

// Exports keeps the leases of running CSV exports; no transaction needs it.
func (s *Store) Exports() export.Repository { return &exportStore{s.baseOn(s.db)} }

// Settings keeps the server's generated keys (development's JWT and data
// keys); no transaction needs it.
func (s *Store) Settings() session.Settings { return &accountstore.SettingStore{Base: s.baseOn(s.db)} }

// Verifications keeps the account verifications' records; no transaction
// needs it.
func (s *Store) Verifications() verification.Repository {
	return &gatewaystore.VerificationStore{Base: s.baseOn(s.db)}
}

// Beneficiaries keeps the panel payouts' saved payees; no transaction
// needs it.
func (s *Store) Beneficiaries() beneficiary.Repository {
	return &gatewaystore.BeneficiaryStore{Base: s.baseOn(s.db)}
}

func (s *Store) storesOn(db *gorm.DB) store.Stores {
	b := s.baseOn(db)
	return store.Stores{
		Users:    &accountstore.UserStore{Base: b},
		Keys:     &accountstore.KeyStore{Base: b},
		Services: &catalogstore.CatalogStore{Base: b},
		Pricing:  &catalogstore.PricingStore{Base: b},
		Ledger:   &moneystore.LedgerStore{Base: b},
		Hits:     &meteringstore.HitStore{Base: b},
		Sessions: &accountstore.SessionStore{Base: b},
		Audit:    &accountstore.AuditStore{Base: b},
		Resets:   &accountstore.ResetStore{Base: b},
		TopUps:   &moneystore.TopUpStore{Base: b},
		Reports:  &meteringstore.ReportStore{Base: b},

		Payments:    &gatewaystore.PaymentStore{Base: b},
		Idempotency: &gatewaystore.IdempotencyStore{Base: b},
		Recharges:   &gatewaystore.RechargeStore{Base: b},
		Payouts:     &gatewaystore.PayoutStore{Base: b},
		Refunds:     &gatewaystore.RefundStore{Base: b},
		RefundKeys:  &gatewaystore.RefundKeyStore{Base: b},

		Webhooks: &eventstore.WebhookStore{Base: b},
		Holds:    &meteringstore.HoldStore{Base: b},
		Logins:   &accountstore.LoginStore{Base: b},

		Statements: &moneystore.StatementStore{Base: b},
		UTRs:       &gatewaystore.UTRClaimStore{Base: b},

		Openings:      &gatewaystore.OpeningStore{Base: b},
		Plans:         &billingstore.PlanStore{Base: b},
		Subscriptions: &billingstore.SubscriptionStore{Base: b},
		Invoices:      &billingstore.InvoiceStore{Base: b},
		TaxProfiles:   &billingstore.TaxProfileStore{Base: b},

		Brands:         &resalestore.BrandStore{Base: b},
		Transfers:      &moneystore.TransferStore{Base: b},
		CustomerPrices: &resalestore.CustomerPriceStore{Base: b},
		Commissions:    &resalestore.CommissionStore{Base: b},
	}
}

// baseOn is what the repositories on db hold.
func (s *Store) baseOn(db *gorm.DB) sqlbase.Base {
	return sqlbase.Base{DB: db, MySQL: s.dialect == DialectMySQL, Conflict: s.conflict, ConsecutiveIDs: s.consecutiveIDs, Sealer: s.sealer,
		ExportPage: s.exportPage, Zone: s.zone}
}

// SetExportPageRows sets how many rows one keyset page of an export reads
// (1 to ExportPageRows; anything else means ExportPageRows), for the
// repositories that Stores and WithinTx hand out after the call. Tests use
// a small page to cross page boundaries with few rows.
func (s *Store) SetExportPageRows(n int) { s.exportPage = n }

// SetZone sets the zone (TIMEZONE) whose local hours the usage roll-up
// counts hits in (core/app.New sets its Location); it must be the zone the
// reports read in (core/metering/report.HourOf).
func (s *Store) SetZone(loc *time.Location) {
	if loc != nil {
		s.zone.Store(loc)
	}
}

// Ping checks that the database answers (readiness).
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return s.sqlDB.PingContext(ctx)
}

// Close closes the connection pool.
func (s *Store) Close() error {
	if s.checkpointer != nil {
		s.checkpointer.stop()
	}
	if s.batchDB != nil {
		_ = s.batchDB.Close()
	}
	return s.sqlDB.Close()
}

// Stats are the connection pool's statistics (exported as metrics).
func (s *Store) Stats() sql.DBStats { return s.sqlDB.Stats() }

// Dialect is "mysql" or "sqlite".
func (s *Store) Dialect() string { return s.dialect }

// DB is the underlying GORM handle, for tests and benchmarks.
func (s *Store) DB() *gorm.DB { return s.db }

// ResellerReports reads the resellers' dashboards; no transaction needs it.
func (s *Store) ResellerReports() report.ResellerRepository {
	return &resalestore.ResellerReportStore{Base: s.baseOn(s.db)}
}
