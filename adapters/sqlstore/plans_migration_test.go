package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
)

// Migration 00037 lets users.plan hold any plan's code: before it, the
// column refuses a code other than starter and enterprise (MySQL's ENUM,
// SQLite's CHECK); after it, a user on an added plan is stored and read
// back, the rows that were there are intact, and the plan's allowance
// reaches its users' rows.
func TestMigrationOpensUsersPlanToAddedPlans(t *testing.T) {
	eachAtVersion(t, 36, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		db := s.DB()
		if err := db.Exec("INSERT INTO users (id, name, email, phone, password, plan) VALUES (1, 'A', 'a@ex.com', '9876500001', 'x', 'enterprise')").Error; err != nil {
			t.Fatal(err)
		}
		// Strict mode or the CHECK refuses the code (MariaDB's non-strict
		// mode would store '' with a warning instead, which is as wrong).
		err := db.Exec("INSERT INTO users (id, name, email, phone, password, plan) VALUES (2, 'B', 'b@ex.com', '9876500002', 'x', 'growth')").Error
		var stored string
		db.Raw("SELECT plan FROM users WHERE id = 2").Scan(&stored)
		if err == nil && stored == "growth" {
			t.Fatal("before 00037 users.plan took a code other than the two seeded")
		}
		db.Exec("DELETE FROM users WHERE id = 2")
		if err := s.MigrateTo(ctx, 37); err != nil {
			t.Fatal(err)
		}

		st := s.Stores()
		calls := 1000
		price := decimal.RequireFromString("300.00")
		growth := &plan.Plan{Code: "growth", Name: "Growth", MonthlyPrice: &price, MonthlyCalls: &calls, Features: []string{"1000 calls"},
			Public: true, Status: plan.StatusActive, CreatedAt: time.Now(), UpdatedAt: time.Now()}
		if err := st.Plans.Create(ctx, growth); err != nil {
			t.Fatal(err)
		}
		if err := st.Plans.Create(ctx, &plan.Plan{Code: "growth", Name: "Again", Features: []string{}, Status: plan.StatusActive}); !errors.Is(err, plan.ErrCodeTaken) {
			t.Fatalf("a second growth: %v, want plan_code_taken", err)
		}
		if err := s.Migrate(ctx); err != nil { // the store reads and writes users as the current schema has them
			t.Fatal(err)
		}
		u := sqltest.NewUser(t, s, func(u *user.User) { u.Plan = "growth" })
		got, err := st.Users.ByID(ctx, u.ID)
		if err != nil || got.Plan != "growth" || got.MonthlyCalls == nil || *got.MonthlyCalls != 1000 {
			t.Fatalf("user on growth: %+v %v", got, err)
		}
		old, err := st.Users.ByID(ctx, 1)
		if err != nil || old.Plan != user.PlanEnterprise || old.MonthlyCalls != nil || old.Email != "a@ex.com" {
			t.Fatalf("the row from before: %+v %v", old, err)
		}
		calls = 2000
		growth.MonthlyCalls = &calls
		if err := st.Plans.Update(ctx, growth); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.Users.ByID(ctx, u.ID); got.MonthlyCalls == nil || *got.MonthlyCalls != 2000 {
			t.Fatalf("allowance after the plan's edit: %+v", got.MonthlyCalls)
		}
		if err := s.Migrate(ctx); err != nil { // the rest, and again: nothing to do
			t.Fatal(err)
		}
	})
}

// Migration 00040 opens a subscription for every existing user, on the
// plan their row names at its price, in the store zone's current month,
// whose period is waived: nothing is charged, no ledger row is written.
func TestMigrationOpensSubscriptionsOfExistingUsers(t *testing.T) {
	eachAtVersion(t, 39, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		db := s.DB()
		for i, plan := range []string{"starter", "enterprise"} {
			if err := db.Exec("INSERT INTO users (id, name, email, phone, password, plan) VALUES (?, 'U', ?, ?, 'x', ?)",
				i+1, fmt.Sprintf("u%d@ex.com", i), fmt.Sprintf("987650000%d", i), plan).Error; err != nil {
				t.Fatal(err)
			}
		}
		kolkata, _ := time.LoadLocation("Asia/Kolkata")
		s.SetZone(kolkata)
		if err := s.MigrateTo(ctx, 40); err != nil {
			t.Fatal(err)
		}
		month := time.Now().In(kolkata).Format("2006-01")
		for id, want := range map[uint64]string{1: "starter", 2: "enterprise"} {
			sub, err := s.Stores().Subscriptions.ByUser(ctx, id)
			if err != nil || sub.PlanCode != want || sub.Period != month || !sub.Price.IsZero() || sub.Status != plan.SubActive {
				t.Fatalf("user %d: %+v %v", id, sub, err)
			}
			p, err := s.Stores().Subscriptions.PeriodOf(ctx, id, month)
			if err != nil || p.Status != plan.PeriodWaived || !p.Amount.IsZero() {
				t.Fatalf("user %d's first period: %+v %v", id, p, err)
			}
		}
		var entries int64
		db.Raw("SELECT COUNT(*) FROM transactions").Scan(&entries)
		if entries != 0 {
			t.Fatalf("%d ledger rows", entries)
		}
	})
}
