package sqlstore_test

import (
	"context"
	"paygate/core/metering"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/internal/testdb"
)

// debitBatch runs a batch as the metering writer does for one user: lock
// and count n calls of key, take charge per granted call off the balance,
// save it. It returns the balance each attempt of the batch started from,
// the calls granted by the attempt that committed, and the round trips.
func debitBatch(t *testing.T, s *sqlstore.Store, trips *atomic.Int64, u *user.User, key *apikey.Key, n int, charge string) ([]decimal.Decimal, int, int64, error) {
	t.Helper()
	var seen []decimal.Decimal
	granted := 0
	before := trips.Load()
	err := s.WithinBatchTx(context.Background(), func(ctx context.Context, st metering.BatchStores) error {
		day := time.Now().UTC().Format("2006-01-02")
		users, g, err := st.Locks.LockAndCount(ctx, []uint64{u.ID}, []metering.KeyCount{{KeyID: key.ID, Day: day, N: n}}, time.Now().UTC())
		if err != nil {
			return err
		}
		locked := users[u.ID]
		seen = append(seen, locked.Balance)
		granted = g[0]
		locked.Balance = locked.Balance.Sub(decimal.RequireFromString(charge).Mul(decimal.NewFromInt(int64(granted))))
		return st.Users.SaveBalance(ctx, locked)
	})
	return seen, granted, trips.Load() - before, err
}

func balanceOf(t *testing.T, s *sqlstore.Store, id uint64) decimal.Decimal {
	t.Helper()
	u, err := s.Stores().Users.ByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u.Balance
}

// A batch after this instance's last one starts from its snapshot of the
// user's row, checked in the database: one round trip. When the row was
// changed elsewhere in between (another instance, the panel), the check
// fails, nothing of that attempt stays, and the batch runs again from the
// row read under its lock; the balance is exact. Then the user is batched
// the usual way for a while.
func TestOptimisticBatchChecksItsSnapshot(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		u := sqltest.NewUser(t, s, func(u *user.User) { u.Balance = decimal.RequireFromString("100.00") })
		key := sqltest.NewKey(t, s, u, func(k *apikey.Key) { k.DailyLimit = 1000 })

		if _, _, rt, err := debitBatch(t, s, trips, u, key, 10, "1.00"); err != nil || rt != 2 {
			t.Fatalf("first batch: %d round trips, %v; want 2 (locked read)", rt, err)
		}
		seen, _, rt, err := debitBatch(t, s, trips, u, key, 10, "1.00")
		if err != nil || rt != 1 || len(seen) != 1 || !seen[0].Equal(decimal.RequireFromString("90")) {
			t.Fatalf("second batch: from %v in %d round trips, %v; want from 90 in 1", seen, rt, err)
		}

		// A top-up elsewhere: the snapshot (80.00) is stale.
		if err := s.DB().Exec("UPDATE users SET balance = balance + 5 WHERE id = ?", u.ID).Error; err != nil {
			t.Fatal(err)
		}
		seen, _, rt, err = debitBatch(t, s, trips, u, key, 10, "1.00")
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != 2 || !seen[0].Equal(decimal.RequireFromString("80")) || !seen[1].Equal(decimal.RequireFromString("85")) {
			t.Fatalf("attempts started from %v, want the snapshot 80 and then the row 85", seen)
		}
		if rt != 4 { // the failed query, its ROLLBACK, the locked read, the rest
			t.Fatalf("%d round trips, want 4", rt)
		}
		if b := balanceOf(t, s, u.ID); !b.Equal(decimal.RequireFromString("75")) {
			t.Fatalf("balance %s, want 75", b)
		}
		var hits int
		if err := s.DB().Raw("SELECT hits_today FROM api_keys WHERE id = ?", key.ID).Scan(&hits).Error; err != nil || hits != 30 {
			t.Fatalf("key counted %d calls, %v; want 30 (the failed attempt's count rolled back)", hits, err)
		}
		if _, _, rt, err := debitBatch(t, s, trips, u, key, 1, "1.00"); err != nil || rt != 2 {
			t.Fatalf("batch after a stale snapshot: %d round trips, %v; want 2 (cooling down)", rt, err)
		}
	})
}

