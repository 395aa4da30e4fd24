package sqlstore_test

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"paygate/core/platform/store"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/internal/testdb"
	"paygate/migrations"
)

func TestMigrationsApplyAndAreIdempotent(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("second Migrate: %v", err)
		}
		tables := []string{
			"users", "password_reset_tokens", "personal_access_tokens", "api_services", "api_pricing",
			"api_keys", "api_hit_logs", "balance_requests", "transactions", "api_documentations", "settings",
			"audit_logs",
		}
		for _, table := range tables {
			if !s.DB().Migrator().HasTable(table) {
				t.Errorf("table %s missing", table)
			}
		}
		var version int64
		if err := s.DB().Raw("SELECT MAX(version_id) FROM goose_db_version").Scan(&version).Error; err != nil {
			t.Fatalf("read goose version: %v", err)
		}
		if want := max(latestMigration(t, s.Dialect()), sqlstore.NewestGoMigration); version != want {
			t.Fatalf("goose version = %d, want %d (the newest file in migrations/%s or Go migration)", version, want, s.Dialect())
		}
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("Ping: %v", err)
		}
		if d := s.Dialect(); d != t.Name()[len(t.Name())-len(d):] {
			t.Fatalf("Dialect() = %q in subtest %s", d, t.Name())
		}
	})
}

