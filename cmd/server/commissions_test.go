package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/core/accounts/user"
	"paygate/core/app"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/resale/settlement"
)

// instanceIn is another instance on its own connection, with TIMEZONE loc.
func (f *invoiceFixture) instanceIn(loc *time.Location) *app.App {
	f.t.Helper()
	s, err := sqlstore.Open(context.Background(), f.url, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { s.Close() })
	return app.New(app.Deps{Tx: s, Stores: s.Stores(), Names: s.Names(), Exports: s.Exports(), Config: app.Config{Location: loc}})
}

// Two instances' commission workers and `server commissions settle` race
// over the same reseller-hours, each with another TIMEZONE (UTC,
// America/St_Johns at -03:30, Asia/Kolkata at +05:30; issue 43 (8)): each
// UTC hour is credited once, every hit by exactly one settlement, with
// what its successful hits earned (a refunded call earns nothing), and
// the ledger check agrees.
func TestCommissionsSettleRace(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newInvoiceFixture(t, url)
		ctx := context.Background()
		rid := f.user("reseller@example.com", user.PlanStarter, "0")
		var customers []uint64
		for i := range 2 {
			u := &user.User{Name: "c", Email: fmt.Sprintf("cust%d@example.com", i), Phone: fmt.Sprintf("91234%05d", i), PasswordHash: "$2a$10$x",
				Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter, Balance: decimal.Zero, TotalSpent: decimal.Zero,
				ParentID: &rid, CreatedAt: time.Now(), UpdatedAt: time.Now()}
			if err := f.store.Stores().Users.Create(ctx, u); err != nil {
				t.Fatal(err)
			}
			customers = append(customers, u.ID)
		}
		now := time.Now().UTC()
		var hits []*hitlog.Hit
		for i := range 40 {
			st, c := hitlog.StatusSuccess, "0.2500"
			if i%4 == 0 {
				st, c = hitlog.StatusFailed, "0"
			}
			at := now.Add(-time.Duration(i+5) * 23 * time.Minute)
			hits = append(hits, &hitlog.Hit{UserID: customers[i%2], ServiceID: 1, APIKeyID: 1, RequestID: fmt.Sprintf("cs-%d", i), RequestPayload: "{}",
				Status: st, ResellerID: &rid, Commission: decimal.RequireFromString(c), ChargeAmount: decimal.Zero, CostAmount: decimal.Zero,
				Reserved: decimal.Zero, IPAddress: "127.0.0.1", CreatedAt: at, UpdatedAt: at})
		}
		if err := f.store.Stores().Hits.InsertMany(ctx, hits); err != nil {
			t.Fatal(err)
		}
		stJohns, err := time.LoadLocation("America/St_Johns")
		if err != nil {
			t.Fatal(err)
		}
		a, b := f.instanceIn(time.UTC), f.instanceIn(stJohns)
		var wg sync.WaitGroup
		errs := make([]error, 3)
		out := &syncBuffer{}
		wg.Go(func() { _, errs[0] = a.Commissions.Run(ctx) })
		wg.Go(func() { _, errs[1] = b.Commissions.Run(ctx) })
		wg.Go(func() {
			env := map[string]string{"DATABASE_URL": url, "TIMEZONE": "Asia/Kolkata"}
			errs[2] = run(ctx, []string{"commissions", "settle", "--at", now.Add(-3 * time.Minute).Format(time.RFC3339)},
				func(k string) string { return env[k] }, out)
		})
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("settler %d: %v", i, err)
			}
		}
		if !strings.Contains(out.String(), "commissions settle before") {
			t.Fatalf("CLI output: %s", out.String())
		}
		list, err := f.store.Stores().Commissions.List(ctx, settlement.Filter{ResellerID: &rid})
		if err != nil {
			t.Fatal(err)
		}
		seen, settled := map[int64]bool{}, decimal.Zero
		for _, s := range list {
			if seen[s.HourStart.Unix()] {
				t.Fatalf("hour %s credited twice", s.HourStart)
			}
			if !s.HourStart.Equal(s.HourStart.Truncate(time.Hour)) {
				t.Errorf("settlement %d keyed by %s, not a UTC hour", s.ID, s.HourStart)
			}
			seen[s.HourStart.Unix()] = true
			settled = settled.Add(s.Amount)
		}
		// 30 successful hits of 0.25 over hours all closed: 7.50.
		if len(list) < 10 || !settled.Equal(decimal.RequireFromString("7.50")) {
			t.Fatalf("%d settlements of %s, want 7.50 in all", len(list), settled)
		}
		for _, h := range hits {
			got, err := f.store.Stores().Hits.ByRequestID(ctx, h.RequestID)
			if err != nil {
				t.Fatal(err)
			}
			if (got.Status == hitlog.StatusSuccess) != (got.CommissionSettlementID != nil) {
				t.Errorf("hit %s (%s) credited by %v", got.RequestID, got.Status, got.CommissionSettlementID)
			}
		}
		credits := decimal.Zero
		err = f.store.Stores().Ledger.ForEachByUser(ctx, rid, func(e ledger.Entry) error {
			if e.ReferenceType == settlement.RefCommission {
				credits = credits.Add(e.Amount)
			}
			return nil
		})
		if err != nil || !credits.Equal(settled) {
			t.Fatalf("credited %s (%v), settled %s", credits, err, settled)
		}
		check := &syncBuffer{}
		env := map[string]string{"DATABASE_URL": url, "TIMEZONE": "Asia/Kolkata"}
		if err := run(ctx, []string{"ledger", "check"}, func(k string) string { return env[k] }, check); err != nil ||
			!strings.Contains(check.String(), "ledger check: ok") {
			t.Fatalf("ledger check: %v\n%s", err, check.String())
		}
		// A settlement whose hits earned less is caught.
		if err := f.store.DB().Exec("UPDATE api_hit_logs SET commission = 0 WHERE request_id = ?", "cs-1").Error; err != nil {
			t.Fatal(err)
		}
		check = &syncBuffer{}
		if err := run(ctx, []string{"ledger", "check"}, func(k string) string { return env[k] }, check); err == nil ||
			!strings.Contains(check.String(), "its hits billed and not refunded earned") {
			t.Fatalf("ledger check after a corruption: %v\n%s", err, check.String())
		}
	})
}
