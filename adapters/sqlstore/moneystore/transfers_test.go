package moneystore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/money/transfer"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

// resellerWith is a new reseller with the given balance and n customers of
// its own with theirs.
func resellerWith(t *testing.T, s *sqlstore.Store, balance string, customerBalances ...string) (*user.User, []*user.User) {
	t.Helper()
	r := sqltest.NewUser(t, s, func(u *user.User) { u.Role, u.Balance = user.RoleReseller, sqltest.Dec(t, balance) })
	var cs []*user.User
	for _, b := range customerBalances {
		cs = append(cs, sqltest.NewUser(t, s, func(u *user.User) { u.ParentID, u.Balance = &r.ID, sqltest.Dec(t, b) }))
	}
	return r, cs
}

// TestConcurrentTransfers: 50 transfers each way between a reseller and
// each of two customers, all at once. Both rows are locked in id order, so
// none deadlocks; the paying side is never overdrawn, nor a customer below
// its own money (a from_customer transfer takes back only what was funded); the three balances
// sum to what they started with, each balance is its last entry's, and
// every transfer wrote exactly a debit and a credit.
func TestConcurrentTransfers(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		r, cs := resellerWith(t, s, "30.00", "20.00", "10.00")
		const each = 50
		var wg sync.WaitGroup
		type result struct {
			ok  bool
			err error
		}
		results := make(chan result, 4*each)
		for _, c := range cs {
			for i := 0; i < each; i++ {
				for _, d := range []transfer.Direction{transfer.ToCustomer, transfer.FromCustomer} {
					wg.Add(1)
					go func(c *user.User, d transfer.Direction, i int) {
						defer wg.Done()
						amount := decimal.New(int64(100+i*37%500), -2) // 1.00 to 5.99
						err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
							_, err := panel.Move(ctx, panel.MoveStores{Books: st.Books(), Users: st.Users, Transfers: st.Transfers}, time.Now(), false, &transfer.Transfer{ResellerID: r.ID, CustomerID: c.ID,
								Direction: d, Amount: amount, RequestHash: "h"})
							return err
						})
						if errors.Is(err, ledger.ErrInsufficientBalance) || errors.Is(err, transfer.ErrBeyondFunded) {
							results <- result{}
							return
						}
						results <- result{ok: err == nil, err: err}
					}(c, d, i)
				}
			}
		}
		wg.Wait()
		close(results)
		done := 0
		for res := range results {
			if res.err != nil {
				t.Errorf("transfer: %v", res.err)
			}
			if res.ok {
				done++
			}
		}
		if done == 0 {
			t.Fatal("no transfer went through")
		}
		sum := decimal.Zero
		entries := 0
		for _, u := range append([]*user.User{r}, cs...) {
			got, err := s.Stores().Users.ByID(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Balance.IsNegative() {
				t.Errorf("user %d overdrawn: %s", u.ID, got.Balance)
			}
			sum = sum.Add(got.Balance)
			es, total, err := s.Stores().Ledger.List(ctx, ledger.Filter{UserID: &u.ID, PerPage: 100})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				if e.BalanceAfter.IsNegative() || e.ReferenceType != ledger.RefTransfer {
					t.Errorf("entry %+v", e)
				}
			}
			if len(es) > 0 && !es[0].BalanceAfter.Equal(got.Balance) {
				t.Errorf("user %d: balance %s, last entry says %s", u.ID, got.Balance, es[0].BalanceAfter)
			}
			entries += int(total)
		}
		sqltest.MustEqualDec(t, "sum of the three balances", sum, "60.00")
		// The reseller never took back more than it put in: each customer
		// keeps at least its own money (its starting balance).
		for i, c := range cs {
			funded, err := s.Stores().Transfers.Funded(ctx, r.ID, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := s.Stores().Users.ByID(ctx, c.ID)
			if funded.IsNegative() || !got.Balance.Equal(sqltest.Dec(t, []string{"20.00", "10.00"}[i]).Add(funded)) {
				t.Errorf("customer %d: balance %s, funded %s", c.ID, got.Balance, funded)
			}
		}
		if entries != 2*done {
			t.Errorf("%d ledger entries for %d transfers", entries, done)
		}
		_, n, err := s.Stores().Transfers.List(ctx, transfer.Filter{ResellerID: r.ID, PerPage: 1})
		if err != nil || n != int64(done) {
			t.Errorf("%d transfer rows for %d transfers (%v)", n, done, err)
		}
		t.Logf("%d of %d transfers went through", done, 4*each)
	})
}

