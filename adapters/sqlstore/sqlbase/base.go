package sqlbase

import (
	"context"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Base is what every repository holds: a handle on the database or on one
// transaction, and the dialect.
type Base struct {
	DB       *gorm.DB
	MySQL    bool
	Conflict ConflictSyntax // how an upsert names the row not inserted (upsert.go)
	// ConsecutiveIDs: a multi-row INSERT takes consecutive ids (SQLite;
	// MySQL with innodb_autoinc_lock_mode ≤ 1 and an increment of 1).
	ConsecutiveIDs bool
	Sealer         Sealer                         // the secret columns' (secrets.go)
	ExportPage     int                            // rows per keyset page of an export (ForEachPage)
	Zone           *atomic.Pointer[time.Location] // the usage roll-up's (Store.SetZone)
}

// Conn is the handle bound to ctx.
func (b Base) Conn(ctx context.Context) *gorm.DB { return b.DB.WithContext(ctx) }

// ByPrimaryKey starts a statement on model's table for rows picked by
// primary key plus other conditions (a conditional "id = ? AND status = ?"
// update). On MySQL it forces the primary key: on a table with few rows
// matching the other condition (a fresh table, or few pending rows) the
// optimizer may otherwise read through the status index, take next-key
// locks on every row it scans there, and deadlock (1213, answered 503)
// with a concurrent update of another row that holds its primary key
// record and needs its status index entry (decisions: "Conditional
// updates by primary key").
func (b Base) ByPrimaryKey(ctx context.Context, model tabler) *gorm.DB {
	q := b.Conn(ctx).Model(model)
	if b.MySQL {
		q = q.Table(model.TableName() + ForcePrimary)
	}
	return q
}

// tabler is a row model that names its table (GORM's schema.Tabler).
type tabler interface{ TableName() string }

// ForcePrimary follows a table name in MySQL statements that pick rows by
// primary key plus other conditions (ByPrimaryKey, meteringstore's
// hitsByPrimaryKey).
const ForcePrimary = " FORCE INDEX (PRIMARY)"

// Locking makes q's read lock its rows until the transaction ends (SELECT
// … FOR UPDATE). SQLite needs no row lock: its transactions begin
// IMMEDIATE and hold the database's write lock.
func (b Base) Locking(q *gorm.DB) *gorm.DB {
	if b.MySQL {
		return q.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate})
	}
	return q
}

// InsertIgnore starts an INSERT that skips rows a unique key refuses.
func (b Base) InsertIgnore() string {
	if b.MySQL {
		return "INSERT IGNORE INTO "
	}
	return "INSERT OR IGNORE INTO "
}
