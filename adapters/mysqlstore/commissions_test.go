package mysqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/mysqlstore"
	"paygate/core/commission"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/resale"
	"paygate/core/user"
	"paygate/internal/testdb"
)

// TestCommissionSettlersRace: two workers' rounds and the CLI's settle the
// same reseller-hours at once, on SQLite and MariaDB: each hour is
// credited once (the loser of an hour rolls back), and what was credited
// is what the hits earned; refunded calls earn nothing.
func TestCommissionSettlersRace(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *mysqlstore.Store) {
		ctx := context.Background()
		loc, _ := time.LoadLocation("Asia/Kolkata")
		reseller := newUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		rid := reseller.ID
		var customers []*user.User
		for range 3 {
			customers = append(customers, newUser(t, s, func(u *user.User) { u.ParentID = &rid }))
		}
		_, svc, _ := newCaller(t, s)
		now := time.Now().UTC()
		var hits []*hitlog.Hit
		want := decimal.Zero
		for i := range 60 {
			c := customers[i%3]
			k := newKey(t, s, c)
			st, comm := hitlog.StatusSuccess, "0.1500"
			if i%5 == 0 {
				st, comm = hitlog.StatusFailed, "0" // refunded: earns nothing
			} else {
				want = want.Add(decimal.RequireFromString(comm))
			}
			at := now.Add(-time.Duration(i+3) * 17 * time.Minute)
			hits = append(hits, &hitlog.Hit{UserID: c.ID, ServiceID: svc.ID, APIKeyID: k.ID, RequestID: fmt.Sprintf("cr-%d-%d", next(), i),
				RequestPayload: "{}", Status: st, ResellerID: &rid, Commission: decimal.RequireFromString(comm),
				ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1", CreatedAt: at, UpdatedAt: at})
		}
		if err := s.Stores().Hits.InsertMany(ctx, hits); err != nil {
			t.Fatal(err)
		}
		settler := func() *commission.Settler {
			return commission.New(commission.Deps{Tx: s, Reads: s.Stores().Commissions, Config: commission.Config{Location: loc}})
		}
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if i == 2 {
					_, err = settler().SettleBefore(ctx, now.Add(-commission.DefaultGrace))
				} else {
					_, err = settler().Run(ctx)
				}
				if err != nil {
					t.Logf("settler %d: %v", i, err) // a lost race may answer busy; the final run settles the rest
				}
			}()
		}
		wg.Wait()
		if _, err := settler().SettleBefore(ctx, now.Add(-commission.DefaultGrace)); err != nil {
			t.Fatal(err)
		}
		list, err := s.Stores().Commissions.List(ctx, resale.Filter{ResellerID: &rid})
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
			if e.ReferenceType == resale.RefCommission && e.Type == ledger.Credit {
				credited, n = credited.Add(e.Amount), n+1
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The newest hit may fall in an hour not yet closed: compare with
		// what the settled hours' hits earned.
		earned := decimal.Zero
		for _, x := range list {
			a, err := s.Stores().Commissions.Accrued(ctx, rid, x.HourStart, x.HourStart.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			earned = earned.Add(a.Amount)
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