// TestTransferStore: a reseller's Idempotency-Key holds one row (keys of
// two resellers do not meet; no key at all repeats freely), ByKey finds it,
// List is newest first by customer, and the users list filters by parent.
func TestTransferStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		r, cs := resellerWith(t, s, "0", "0", "0")
		r2, cs2 := resellerWith(t, s, "0", "0")
		tr := s.Stores().Transfers
		key := "k-1"
		now := time.Now().UTC().Truncate(time.Millisecond)
		mk := func(res, cust uint64, key *string, amount string) *transfer.Transfer {
			return &transfer.Transfer{ResellerID: res, CustomerID: cust, Direction: transfer.ToCustomer, Amount: sqltest.Dec(t, amount),
				IdempotencyKey: key, RequestHash: fmt.Sprintf("%064d", 1), CreatedAt: now}
		}
		first := mk(r.ID, cs[0].ID, &key, "1.50")
		if err := tr.Insert(ctx, first); err != nil || first.ID == 0 {
			t.Fatal(err, first.ID)
		}
		if err := tr.Insert(ctx, mk(r.ID, cs[1].ID, &key, "2.00")); !errors.Is(err, transfer.ErrKeyTaken) {
			t.Errorf("same key again: %v", err)
		}
		if err := tr.Insert(ctx, mk(r2.ID, cs2[0].ID, &key, "2.00")); err != nil {
			t.Errorf("another reseller's key: %v", err)
		}
		for i := 0; i < 2; i++ {
			if err := tr.Insert(ctx, mk(r.ID, cs[1].ID, nil, "3.00")); err != nil {
				t.Errorf("no key: %v", err)
			}
		}
		back := mk(r.ID, cs[1].ID, nil, "0.75")
		back.Direction = transfer.FromCustomer
		if err := tr.Insert(ctx, back); err != nil {
			t.Fatal(err)
		}
		// Funded: the pair's transfers to the customer less those back.
		for _, tc := range []struct {
			reseller, customer uint64
			want               string
		}{{r.ID, cs[0].ID, "1.50"}, {r.ID, cs[1].ID, "5.25"}, {r2.ID, cs[0].ID, "0"}, {r2.ID, cs2[0].ID, "2.00"}} {
			if got, err := tr.Funded(ctx, tc.reseller, tc.customer); err != nil || !got.Equal(sqltest.Dec(t, tc.want)) {
				t.Errorf("Funded(%d, %d) = %s, %v; want %s", tc.reseller, tc.customer, got, err, tc.want)
			}
		}
		got, err := tr.ByKey(ctx, r.ID, key)
		if err != nil || got.ID != first.ID || !got.Amount.Equal(sqltest.Dec(t, "1.50")) || got.CustomerID != cs[0].ID || !got.CreatedAt.Equal(now) {
			t.Errorf("ByKey: %v %+v", err, got)
		}
		if _, err := tr.ByKey(ctx, r.ID, "nope"); errs.KindOf(err) != errs.NotFound {
			t.Errorf("missing key: %v", err)
		}
		list, n, err := tr.List(ctx, transfer.Filter{ResellerID: r.ID, CustomerID: &cs[1].ID})
		if err != nil || n != 3 || len(list) != 3 || list[0].ID < list[1].ID {
			t.Errorf("list: %v %d %+v", err, n, list)
		}
		if _, n, _ := tr.List(ctx, transfer.Filter{ResellerID: r.ID}); n != 4 {
			t.Errorf("all of the reseller's: %d", n)
		}
		us, n, err := s.Stores().Users.List(ctx, user.Filter{ParentID: &r.ID})
		if err != nil || n != 2 || us[0].ID != cs[1].ID || us[1].ID != cs[0].ID || *us[0].ParentID != r.ID {
			t.Errorf("customers of the reseller: %v %d %+v", err, n, us)
		}
	})
}