func TestUsers(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		users := s.Stores().Users
		alert := sqltest.Dec(t, "50.00")
		u := sqltest.NewUser(t, s, func(u *user.User) {
			u.Balance = sqltest.Dec(t, "10.50")
			u.LowBalanceAlert = &alert
		})
		if u.ID == 0 || u.CreatedAt.IsZero() {
			t.Fatalf("Create did not set id and created_at: %+v", u)
		}

		got, err := users.ByID(ctx, u.ID)
		if err != nil {
			t.Fatalf("ByID: %v", err)
		}
		if got.Email != u.Email || got.Phone != u.Phone || got.Role != user.RoleUser || got.Plan != user.PlanStarter {
			t.Fatalf("ByID = %+v, want %+v", got, u)
		}
		sqltest.MustEqualDec(t, "balance", got.Balance, "10.50")
		sqltest.MustEqualDec(t, "low_balance_alert", *got.LowBalanceAlert, "50")
		if got.CreatedAt.Location() != time.UTC || !got.CreatedAt.Equal(u.CreatedAt) {
			t.Fatalf("created_at = %v, want %v in UTC", got.CreatedAt, u.CreatedAt)
		}
		if got.APIKey != nil || got.WebhookSecret != nil || got.DeletedAt != nil || got.PlanMonth != "" {
			t.Fatalf("optional fields should be empty: %+v", got)
		}

		byEmail, err := users.ByEmail(ctx, u.Email)
		if err != nil || byEmail.ID != u.ID {
			t.Fatalf("ByEmail = %v, %v", byEmail, err)
		}

		// Not found.
		if _, err := users.ByID(ctx, 999999); !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("ByID(missing) err = %v, want user.ErrNotFound", err)
		}
		if _, err := users.ByEmail(ctx, "nobody@example.com"); !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("ByEmail(missing) err = %v", err)
		}
		if err := users.Update(ctx, &user.User{ID: 999999, Name: "x", Phone: "1"}); !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("Update(missing) err = %v", err)
		}

		// Duplicates are told apart by the index that refused them.
		dupEmail := *u
		dupEmail.Phone = "9999999999"
		if err := users.Create(ctx, &dupEmail); !errors.Is(err, user.ErrEmailTaken) {
			t.Fatalf("duplicate email err = %v, want ErrEmailTaken", err)
		}
		dupPhone := *u
		dupPhone.Email = "other@example.com"
		if err := users.Create(ctx, &dupPhone); !errors.Is(err, user.ErrPhoneTaken) {
			t.Fatalf("duplicate phone err = %v, want ErrPhoneTaken", err)
		}
		other := sqltest.NewUser(t, s)
		other.Phone = u.Phone
		if err := users.Update(ctx, other); !errors.Is(err, user.ErrPhoneTaken) {
			t.Fatalf("update to a taken phone err = %v, want ErrPhoneTaken", err)
		}

		// Update writes the profile fields, including NULLs.
		key, secret, hook := "rk_live_abc", "whsec_x", "https://hooks.example.com/x"
		verified := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.FixedZone("IST", 19800))
		u.Name, u.Role, u.Status, u.Plan = "Renamed", user.RoleReseller, user.StatusBlocked, user.PlanEnterprise
		u.APIKey, u.WebhookSecret, u.WebhookURL, u.EmailVerifiedAt = &key, &secret, &hook, &verified
		u.LowBalanceAlert = nil
		u.UpdatedAt = time.Now()
		if err := users.Update(ctx, u); err != nil {
			t.Fatalf("Update: %v", err)
		}
		got, _ = users.ByID(ctx, u.ID)
		if got.Name != "Renamed" || got.Role != user.RoleReseller || got.Status != user.StatusBlocked ||
			got.Plan != user.PlanEnterprise || *got.APIKey != key || *got.WebhookSecret != secret || *got.WebhookURL != hook {
			t.Fatalf("after Update: %+v", got)
		}
		if got.LowBalanceAlert != nil {
			t.Fatalf("low_balance_alert = %v, want NULL", got.LowBalanceAlert)
		}
		if !got.EmailVerifiedAt.Equal(verified.Truncate(time.Microsecond)) {
			t.Fatalf("email_verified_at = %v, want %v", got.EmailVerifiedAt, verified)
		}
		sqltest.MustEqualDec(t, "balance after Update", got.Balance, "10.50") // Update never touches money

		// SaveBalance writes money and the plan counter only.
		u.Balance, u.TotalSpent, u.PlanMonth, u.PlanCalls = sqltest.Dec(t, "7.25"), sqltest.Dec(t, "3.25"), "2026-01", 4
		u.Name = "not saved"
		if err := users.SaveBalance(ctx, u); err != nil {
			t.Fatalf("SaveBalance: %v", err)
		}
		got, _ = users.ByID(ctx, u.ID)
		sqltest.MustEqualDec(t, "balance", got.Balance, "7.25")
		sqltest.MustEqualDec(t, "total_spent", got.TotalSpent, "3.25")
		if got.PlanMonth != "2026-01" || got.PlanCalls != 4 || got.Name != "Renamed" {
			t.Fatalf("after SaveBalance: %+v", got)
		}

		// A balance with more places than its column is refused, not rounded.
		u.Balance = sqltest.Dec(t, "1.005")
		if err := users.SaveBalance(ctx, u); err == nil {
			t.Fatal("SaveBalance accepted 1.005 for a DECIMAL(12,2) column")
		}
		// The database refuses a negative balance too.
		u.Balance = sqltest.Dec(t, "-1.00")
		if err := users.SaveBalance(ctx, u); err == nil {
			t.Fatal("SaveBalance accepted a negative balance")
		}

		// Soft delete: ByID still finds the user; List and CountByRole do not.
		now := time.Now()
		u.DeletedAt = &now
		if err := users.Update(ctx, u); err != nil {
			t.Fatalf("soft delete: %v", err)
		}
		got, err = users.ByID(ctx, u.ID)
		if err != nil || !got.IsDeleted() {
			t.Fatalf("ByID of a deleted user = %+v, %v", got, err)
		}
	})
}

