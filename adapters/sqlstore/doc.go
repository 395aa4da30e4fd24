// Package sqlstore is the database adapter: GORM repositories for every
// port of the core, on MySQL/MariaDB or on SQLite (the embedded default).
// Dialect differences stay inside this adapter. Rows are the adapter's own structs
// crossed into domain entities by named converters; driver errors are
// translated into the domain's errors (a refused, reset or killed
// connection into errs.ErrUnavailable, 503). The decisions are
// docs/decisions.md's "Data and stores"; how they are carried out:
//
// # Layout
//
// This package is the database as a whole: Open and Store (connections,
// dialect, migrations, backups, Galera), WithinTx, which hands a use case
// every area's repositories bound to one transaction, and the metering
// batch's transaction on MySQL (batchtx.go, batchstores.go, batchsnap.go).
// The repositories live in one package per area of the core, each over the
// shared base sqlbase (the handle and dialect every repository holds, error
// translation, decimal and time conversions, row walks, upserts, secret
// sealing): accountstore (users, keys, sessions, logins, resets, audit),
// eventstore (webhooks), meteringstore (hit log, holds, reports, usage
// roll-up, payloads, the hit batch writes), gatewaystore (payments,
// refunds, payouts, beneficiaries, openings, UTR claims), moneystore
// (ledger, top-ups, transfers, statements), billingstore (plans, invoices,
// tax profiles), catalogstore (catalog, pricing) and resalestore (brands,
// customer prices, commissions, reseller reports). An area's store imports
// sqlbase and, where a row is shared, a lower area's store; never this
// package.
//
// # SQLite
//
// modernc.org/sqlite's own driver with a small GORM dialect of this
// package's (sqlite_gorm.go: RETURNING, no FOR UPDATE; the schema comes
// from migrations); _time_format=sqlite keeps existing databases' time
// format. Money columns are TEXT holding the decimal string. Pragmas on
// every connection: journal_mode=WAL, busy_timeout=10000, foreign_keys=1,
// transactions IMMEDIATE, synchronous=FULL (every commit syncs the WAL,
// shared by a batch), temp_store=MEMORY (the sub-journals of multi-row
// statements stay off temporary files), mmap_size 1 GiB (reads through a
// memory map instead of a pread per page into each connection's cache; an
// I/O error on a mapped page then ends the process, SQLite's documented
// trade-off, accepted for the embedded default); 8 connections. The WAL is
// checkpointed by a goroutine of the store (sqlite_checkpoint.go):
// wal_autocheckpoint(0), then PRAGMA wal_checkpoint(PASSIVE) every 200 ms
// beside the writers, so no commit pays for a checkpoint; only PASSIVE, so
// a long reader (an export) lets the WAL grow instead of blocking writers.
// Batch writes use one statement per chunk (multi-row INSERTs; settlements
// as UPDATE … FROM (VALUES …) … RETURNING id), since the driver compiles a
// text on every execution (meteringstore/batch_sqlite.go).
//
// # MySQL connections
//
// Parameters are interpolated client-side (interpolateParams=true unless
// the URL sets it): one round trip per statement. clientFoundRows, UTC
// times, utf8mb4; connect timeout 10 s; read and write timeouts 30 s, so a
// database cut off without a reset cannot hold the metering writer for the
// kernel's ~15 minutes. The main pool has 30 connections. Multi-row INSERTs
// take consecutive ids when innodb_autoinc_lock_mode ≤ 1 and the increment
// is 1 (checked at Open); otherwise hit ids are read back by request_id.
// The password may come apart from the URL (DATABASE_PASSWORD, or
// DATABASE_PASSWORD_FILE), percent-encoded into it here (dsn.go).
//
// Conditional updates that pick a row by id and status (recharges, hit
// settlements, payments, balance requests) name the table with FORCE INDEX
// (PRIMARY) (sqlbase.ForcePrimary), so the optimizer never reads them through a
// (status, …) index and takes next-key locks on other rows.
//
// # The metering batch on MySQL
//
// Metering batches (batchtx.go, batchstores.go) run on a pool of their own,
// 2 connections whose sessions have autocommit=0 (no START TRANSACTION
// round trip) and multiStatements=true. Ledger rows and the balances of
// locked users are deferred and sent with the COMMIT in one query; hit
// INSERTs are deferred too, each followed by SET @paygate_hits_<i> =
// LAST_INSERT_ID(), the debits naming @paygate_hits_<i> + k; the hits' Go
// ids come from the driver's per-statement first insert ids (pinned by
// tests). A batch is two round trips (lock and count; everything else with
// the COMMIT), one with a snapshot. Nothing is checked after the COMMIT: a
// committed batch must never be reported failed. Only this pool has
// multiStatements, only the batch transaction uses it, and everything sent
// there is this package's SQL text with ? placeholders interpolated by the
// driver (escaped for the charset and NO_BACKSLASH_ESCAPES), never
// concatenated; a URL that turns interpolateParams off gets no batch pool.
// A deferred query is kept under min(4 MiB, max_allowed_packet/4).
//
// The snapshot guard (batchsnap.go): the writer keeps each user's row as
// this instance's last committed batch left it. The next batch starts from
// that snapshot and sends everything in one query: SELECT COUNT(*) INTO
// @paygate_ok … FOR UPDATE takes the same locks in ascending ids and
// compares every column (text compared BINARY; password hash and signing
// secret by SHA-256, never sent; created_at and remember_token skipped),
// each key's counter adds its ROW_COUNT(), and a statement fails (error
// 1172) unless all matched; then rows, balances and COMMIT. The compared
// columns are derived from the users row type, and a test fails when a
// column of the table is neither compared nor in the named ignore list. A
// failed check rolls back and the batch runs again from rows read under the
// locks; that user gets no snapshot for 1 s. Users' rows are kept as
// stored: re-sealing a secret gives a new nonce and would fail every check.
//
// Settlement UPDATEs (meteringstore/settle_sql.go) write each column the cheapest way
// that still gives every hit its value: one parameter when all hits share
// it; ELT(id - (min-1), …) when the ids are dense (a batch's are); otherwise
// CASE CAST(id AS SIGNED) WHEN …; always WHERE id IN (…) AND status =
// 'pending'.
//
// # Hit payloads and usage roll-ups
//
// Payloads (meteringstore/payloads.go) are written by the statements that write the hit:
// in a MySQL metering batch, one more deferred statement whose ids come
// from the hits' LAST_INSERT_ID() variable, no extra round trip; the
// settlement that moves a pending hit upserts its response on the row's key.
// Lists, the hit and exports join p.hit_id = id AND p.month =
// YEAR(created_at) * 12 + MONTH(created_at) - 1, one primary-key lookup in
// one partition per hit. MySQL: PARTITION BY HASH (month) PARTITIONS 24. The
// retention worker truncates a partition once every month it can hold has
// ended before the cutoff (months a day ahead of the clock count as live,
// so an instance whose clock runs ahead is safe), one ALTER TABLE …
// TRUNCATE PARTITION per call with lock_wait_timeout = 1, so a long
// transaction makes it retry next round instead of queueing calls behind
// it; the truncate holds the table's metadata lock while InnoDB drops and
// recreates the file (figures: docs/benchmarks.md), once a month. The panel
// hides payloads past the retention anyway (hitlog.Hit.WithoutPayloadsBefore).
// The 365-day cap leaves ten months before the ring comes back to a
// partition; a longer setting is refused at start-up. SQLite: from the
// oldest payload row, the leading run (≤ 1,000) of hits created before the
// cutoff is deleted by one DELETE over its id range, up to 600 batches a
// round with 100 ms pauses. A truncated partition counts InnoDB's row
// estimate in paygate_hit_payloads_removed_total.
//
// The hourly usage roll-up is written with the hits (meteringstore/usage.go): rows in key
// order, so two writers lock shared rows in the same order; successful
// settlements run a transaction per chunk (update, then the roll-up).
// Upserts (sqlbase/upsert.go) name the inserted row the server's way: SQLite
// excluded.c, MySQL ≥ 8.0.19 VALUES (…) AS new … c = new.c, MariaDB and
// older MySQL VALUES(c), picked from SELECT VERSION() at Open.
//
// The hit log's list indexes are (user_id, created_at, api_service_id,
// api_key_id, outcome), (api_service_id, created_at, outcome) and
// (api_key_id, created_at, outcome), with (created_at) and (status,
// created_at) for recovery and status-only filters. outcome is the status,
// except that a pending hit reads success, so a successful settlement
// changes none of the list indexes; settlements set outcome only when a
// hit of the chunk failed. A status filter beside user, service or key
// reads failed and insufficient_balance as outcome = ?, and
// success/pending as outcome = 'success' AND status = ?.
//
// # Exports
//
// Exports read keyset pages (sqlbase/rows.go, ForEachPage) of at most
// ExportPageRows, each page's query ending before the page is written. The
// ledger and payouts page on id < last. The hit log pages on created_at < T
// alone, which its listing indexes serve in order (a tie-break on id in the
// same query made MariaDB sort every remaining row of the filter on every
// page), and reads the rows of the page's last created_at as a group of
// their own (created_at = T, keyset on id), so it keeps the list's order
// and no tie is skipped or repeated. The hit export reads one page ahead
// while the current one is written (one goroutine, at most one page
// waiting) and scans its rows without reflection; payloads are cut to 200
// characters in SQL.
//
// # Secrets, migrations written in Go, backups
//
// Repositories seal users.api_secret and api_services.provider_key on
// write and open them on read through a Sealer (sqlbase/secrets.go;
// adapters/secretbox), so the core and every cache see plaintext and the
// database only ciphertext. RotateSecrets re-seals in pages of 200 by
// conditional UPDATE … WHERE id = ? AND col = <value read> (a second run
// changes nothing); CheckSecrets, at start-up, stops the server when a
// value is sealed under a key the sealer does not hold ("set
// DATA_KEY_PREVIOUS") rather than fail every read with a 500.
//
// Two migrations are Go (gomigrations.go). 00034 (emails_migration.go)
// rewrites stored emails to user.NormalizeEmail's form (SQL has no NFKC);
// of colliding look-alikes the account that already holds the plain form
// (or, among look-alikes of a form nobody held, the oldest) gets it, the
// others keep their stored spelling, are logged at WARN with their ids,
// and lose their reset tokens. 00037 (plans_migration.go) lets users.plan
// take any plan's code: MySQL's ENUM becomes VARCHAR(50); SQLite's CHECK is
// removed by rewriting the table's schema text with writable_schema,
// SQLite's documented way for a change that leaves rows and indexes valid.
//
// Backup (backup.go) copies a running SQLite database with VACUUM INTO
// (one snapshot; writers go on) to FILE.partial, synced, then renamed;
// it refuses to overwrite. MySQL is backed up with its own tools.
package sqlstore