// TestResellerReports sums the success hits carrying the reseller in the
// range, per customer, exactly, and the settlements whose hour starts in it.
func TestResellerReports(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		r, cs := resellerWith(t, s, "0", "0", "0")
		other, ocs := resellerWith(t, s, "0", "0")
		svc := sqltest.NewService(t, s)
		from := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		to := from.Add(24 * time.Hour)
		hit := func(u *user.User, reseller *user.User, status hitlog.Status, charge, commission string, at time.Time) {
			k := sqltest.NewKey(t, s, u)
			h := &hitlog.Hit{UserID: u.ID, ServiceID: svc.ID, APIKeyID: k.ID, RequestID: fmt.Sprintf("req_%d", sqltest.Next()), RequestPayload: "{}",
				ChargeAmount: sqltest.Dec(t, charge), IPAddress: "::1", Status: status, CreatedAt: at}
			if err := s.Stores().Hits.Insert(ctx, h); err != nil {
				t.Fatal(err)
			}
			if err := s.DB().WithContext(ctx).Exec("UPDATE api_hit_logs SET reseller_id = ?, commission = ? WHERE id = ?", reseller.ID, commission, h.ID).Error; err != nil {
				t.Fatal(err)
			}
		}
		hit(cs[0], r, hitlog.StatusSuccess, "0.3000", "0.0500", from)
		hit(cs[0], r, hitlog.StatusSuccess, "0.1001", "0.0001", from.Add(time.Hour))
		hit(cs[1], r, hitlog.StatusSuccess, "1.0000", "0.2500", to.Add(-time.Microsecond))
		hit(cs[1], r, hitlog.StatusFailed, "0", "0", from.Add(time.Hour))               // not billed
		hit(cs[1], r, hitlog.StatusSuccess, "5.0000", "1.0000", to)                     // after the range
		hit(cs[0], r, hitlog.StatusSuccess, "5.0000", "1.0000", from.Add(-time.Second)) // before it
		hit(ocs[0], other, hitlog.StatusSuccess, "9.0000", "2.0000", from.Add(time.Hour))
		rep := s.ResellerReports()
		usage, err := rep.CustomerUsage(ctx, r.ID, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if len(usage) != 2 || usage[0].CustomerID != cs[0].ID || usage[0].Calls != 2 || !usage[0].Spend.Equal(sqltest.Dec(t, "0.4001")) ||
			!usage[0].Commission.Equal(sqltest.Dec(t, "0.0501")) || !usage[0].Cost.Equal(sqltest.Dec(t, "0.35")) ||
			usage[1].CustomerID != cs[1].ID || usage[1].Calls != 1 || !usage[1].Spend.Equal(sqltest.Dec(t, "1")) {
			t.Errorf("usage: %+v", usage)
		}
		for i, h := range []struct {
			reseller uint64
			at       time.Time
			amount   string
		}{{r.ID, from, "1.25"}, {r.ID, from.Add(23 * time.Hour), "0.10"}, {r.ID, to, "7.00"}, {other.ID, from, "3.00"}} {
			if err := s.DB().WithContext(ctx).Exec("INSERT INTO commission_settlements (reseller_id, hour_start, hits, amount, created_at) VALUES (?, ?, ?, ?, ?)",
				h.reseller, h.at, i+1, h.amount, time.Now().UTC()).Error; err != nil {
				t.Fatal(err)
			}
		}
		settled, err := rep.CommissionSettled(ctx, r.ID, from, to)
		if err != nil {
			t.Fatal(err)
		}
		sqltest.MustEqualDec(t, "settled", settled, "1.35")
	})
}
