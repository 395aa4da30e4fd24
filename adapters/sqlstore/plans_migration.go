package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/billingstore"
)

// openPlanCodesVersion is migration 00037 of both dialects, in Go because
// SQLite cannot alter a column: users.plan, until now one of the two seeded
// codes (an ENUM on MySQL, a CHECK on SQLite), takes any plan's code, as
// admins now add plans (docs/decisions.md, "Plans that bill"). Which codes
// exist is the plans table's to say; the panel checks it.
const openPlanCodesVersion = 37

func (s *Store) openPlanCodes(ctx context.Context, tx *sql.Tx) error {
	if s.dialect == DialectMySQL {
		_, err := tx.ExecContext(ctx, "ALTER TABLE users MODIFY plan VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'starter'")
		return err
	}
	return dropPlanCheck(ctx, tx)
}

// planCheck is users.plan's column as migration 00001 of SQLite wrote it.
var planCheck = regexp.MustCompile(`plan\s+VARCHAR\(10\) NOT NULL DEFAULT 'starter' CHECK \(plan IN \('starter', 'enterprise'\)\)`)

// dropPlanCheck removes the CHECK by SQLite's documented procedure for
// changes that leave the stored rows and indexes valid (a dropped CHECK
// does): rewrite the table's schema text with writable_schema, bump the
// schema version so that every connection reloads it, and check integrity
// (sqlite.org/lang_altertable.html, "Making Other Kinds Of Table Schema
// Changes").
func dropPlanCheck(ctx context.Context, tx *sql.Tx) error {
	var schema string
	if err := tx.QueryRowContext(ctx, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'users'").Scan(&schema); err != nil {
		return fmt.Errorf("read the users table's schema: %w", err)
	}
	if !planCheck.MatchString(schema) {
		return fmt.Errorf("users.plan is not as migration 00001 wrote it; change it by hand: %q", schema)
	}
	var version int64
	if err := tx.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&version); err != nil {
		return fmt.Errorf("read the schema version: %w", err)
	}
	steps := []struct {
		sql  string
		args []any
	}{
		{"PRAGMA writable_schema = ON", nil},
		{"UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = 'users'",
			[]any{planCheck.ReplaceAllLiteralString(schema, "plan VARCHAR(50) NOT NULL DEFAULT 'starter'")}},
		{fmt.Sprintf("PRAGMA schema_version = %d", version+1), nil},
		{"PRAGMA writable_schema = OFF", nil},
	}
	for _, st := range steps {
		if _, err := tx.ExecContext(ctx, st.sql, st.args...); err != nil {
			return fmt.Errorf("drop the CHECK of users.plan (%s): %w", st.sql, err)
		}
	}
	var ok string
	if err := tx.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		return fmt.Errorf("integrity after dropping the CHECK of users.plan: %q %v", ok, err)
	}
	return nil
}

// openSubscriptionsVersion is migration 00040 of both dialects, in Go
// because the month is TIMEZONE's (the zone SetZone gave the store before
// Migrate; UTC without one): every user without a subscription gets one on
// the plan their row names, its current local month as the first period,
// waived (nothing charged retroactively), as the billing step does for
// accounts made later.
const openSubscriptionsVersion = 40

func (s *Store) openSubscriptions(ctx context.Context, tx *sql.Tx) error {
	loc := s.zone.Load()
	if loc == nil {
		loc = time.UTC
	}
	now := time.Now()
	month := now.In(loc).Format("2006-01")
	start, err := time.ParseInLocation("2006-01", month, loc)
	if err != nil {
		return err
	}
	db := s.db.WithContext(ctx).Session(&gorm.Session{NewDB: true})
	db.Statement.ConnPool = tx
	n, err := (&billingstore.SubscriptionStore{Base: s.baseOn(db)}).Open(ctx, month, start, start.AddDate(0, 1, 0), now)
	if err != nil {
		return err
	}
	if n > 0 {
		s.log.Info("subscriptions opened for existing users", "count", n, "period", month)
	}
	return nil
}
