package resalestore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/money/ledger/check"
	"paygate/core/platform/store"
	"paygate/core/resale/commission"
	"paygate/core/resale/settlement"
	"paygate/internal/testdb"
	"paygate/migrations"
)

// TestCommissionSettlersRace: two workers' rounds and the CLI's settle the
// same reseller-hours at once, on SQLite and MariaDB, each on an instance
// with another TIMEZONE (issue 43 (8)), after a settlement written before
// hours were UTC (keyed by an Asia/Kolkata half hour, its hits marked as
// the migration marks them): each hour is credited once (the loser of an
// hour rolls back), every hit is credited exactly once, and what was
// credited is what the hits earned; refunded calls earn nothing.
func TestCommissionSettlersRace(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		loc, _ := time.LoadLocation("Asia/Kolkata")
		reseller := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		rid := reseller.ID
		var customers []*user.User
		for range 3 {
			customers = append(customers, sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &rid }))
		}
		_, svc, _ := sqltest.NewCaller(t, s)
		now := time.Now().UTC()
		var hits []*hitlog.Hit
		want := decimal.Zero
		for i := range 60 {
			c := customers[i%3]
			k := sqltest.NewKey(t, s, c)
			st, comm := hitlog.StatusSuccess, "0.1500"
			if i%5 == 0 {
				st, comm = hitlog.StatusFailed, "0" // refunded: earns nothing
			} else {
				want = want.Add(decimal.RequireFromString(comm))
			}
			at := now.Add(-time.Duration(i+3) * 17 * time.Minute)
			hits = append(hits, &hitlog.Hit{UserID: c.ID, ServiceID: svc.ID, APIKeyID: k.ID, RequestID: fmt.Sprintf("cr-%d-%d", sqltest.Next(), i),
				RequestPayload: "{}", Status: st, ResellerID: &rid, Commission: decimal.RequireFromString(comm),
				ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1", CreatedAt: at, UpdatedAt: at})
		}
		if err := s.Stores().Hits.InsertMany(ctx, hits); err != nil {
			t.Fatal(err)
		}
		// The legacy settlement: the local hour (+05:30) holding the
		// oldest successful hit, credited as the old settler did.
		var legacyHits int
		legacyAmount := decimal.Zero
		var oldest *hitlog.Hit
		for _, h := range hits {
			if h.Status == hitlog.StatusSuccess {
				oldest = h // hits are made newest first
			}
		}
		lh := oldest.CreatedAt.In(loc)
		legacyStart := time.Date(lh.Year(), lh.Month(), lh.Day(), lh.Hour(), 0, 0, 0, loc).UTC()
		for _, h := range hits {
			if h.Status == hitlog.StatusSuccess && !h.CreatedAt.Before(legacyStart) && h.CreatedAt.Before(legacyStart.Add(time.Hour)) {
				legacyHits++
				legacyAmount = legacyAmount.Add(h.Commission)
			}
		}
		legacy := &settlement.Settlement{ResellerID: rid, HourStart: legacyStart, Hits: legacyHits, Amount: legacyAmount, CreatedAt: now}
		if err := s.Stores().Commissions.Insert(ctx, legacy); err != nil {
			t.Fatal(err)
		}
		credit, err := ledger.NewEntry(reseller, ledger.Credit, legacyAmount, settlement.RefCommission, &legacy.ID, "legacy", now)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Stores().Ledger.Insert(ctx, credit); err != nil {
			t.Fatal(err)
		}
		if err := s.Stores().Users.SaveBalance(ctx, reseller); err != nil {
			t.Fatal(err)
		}
		// As migration 00043 marks a settled hit: the first settlement whose hour holds it.
		if err := s.DB().Exec("UPDATE api_hit_logs SET commission_settlement_id = ? WHERE reseller_id = ? AND created_at >= ? AND created_at < ? AND status = 'success'",
			legacy.ID, rid, legacyStart, legacyStart.Add(time.Hour)).Error; err != nil {
			t.Fatal(err)
		}
		zones := []string{"Asia/Kolkata", "UTC", "America/St_Johns"} // +05:30, +00:00, -03:30
		settler := func(i int) *commission.Settler {
			z, err := time.LoadLocation(zones[i%len(zones)])
			if err != nil {
				t.Fatal(err)
			}
			return commission.New(commission.Deps{Tx: store.Narrow(s, commission.TxStoresOf), Reads: s.Stores().Commissions, Config: commission.Config{Location: z}})
		}
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if i == 2 {
					_, err = settler(i).SettleBefore(ctx, now.Add(-commission.DefaultGrace))
				} else {
					_, err = settler(i).Run(ctx)
				}
				if err != nil {
					t.Logf("settler %d: %v", i, err) // a lost race may answer busy; the final run settles the rest
				}
			}()
		}
		wg.Wait()
		for i := range zones {
			if _, err := settler(i).SettleBefore(ctx, now.Add(-commission.DefaultGrace)); err != nil {
				t.Fatal(err)
			}
		}
		list, err := s.Stores().Commissions.List(ctx, settlement.Filter{ResellerID: &rid})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}
		settled := decimal.Zero
		for _, x := range list {
			if seen[x.HourStart.Unix()] {
				t.Fatalf("hour %s settled twice", x.HourStart)
			}
			seen[x.HourStart.Unix()] = true
			settled = settled.Add(x.Amount)
		}
		credited, n := decimal.Zero, 0
		err = s.Stores().Ledger.ForEachByUser(ctx, rid, func(e ledger.Entry) error {
			if e.ReferenceType == settlement.RefCommission && e.Type == ledger.Credit {
				credited, n = credited.Add(e.Amount), n+1
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The newest hit may fall in an hour not yet closed: compare with
		// what the settled hours' hits earned. Every hit before the last
		// closed hour is credited by exactly one settlement.
		earned := decimal.Zero
		for _, x := range list {
			if x.ID != legacy.ID && x.HourStart.Minute() != 0 {
				t.Errorf("settlement %d keyed by %s, not a UTC hour", x.ID, x.HourStart)
			}
			a, err := s.Stores().Commissions.Credited(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			earned = earned.Add(a.Amount)
		}
		closed := settlement.HourStart(now.Add(-commission.DefaultGrace))
		for _, h := range hits {
			got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
			if err != nil {
				t.Fatal(err)
			}
			if want := got.Status == hitlog.StatusSuccess && got.CreatedAt.Before(closed); want != (got.CommissionSettlementID != nil) {
				t.Errorf("hit %s of %s (%s): credited by %v", h.RequestID, got.CreatedAt, got.Status, got.CommissionSettlementID)
			}
		}
		if n != len(list) || !credited.Equal(settled) || !settled.Equal(earned) || settled.GreaterThan(want) || len(list) < 10 {
			t.Fatalf("%d credits of %s for %d settlements of %s; the hours earned %s (all hits %s)", n, credited, len(list), settled, earned, want)
		}
		u, err := s.Stores().Users.ByID(ctx, rid)
		if err != nil || !u.Balance.Equal(credited) {
			t.Fatalf("reseller's balance %v, %v; want %s", u.Balance, err, credited)
		}
	})
}

// TestMigrationMarksSettledHits runs migration 00043's backfill on both
// databases: each successful hit with a commission is marked with the
// first settlement whose hour holds it (local hour starts included, and
// the double settlement of one hit under 21:00 and 21:30); a hit
// no settlement's hour holds, a failed one and another reseller's stay
// unmarked, for the next UTC settlement to claim.
func TestMigrationMarksSettledHits(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		reseller := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		other := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		rid, oid := reseller.ID, other.ID
		cust := sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &rid })
		theirs := sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &oid })
		_, svc, _ := sqltest.NewCaller(t, s)
		k, tk := sqltest.NewKey(t, s, cust), sqltest.NewKey(t, s, theirs)
		base := time.Date(2026, 11, 27, 21, 0, 0, 0, time.UTC)
		mk := func(owner *user.User, key uint64, resellerID *uint64, at time.Time, st hitlog.Status) *hitlog.Hit {
			return &hitlog.Hit{UserID: owner.ID, ServiceID: svc.ID, APIKeyID: key, RequestID: fmt.Sprintf("mg-%d", sqltest.Next()), RequestPayload: "{}",
				Status: st, ResellerID: resellerID, Commission: decimal.RequireFromString("1.5"), ChargeAmount: decimal.Zero,
				CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1", CreatedAt: at, UpdatedAt: at}
		}
		early := mk(cust, k.ID, &rid, base.Add(10*time.Minute), hitlog.StatusSuccess) // 21:00 only
		both := mk(cust, k.ID, &rid, base.Add(40*time.Minute), hitlog.StatusSuccess)  // 21:00 and 21:30
		late := mk(cust, k.ID, &rid, base.Add(80*time.Minute), hitlog.StatusSuccess)  // 21:30 only
		after := mk(cust, k.ID, &rid, base.Add(95*time.Minute), hitlog.StatusSuccess) // none
		failed := mk(cust, k.ID, &rid, base.Add(20*time.Minute), hitlog.StatusFailed)
		foreign := mk(theirs, tk.ID, &oid, base.Add(20*time.Minute), hitlog.StatusSuccess)
		hits := []*hitlog.Hit{early, both, late, after, failed, foreign}
		if err := s.Stores().Hits.InsertMany(ctx, hits); err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, start := range []time.Time{base, base.Add(30 * time.Minute)} {
			st := &settlement.Settlement{ResellerID: rid, HourStart: start, Hits: 1, Amount: decimal.RequireFromString("1.50"), CreatedAt: base.Add(2 * time.Hour)}
			if err := s.Stores().Commissions.Insert(ctx, st); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, st.ID)
		}
		up, err := migrations.FS.ReadFile(s.Dialect() + "/00043_commission_reversals.sql")
		if err != nil {
			t.Fatal(err)
		}
		sql := string(up)
		sql = sql[strings.Index(sql, "UPDATE api_hit_logs"):]
		sql = sql[:strings.Index(sql, ";")]
		if err := s.DB().Exec(sql).Error; err != nil {
			t.Fatal(err)
		}
		want := map[*hitlog.Hit]*uint64{early: &ids[0], both: &ids[0], late: &ids[1]}
		for _, h := range hits {
			got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
			if err != nil {
				t.Fatal(err)
			}
			w := want[h]
			if (w == nil) != (got.CommissionSettlementID == nil) || (w != nil && *w != *got.CommissionSettlementID) {
				t.Errorf("hit of %s (%s, reseller %d): marked %v, want %v", h.CreatedAt.Format("15:04"), h.Status, *h.ResellerID,
					got.CommissionSettlementID, w)
			}
		}
	})
}