func TestUsersListIDsAndCount(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		users := s.Stores().Users
		var ids []uint64
		for i := 0; i < 25; i++ {
			u := sqltest.NewUser(t, s, func(u *user.User) {
				if i%5 == 0 {
					u.Role = user.RoleReseller
				}
				if i == 3 {
					u.Name = "Percy 100%_match"
				}
			})
			ids = append(ids, u.ID)
		}
		admin := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleAdmin })
		ids = append(ids, admin.ID)
		deleted := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleAdmin })
		ids = append(ids, deleted.ID)
		now := time.Now()
		deleted.DeletedAt = &now
		if err := users.Update(ctx, deleted); err != nil {
			t.Fatal(err)
		}

		list, total, err := users.List(ctx, user.Filter{})
		if err != nil {
			t.Fatalf("List: %v", err)
		}
		if total != 26 || len(list) != 20 {
			t.Fatalf("List() = %d rows, total %d; want 20 of 26", len(list), total)
		}
		if list[0].ID != admin.ID || list[0].ID < list[1].ID {
			t.Fatalf("List is not newest first: %d, %d", list[0].ID, list[1].ID)
		}
		page2, _, _ := users.List(ctx, user.Filter{Page: 2})
		if len(page2) != 6 {
			t.Fatalf("page 2 has %d rows, want 6", len(page2))
		}
		big, _, _ := users.List(ctx, user.Filter{PerPage: 1000})
		if len(big) != 26 {
			t.Fatalf("per_page 1000 returned %d rows", len(big))
		}

		resellers, total, _ := users.List(ctx, user.Filter{Role: user.RoleReseller, PerPage: 100})
		if total != 5 || len(resellers) != 5 {
			t.Fatalf("resellers: %d rows, total %d; want 5", len(resellers), total)
		}
		// LIKE wildcards in the query are literal.
		hits, total, _ := users.List(ctx, user.Filter{Q: "100%_m"})
		if total != 1 || hits[0].Name != "Percy 100%_match" {
			t.Fatalf("Q=100%%_m: %d rows", total)
		}
		hits, total, _ = users.List(ctx, user.Filter{Q: "PERCY"})
		if total != 1 || len(hits) != 1 {
			t.Fatalf("Q is not case-insensitive: %d rows", total)
		}
		_, total, _ = users.List(ctx, user.Filter{Q: "%"})
		if total != 1 {
			t.Fatalf("Q=%% matched %d rows, want only the name containing %%", total)
		}

		gotIDs, err := users.IDs(ctx)
		if err != nil || len(gotIDs) != len(ids) {
			t.Fatalf("IDs = %v, %v", gotIDs, err)
		}
		for i := range ids {
			if gotIDs[i] != ids[i] {
				t.Fatalf("IDs not ascending: %v", gotIDs)
			}
		}
		n, err := users.CountByRole(ctx, user.RoleAdmin)
		if err != nil || n != 1 {
			t.Fatalf("CountByRole(admin) = %d, %v; want 1 (the deleted admin does not count)", n, err)
		}
	})
}

func TestLockByIDSerialisesBalanceChanges(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			locked, err := st.Users.LockByID(ctx, u.ID)
			if err != nil {
				return err
			}
			locked.Balance = locked.Balance.Add(decimal.RequireFromString("1.00"))
			return st.Users.SaveBalance(ctx, locked)
		})
		if err != nil {
			t.Fatalf("WithinTx: %v", err)
		}
		err = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			_, err := st.Users.LockByID(ctx, 987654)
			return err
		})
		if !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("LockByID(missing) err = %v", err)
		}
		got, _ := s.Stores().Users.ByID(ctx, u.ID)
		sqltest.MustEqualDec(t, "balance", got.Balance, "1.00")
	})
}

// latestMigration is the version of the newest migration file of dialect.
func latestMigration(t *testing.T, dialect string) int64 {
	t.Helper()
	files, err := fs.Glob(migrations.FS, dialect+"/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations for %s: %v", dialect, err)
	}
	var latest int64
	for _, f := range files {
		num, _, _ := strings.Cut(path.Base(f), "_")
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			t.Fatalf("migration %s: %v", f, err)
		}
		latest = max(latest, v)
	}
	return latest
}

// MySQL commits DDL statement by statement: a start that stopped half-way
// through the first migration must be finished by the next start.
func TestMySQLMigrationFinishesAHalfAppliedRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := testdb.MySQLURL(t)
	s, err := sqlstore.Open(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.MigrateTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// Undo the end of the first run: its last tables and goose's record of it.
	for _, q := range []string{
		"DROP TABLE settings", "DROP TABLE api_documentations", "DELETE FROM goose_db_version WHERE version_id = 1",
	} {
		if err := s.DB().Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate after a half-applied run: %v", err)
	}
	for _, table := range []string{"settings", "audit_logs"} {
		if !s.DB().Migrator().HasTable(table) {
			t.Fatalf("table %s was not created", table)
		}
	}
}