// A key whose calls would pass its daily limit fails the snapshot batch's
// check too: the batch runs again with the locked read, which grants what
// still fits.
func TestOptimisticBatchLeavesTheDailyLimitToTheRead(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		u := sqltest.NewUser(t, s, func(u *user.User) { u.Balance = decimal.RequireFromString("100.00") })
		key := sqltest.NewKey(t, s, u, func(k *apikey.Key) { k.DailyLimit = 5 })
		if _, g, _, err := debitBatch(t, s, trips, u, key, 3, "1.00"); err != nil || g != 3 {
			t.Fatalf("first batch granted %d, %v", g, err)
		}
		seen, g, _, err := debitBatch(t, s, trips, u, key, 4, "1.00")
		if err != nil || g != 2 || len(seen) != 2 {
			t.Fatalf("granted %d in %d attempts, %v; want 2 granted after the snapshot's attempt failed", g, len(seen), err)
		}
		if b := balanceOf(t, s, u.ID); !b.Equal(decimal.RequireFromString("95")) {
			t.Fatalf("balance %s, want 95", b)
		}
	})
}

// Every column the batch may use is part of the check, text compared byte
// for byte (the columns' collations ignore case), the secrets by hash.
func TestOptimisticBatchSeesEveryColumn(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		for _, change := range []string{
			"webhook_url = 'https://hooks.example.com/Paygate'", // was …/paygate
			"api_secret = 'whsec_other'",
			"password = '$2a$10$other'",
			"low_balance_alert = 12.50",
			"plan = 'enterprise'",
			"status = 'blocked'",
			"plan_calls = plan_calls + 1",
			"name = 'user renamed'",
		} {
			t.Run(change, func(t *testing.T) {
				u := sqltest.NewUser(t, s, func(u *user.User) {
					u.Balance = decimal.RequireFromString("10.00")
					hook, secret := "https://hooks.example.com/paygate", "whsec_one"
					u.WebhookURL, u.WebhookSecret = &hook, &secret
				})
				key := sqltest.NewKey(t, s, u)
				for i := 0; i < 2; i++ {
					if _, _, _, err := debitBatch(t, s, trips, u, key, 1, "0.00"); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.DB().Exec("UPDATE users SET "+change+" WHERE id = ?", u.ID).Error; err != nil {
					t.Fatal(err)
				}
				seen, _, _, err := debitBatch(t, s, trips, u, key, 1, "0.00")
				if err != nil || len(seen) != 2 {
					t.Fatalf("%d attempts, %v; want the snapshot's to fail its check", len(seen), err)
				}
			})
		}
	})
}

// A statement the batch runs before its COMMIT (here a read) sends the
// deferred check first; when that fails, whatever error the statement
// reports, the batch runs again from the locked read.
func TestOptimisticBatchCheckFailsAtAnEarlierStatement(t *testing.T) {
	t.Parallel()
	onMySQL(t, func(t *testing.T, s *sqlstore.Store, trips *atomic.Int64) {
		u := sqltest.NewUser(t, s, func(u *user.User) { u.Balance = decimal.RequireFromString("10.00") })
		key := sqltest.NewKey(t, s, u)
		for i := 0; i < 2; i++ {
			if _, _, _, err := debitBatch(t, s, trips, u, key, 1, "1.00"); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.DB().Exec("UPDATE users SET balance = balance + 1 WHERE id = ?", u.ID).Error; err != nil {
			t.Fatal(err)
		}
		attempts := 0
		err := s.WithinBatchTx(context.Background(), func(ctx context.Context, st metering.BatchStores) error {
			attempts++
			day := time.Now().UTC().Format("2006-01-02")
			users, _, err := st.Locks.LockAndCount(ctx, []uint64{u.ID}, []metering.KeyCount{{KeyID: key.ID, Day: day, N: 1}}, time.Now().UTC())
			if err != nil {
				return err
			}
			if _, err := st.Users.ByID(ctx, u.ID); err != nil {
				return err
			}
			locked := users[u.ID]
			locked.Balance = locked.Balance.Sub(decimal.RequireFromString("1.00"))
			return st.Users.SaveBalance(ctx, locked)
		})
		if err != nil || attempts != 2 {
			t.Fatalf("%d attempts, %v; want the second to commit", attempts, err)
		}
		if b := balanceOf(t, s, u.ID); !b.Equal(decimal.RequireFromString("8")) {
			t.Fatalf("balance %s, want 8", b)
		}
	})
}

// The optimistic batch's guard compares every column of the users table
// except those snapshotIgnored names with a reason, on both databases' schemas:
// a column added to the table is checked unless someone decides otherwise.
// On MySQL each comparison also suits its column's type: money as DECIMAL,
// text byte for byte, a nullable column with <=> (NULL matches NULL).
func TestSnapshotGuardCoversEveryUsersColumn(t *testing.T) {
	t.Parallel()
	cond, nargs := sqlstore.SnapshotCondition()
	compared := guardComparisons(t, cond, nargs)
	ignored := sqlstore.SnapshotIgnored()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		table := usersTable(t, s)
		for name := range table {
			_, isCompared := compared[name]
			reason, isIgnored := ignored[name]
			switch {
			case !isCompared && !isIgnored:
				t.Errorf("users.%s is neither compared by the snapshot guard (snapshotMatch) nor listed in snapshotIgnored", name)
			case isCompared && isIgnored:
				t.Errorf("users.%s is compared by the snapshot guard and listed in snapshotIgnored", name)
			case isIgnored && strings.TrimSpace(reason) == "":
				t.Errorf("users.%s is listed in snapshotIgnored without a reason", name)
			}
		}
		for name := range compared {
			if _, ok := table[name]; !ok {
				t.Errorf("the snapshot guard compares %s, which the users table lacks", name)
			}
		}
		for name := range ignored {
			if _, ok := table[name]; !ok {
				t.Errorf("snapshotIgnored names %s, which the users table lacks", name)
			}
		}
		if s.Dialect() != sqlstore.DialectMySQL {
			return
		}
		for name, c := range compared {
			col, ok := table[name]
			if !ok {
				continue
			}
			switch col.dataType {
			case "decimal":
				if c.rhs != "CAST(? AS DECIMAL(30, 4))" {
					t.Errorf("users.%s (decimal) compared with %q, want it cast to DECIMAL", name, c.rhs)
				}
			case "char", "varchar", "enum", "set", "text", "tinytext", "mediumtext", "longtext":
				if c.rhs != "BINARY ?" {
					t.Errorf("users.%s (%s) compared with %q, want BINARY ?", name, col.dataType, c.rhs)
				}
			}
			if col.nullable && c.op != "<=>" {
				t.Errorf("users.%s is nullable but compared with %s, want <=>", name, c.op)
			}
		}
	})
}