// TestRefundsRaceTheSettlement: refunds cancel hits' commission while
// settlers claim the same hour, on SQLite and MariaDB. Whichever commits
// first, each settlement's credit is its hits' commission now plus what
// it reversed, every refunded hit earns nothing in the end (it was left
// out, or its reversal was taken back), and the ledger check is clean.
func TestRefundsRaceTheSettlement(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		reseller := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		rid := reseller.ID
		cust := sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &rid })
		_, svc, _ := sqltest.NewCaller(t, s)
		k := sqltest.NewKey(t, s, cust)
		hour := time.Now().UTC().Truncate(time.Hour).Add(-2 * time.Hour)
		var hits []*hitlog.Hit
		for i := range 40 {
			at := hour.Add(time.Duration(i) * 89 * time.Second)
			hits = append(hits, &hitlog.Hit{UserID: cust.ID, ServiceID: svc.ID, APIKeyID: k.ID, RequestID: fmt.Sprintf("rr-%d-%d", sqltest.Next(), i),
				RequestPayload: "{}", Status: hitlog.StatusSuccess, ResellerID: &rid, Commission: decimal.RequireFromString("0.2500"),
				ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1", CreatedAt: at, UpdatedAt: at})
		}
		if err := s.Stores().Hits.InsertMany(ctx, hits); err != nil {
			t.Fatal(err)
		}
		settler := commission.New(commission.Deps{Tx: store.Narrow(s, commission.TxStoresOf), Reads: s.Stores().Commissions})
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := g; i < len(hits); i += 8 { // half the hits refunded
					err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
						_, err := st.Commissions.CancelHit(ctx, hits[i].ID)
						return err
					})
					if err != nil {
						t.Errorf("refund of hit %d: %v", i, err)
					}
				}
			})
		}
		wg.Go(func() {
			if _, err := settler.SettleBefore(ctx, time.Now()); err != nil {
				t.Logf("settler: %v", err) // a lost race may answer busy; the final runs settle the rest
			}
		})
		wg.Wait()
		for range 2 { // the hour (if not yet), then the reversals
			if _, err := settler.SettleBefore(ctx, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		list, err := s.Stores().Commissions.List(ctx, settlement.Filter{ResellerID: &rid})
		if err != nil || len(list) != 1 {
			t.Fatalf("settlements %+v, %v", list, err)
		}
		st := list[0]
		a, err := s.Stores().Commissions.Credited(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		// 20 hits kept: 5.00 earned, whatever the order.
		if !a.Amount.Equal(decimal.RequireFromString("5")) || !st.Amount.Sub(st.ReversalTaken).Equal(decimal.RequireFromString("5")) ||
			!a.Amount.Add(st.Reversed).Round(2).Equal(st.Amount) || st.Due().IsPositive() {
			t.Fatalf("settlement %+v, its hits earn %s now", st, a.Amount)
		}
		u, err := s.Stores().Users.ByID(ctx, rid)
		if err != nil || !u.Balance.Equal(decimal.RequireFromString("5")) {
			t.Fatalf("reseller's balance %v, %v; want 5.00", u.Balance, err)
		}
		ds, err := check.New(check.Deps{Stores: check.StoresOf(s.Stores())}).Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			t.Error("ledger:", d)
		}
	})
}
