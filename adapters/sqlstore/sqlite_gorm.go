package sqlstore

import (
	"strconv"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/callbacks"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"
)

// sqliteGorm is GORM's dialect for SQLite over modernc.org/sqlite, the
// maintained pure-Go driver (decisions: "SQLite through modernc.org/sqlite's
// own driver"). It is the part of a dialect the store uses: the schema comes
// from migrations/ through goose, never from GORM's migrator, so DataTypeOf
// only has to name plausible types for GORM's own bookkeeping.
type sqliteGorm struct {
	conn gorm.ConnPool
}

func (sqliteGorm) Name() string { return DialectSQLite }

// Initialize registers GORM's callbacks with RETURNING (SQLite ≥ 3.35,
// which every modernc.org/sqlite release since 2021 carries) and the clause
// builders SQLite's grammar needs.
func (d sqliteGorm) Initialize(db *gorm.DB) error {
	db.ConnPool = d.conn
	callbacks.RegisterDefaultCallbacks(db, &callbacks.Config{
		CreateClauses:        []string{"INSERT", "VALUES", "ON CONFLICT", "RETURNING"},
		UpdateClauses:        []string{"UPDATE", "SET", "FROM", "WHERE", "RETURNING"},
		DeleteClauses:        []string{"DELETE", "FROM", "WHERE", "RETURNING"},
		LastInsertIDReversed: true, // SQLite reports a multi-row INSERT's last id
	})
	for name, build := range map[string]clause.ClauseBuilder{
		"LIMIT": sqliteLimit,
		"FOR":   sqliteNoLocking,
	} {
		db.ClauseBuilders[name] = build
	}
	return nil
}

// sqliteLimit writes LIMIT/OFFSET; SQLite needs a LIMIT before an OFFSET,
// and -1 means no limit.
func sqliteLimit(c clause.Clause, b clause.Builder) {
	l, ok := c.Expression.(clause.Limit)
	if !ok {
		c.Build(b)
		return
	}
	limit := -1
	if l.Limit != nil && *l.Limit >= 0 {
		limit = *l.Limit
	}
	if limit < 0 && l.Offset <= 0 {
		return
	}
	b.WriteString("LIMIT " + strconv.Itoa(limit))
	if l.Offset > 0 {
		b.WriteString(" OFFSET " + strconv.Itoa(l.Offset))
	}
}

// sqliteNoLocking drops FOR UPDATE/SHARE: SQLite has no row locks; the
// store's transactions begin IMMEDIATE and hold the database's write lock.
func sqliteNoLocking(c clause.Clause, b clause.Builder) {
	if _, ok := c.Expression.(clause.Locking); ok {
		return
	}
	c.Build(b)
}

func (sqliteGorm) DefaultValueOf(field *schema.Field) clause.Expression {
	if field.AutoIncrement {
		return clause.Expr{SQL: "NULL"}
	}
	return clause.Expr{SQL: "DEFAULT"}
}

func (d sqliteGorm) Migrator(db *gorm.DB) gorm.Migrator {
	return sqliteMigrator{migrator.Migrator{Config: migrator.Config{DB: db, Dialector: d, CreateIndexAfterCreateTable: true}}}
}

// sqliteMigrator is GORM's generic migrator, which reads
// information_schema, with the catalog lookups the store and its tests use
// answered from sqlite_master instead.
type sqliteMigrator struct{ migrator.Migrator }

// HasTable reports whether the table exists.
func (m sqliteMigrator) HasTable(value any) bool {
	var n int
	_ = m.RunWithValue(value, func(stmt *gorm.Statement) error {
		return m.DB.Raw("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", stmt.Table).Row().Scan(&n)
	})
	return n > 0
}

func (sqliteGorm) BindVarTo(w clause.Writer, _ *gorm.Statement, _ any) { w.WriteByte('?') }

// QuoteTo quotes each dot-separated part of an identifier in backticks
// (SQLite accepts MySQL's quoting), doubling any backtick inside.
func (sqliteGorm) QuoteTo(w clause.Writer, str string) {
	for i, part := range strings.Split(str, ".") {
		if i > 0 {
			w.WriteByte('.')
		}
		w.WriteByte('`')
		w.WriteString(strings.ReplaceAll(strings.Trim(part, "`"), "`", "``"))
		w.WriteByte('`')
	}
}

func (sqliteGorm) Explain(sql string, vars ...any) string {
	return logger.ExplainSQL(sql, nil, `"`, vars...)
}

func (sqliteGorm) DataTypeOf(field *schema.Field) string {
	switch field.DataType {
	case schema.Bool:
		return "numeric"
	case schema.Int, schema.Uint:
		return "integer"
	case schema.Float:
		return "real"
	case schema.String:
		return "text"
	case schema.Time:
		return "datetime"
	case schema.Bytes:
		return "blob"
	}
	return string(field.DataType)
}

// SavePoint and RollbackTo serve GORM's nested transactions.
func (sqliteGorm) SavePoint(tx *gorm.DB, name string) error {
	return tx.Exec("SAVEPOINT " + name).Error
}

func (sqliteGorm) RollbackTo(tx *gorm.DB, name string) error {
	return tx.Exec("ROLLBACK TO SAVEPOINT " + name).Error
}