// guardComparison is one column's comparison in the snapshot guard.
type guardComparison struct{ op, rhs string }

// guardComparisons parses the guard's condition for one row, "(a = ? AND
// SHA2(b, 256) <=> BINARY ? AND …)", by column; nargs is its number of
// arguments, one per comparison.
func guardComparisons(t *testing.T, cond string, nargs int) map[string]guardComparison {
	t.Helper()
	body, open := strings.CutPrefix(cond, "(")
	body, closed := strings.CutSuffix(body, ")")
	if !open || !closed {
		t.Fatalf("guard condition %q is not in parentheses", cond)
	}
	one := regexp.MustCompile(`^(?:SHA2\((\w+), 256\)|(\w+)) (=|<=>) (.+)$`)
	out := map[string]guardComparison{}
	for _, part := range strings.Split(body, " AND ") {
		m := one.FindStringSubmatch(part)
		if m == nil || strings.Count(m[4], "?") != 1 {
			t.Fatalf("guard comparison %q: want <column> = or <=> one placeholder", part)
		}
		name := m[1] + m[2]
		if _, dup := out[name]; dup {
			t.Fatalf("guard compares %s twice", name)
		}
		out[name] = guardComparison{op: m[3], rhs: m[4]}
	}
	if len(out) != nargs {
		t.Fatalf("guard has %d comparisons and %d arguments", len(out), nargs)
	}
	return out
}

// usersColumn is a column of the users table as the database describes it.
type usersColumn struct {
	dataType string
	nullable bool
}

// usersTable reads the users table's columns from s's database.
func usersTable(t *testing.T, s *sqlstore.Store) map[string]usersColumn {
	t.Helper()
	q := `SELECT name, LOWER(type), "notnull" = 0 FROM pragma_table_info('users')`
	if s.Dialect() == sqlstore.DialectMySQL {
		q = "SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE = 'YES' FROM information_schema.COLUMNS " +
			"WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'users'"
	}
	rows, err := s.DB().Raw(q).Rows()
	if err != nil {
		t.Fatalf("read the users table's columns: %v", err)
	}
	defer rows.Close()
	out := map[string]usersColumn{}
	for rows.Next() {
		var name string
		var c usersColumn
		if err := rows.Scan(&name, &c.dataType, &c.nullable); err != nil {
			t.Fatal(err)
		}
		out[name] = c
	}
	if err := rows.Err(); err != nil || len(out) == 0 {
		t.Fatalf("read the users table's columns: %d, %v", len(out), err)
	}
	return out
}
