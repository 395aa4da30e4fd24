package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/core/accounts/user"
	"paygate/core/app"
	"paygate/core/billing"
	"paygate/core/billing/plan"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

// billingDB is a migrated database of a test, by URL, on both servers.
func eachBillingDB(t *testing.T, fn func(t *testing.T, url string)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, testdb.SQLiteURL(t)) })
	t.Run("mysql", func(t *testing.T) { fn(t, testdb.MySQLURL(t)) })
}

var kolkata = mustZone("Asia/Kolkata")

func mustZone(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

// billingFixture opens the store at url (migrated by `server migrate`) and
// makes users on plans: code → price, each with balance.
type billingFixture struct {
	t      *testing.T
	url    string
	store  *sqlstore.Store
	app    *app.App
	env    func(string) string
	phones int
	// now is the app's clock (the time of a change); zero: the real one.
	now time.Time
}

func newBillingFixture(t *testing.T, url string) *billingFixture {
	env := map[string]string{"DATABASE_URL": url, "TIMEZONE": "Asia/Kolkata"}
	getenv := func(k string) string { return env[k] }
	if err := run(context.Background(), []string{"migrate"}, getenv, &syncBuffer{}); err != nil {
		t.Fatal(err)
	}
	s, err := sqlstore.Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f := &billingFixture{t: t, url: url, store: s, env: getenv}
	f.app = app.New(app.Deps{Tx: s, Stores: s.Stores(), Names: s.Names(), Exports: s.Exports(), Config: app.Config{Location: kolkata},
		Now: func() time.Time {
			if f.now.IsZero() {
				return time.Now()
			}
			return f.now
		}})
	return f
}

// user makes an active account on code with balance credited through the
// ledger; after the first billing run, price is its subscription's price.
func (f *billingFixture) user(email string, code user.Plan, balance string) uint64 {
	f.t.Helper()
	ctx := context.Background()
	f.phones++
	u := &user.User{Name: email, Email: email, Phone: fmt.Sprintf("98765%05d", f.phones), PasswordHash: "$2a$10$x",
		Role: user.RoleUser, Status: user.StatusActive, Plan: code, Balance: decimal.Zero, TotalSpent: decimal.Zero,
		CreatedAt: time.Now(), UpdatedAt: time.Now()}
	err := f.store.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		if err := s.Users.Create(ctx, u); err != nil {
			return err
		}
		if b := decimal.RequireFromString(balance); b.IsPositive() {
			locked, err := s.Users.LockByID(ctx, u.ID)
			if err != nil {
				return err
			}
			if _, err := store.Post(ctx, s.Books(), time.Now(), false, locked, ledger.Credit, b, ledger.RefAdjustment, nil, "opening"); err != nil {
				return err
			}
			return s.Users.SaveBalance(ctx, locked)
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return u.ID
}

func (f *billingFixture) setPrice(id uint64, price string) {
	f.t.Helper()
	if err := f.store.DB().Exec("UPDATE subscriptions SET price = ? WHERE user_id = ?", price, id).Error; err != nil {
		f.t.Fatal(err)
	}
}

// fees are the plan_fee debits of user id, amounts in ledger order.
func (f *billingFixture) fees(id uint64) []string {
	f.t.Helper()
	var amounts []string
	if err := f.store.DB().Raw("SELECT amount FROM transactions WHERE user_id = ? AND reference_type = ? ORDER BY id", id, ledger.RefPlanFee).
		Scan(&amounts).Error; err != nil {
		f.t.Fatal(err)
	}
	for i, a := range amounts {
		amounts[i] = decimal.RequireFromString(a).StringFixed(2)
	}
	return amounts
}

func (f *billingFixture) sub(id uint64) *plan.Subscription {
	f.t.Helper()
	s, err := f.store.Stores().Subscriptions.ByUser(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

func (f *billingFixture) ledgerClean() {
	f.t.Helper()
	ds, err := f.app.Ledger.Check(context.Background())
	if err != nil || len(ds) > 0 {
		f.t.Fatalf("ledger check: %v %v", err, ds)
	}
}

// TestRenewalChargesOncePerPeriod: existing users open on their plan with
// the current month waived; at the first local instant of December two
// instances and an operator's `billing run --at` race, and each
// subscription is charged once: a paid plan one plan_fee debit, a zero
// price no row, a short wallet past due. Runs later that month change
// nothing.
func TestRenewalChargesOncePerPeriod(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newBillingFixture(t, url)
		paid := f.user("paid@example.com", user.PlanEnterprise, "1000.00")
		free := f.user("free@example.com", user.PlanStarter, "5.00")
		short := f.user("short@example.com", user.PlanEnterprise, "10.00")
		ctx := context.Background()
		nov := time.Date(2026, 11, 20, 12, 0, 0, 0, kolkata)
		res, err := f.app.Billing.Run(ctx, nov)
		if err != nil || res.Opened != 3 || res.Renewed != 0 {
			t.Fatalf("opening run: %+v %v", res, err)
		}
		if s := f.sub(paid); s.Period != "2026-11" || s.PlanCode != "enterprise" || !s.Price.IsZero() || s.Status != plan.SubActive {
			t.Fatalf("opened %+v", s)
		}
		if len(f.fees(paid)) != 0 {
			t.Fatal("the first period was charged")
		}
		f.setPrice(paid, "250.00")
		f.setPrice(short, "25.00")

		dec1 := time.Date(2026, 12, 1, 0, 0, 0, 0, kolkata)
		other := app.New(app.Deps{Tx: f.store, Stores: f.store.Stores(), Names: f.store.Names(), Exports: f.store.Exports(), Config: app.Config{Location: kolkata}})
		var wg sync.WaitGroup
		errc := make(chan error, 3)
		for _, a := range []*app.App{f.app, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := a.Billing.Run(ctx, dec1)
				errc <- err
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- run(ctx, []string{"billing", "run", "--at", dec1.Format(time.RFC3339)}, f.env, &syncBuffer{})
		}()
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatal(err)
			}
		}
		if got := f.fees(paid); len(got) != 1 || got[0] != "250.00" {
			t.Fatalf("paid plan fees %v, want one of 250.00", got)
		}
		if got := f.fees(free); len(got) != 0 {
			t.Fatalf("a zero price wrote %v", got)
		}
		if s := f.sub(short); s.Status != plan.SubPastDue || s.Period != "2026-12" || len(f.fees(short)) != 0 {
			t.Fatalf("short wallet: %+v fees %v", s, f.fees(short))
		}
		if s := f.sub(paid); s.Period != "2026-12" || s.Status != plan.SubActive ||
			!s.PeriodStart.Equal(dec1) || !s.PeriodEnd.Equal(dec1.AddDate(0, 1, 0)) {
			t.Fatalf("renewed %+v", s)
		}
		// The same instant again, and later in the month: nothing more.
		for _, at := range []time.Time{dec1, dec1.Add(20 * 24 * time.Hour)} {
			if res, err := f.app.Billing.Run(ctx, at); err != nil || res.Renewed+res.Paid > 0 {
				t.Fatalf("run at %s: %+v %v", at, res, err)
			}
		}
		// A second before the boundary is still November's.
		f.ledgerClean()
	})
}

// failingTx is a transactor that crashes the n-th transaction: its
// writes roll back and the step ends with an error.
type failingTx struct {
	store.Transactor
	mu    sync.Mutex
	calls int
	n     int
}

func (t *failingTx) WithinTx(ctx context.Context, fn func(ctx context.Context, s store.Stores) error) error {
	t.mu.Lock()
	t.calls++
	crash := t.calls == t.n
	t.mu.Unlock()
	return t.Transactor.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		if err := fn(ctx, s); err != nil {
			return err
		}
		if crash {
			return errors.New("crashed before commit")
		}
		return nil
	})
}

// TestInterruptedRenewalIsFinishedByTheNextRun: a run that crashes in the
// middle leaves the renewals it committed; the next run does the rest and
// none twice, months skipped while no run ran included.
func TestInterruptedRenewalIsFinishedByTheNextRun(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newBillingFixture(t, url)
		ids := []uint64{f.user("a@example.com", user.PlanEnterprise, "1000.00"), f.user("bb@example.com", user.PlanEnterprise, "1000.00"),
			f.user("ccc@example.com", user.PlanEnterprise, "1000.00")}
		ctx := context.Background()
		if _, err := f.app.Billing.Run(ctx, time.Date(2026, 10, 5, 0, 0, 0, 0, kolkata)); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			f.setPrice(id, "100.00")
		}
		// Transactions: 1 opens, 2 and 3 renew the first two users, 4
		// (the third user's) crashes.
		crashing := billing.New(billing.Deps{Tx: store.Narrow(&failingTx{Transactor: f.store, n: 4}, billing.TxStoresOf), Stores: billingStores(f.store.Stores()),
			Config: billing.Config{Location: kolkata}})
		dec1 := time.Date(2026, 12, 1, 0, 0, 0, 0, kolkata)
		if _, err := crashing.Run(ctx, dec1); err == nil {
			t.Fatal("the crash was not reported")
		}
		if got := f.fees(ids[2]); len(got) != 0 {
			t.Fatalf("the crashed renewal left %v", got)
		}
		if got := f.fees(ids[0]); len(got) != 2 {
			t.Fatalf("committed renewals %v, want November and December", got)
		}
		if err := run(ctx, []string{"billing", "run", "--at", dec1.Format(time.RFC3339)}, f.env, &syncBuffer{}); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if got := f.fees(id); len(got) != 2 || got[0] != "100.00" || got[1] != "100.00" {
				t.Fatalf("user %d fees %v, want November's and December's", id, got)
			}
			if s := f.sub(id); s.Period != "2026-12" {
				t.Fatalf("user %d in %s", id, s.Period)
			}
		}
		f.ledgerClean()
	})
}

// TestPastDueIsPaidOrMovedAfterGrace: a short wallet leaves the fee due;
// money arriving during the grace pays it at the next round; still short
// after 7 days, the account is on the default plan and its allowance
// applies (users.plan_monthly_calls), the month never charged.
func TestPastDueIsPaidOrMovedAfterGrace(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newBillingFixture(t, url)
		payer := f.user("payer@example.com", user.PlanEnterprise, "10.00")
		stays := f.user("stays@example.com", user.PlanEnterprise, "10.00")
		ctx := context.Background()
		if _, err := f.app.Billing.Run(ctx, time.Date(2026, 11, 5, 0, 0, 0, 0, kolkata)); err != nil {
			t.Fatal(err)
		}
		f.setPrice(payer, "50.00")
		f.setPrice(stays, "50.00")
		dec1 := time.Date(2026, 12, 1, 0, 0, 0, 0, kolkata)
		if res, err := f.app.Billing.Run(ctx, dec1); err != nil || res.PastDue != 2 {
			t.Fatalf("renewal %+v %v", res, err)
		}
		// A credit during the grace: paid at the next round.
		err := f.store.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			u, err := s.Users.LockByID(ctx, payer)
			if err != nil {
				return err
			}
			if _, err := store.Post(ctx, s.Books(), time.Now(), false, u, ledger.Credit, decimal.RequireFromString("100.00"), ledger.RefAdjustment, nil, "top-up"); err != nil {
				return err
			}
			return s.Users.SaveBalance(ctx, u)
		})
		if err != nil {
			t.Fatal(err)
		}
		if res, err := f.app.Billing.Run(ctx, dec1.Add(time.Hour)); err != nil || res.Paid != 1 || res.Downgraded != 0 {
			t.Fatalf("retry %+v %v", res, err)
		}
		if s := f.sub(payer); s.Status != plan.SubActive || s.PastDueSince != nil || len(f.fees(payer)) != 1 {
			t.Fatalf("paid: %+v fees %v", s, f.fees(payer))
		}
		// Six days and 23 hours: still past due, still Enterprise.
		if res, err := f.app.Billing.Run(ctx, dec1.Add(plan.Grace-time.Hour)); err != nil || res.Downgraded != 0 {
			t.Fatalf("inside the grace %+v %v", res, err)
		}
		if res, err := f.app.Billing.Run(ctx, dec1.Add(plan.Grace)); err != nil || res.Downgraded != 1 {
			t.Fatalf("grace over %+v %v", res, err)
		}
		s := f.sub(stays)
		if s.Status != plan.SubActive || s.PlanCode != "starter" || !s.Price.IsZero() || len(f.fees(stays)) != 0 {
			t.Fatalf("moved: %+v fees %v", s, f.fees(stays))
		}
		u, err := f.store.Stores().Users.ByID(ctx, stays)
		if err != nil || u.Plan != user.PlanStarter || u.MonthlyCalls == nil || *u.MonthlyCalls != user.StarterMonthlyCalls {
			t.Fatalf("user after the grace: %+v %v", u, err)
		}
		p, err := f.store.Stores().Subscriptions.PeriodOf(ctx, stays, "2026-12")
		if err != nil || p.Status != plan.PeriodVoid {
			t.Fatalf("December %+v %v", p, err)
		}
		// January renews on Starter: 0.00, no row.
		if _, err := f.app.Billing.Run(ctx, time.Date(2027, 1, 1, 0, 0, 0, 0, kolkata)); err != nil {
			t.Fatal(err)
		}
		if s := f.sub(stays); s.Period != "2027-01" || len(f.fees(stays)) != 0 {
			t.Fatalf("January %+v", s)
		}
		f.ledgerClean()
	})
}

// TestDowngradeAppliesAtTheNextRenewal: a user's move to a cheaper public
// plan waits for the period's end; the renewal then puts the account on
// it, charges its price and writes its allowance to the user row.
func TestDowngradeAppliesAtTheNextRenewal(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newBillingFixture(t, url)
		ctx := context.Background()
		adminID := f.user("ops@example.com", user.PlanEnterprise, "0.00")
		admin, err := f.store.Stores().Users.ByID(ctx, adminID)
		if err != nil {
			t.Fatal(err)
		}
		admin.Role = user.RoleAdmin
		price, calls, public := decimal.RequireFromString("300.00"), 50, true
		if _, err := f.app.Billing.UpdatePlan(ctx, admin, "enterprise", billing.PlanPatch{Public: &public}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.app.Billing.UpdatePlan(ctx, admin, "starter", billing.PlanPatch{SetPrice: true, MonthlyPrice: &price,
			SetCalls: true, MonthlyCalls: &calls}); err != nil {
			t.Fatal(err)
		}
		id := f.user("down@example.com", user.PlanEnterprise, "1000.00")
		if _, err := f.app.Billing.Run(ctx, time.Date(2026, 11, 10, 0, 0, 0, 0, kolkata)); err != nil {
			t.Fatal(err)
		}
		f.setPrice(id, "500.00")
		f.now = time.Date(2026, 11, 20, 0, 0, 0, 0, kolkata) // in November: a change in December would renew December first
		v, err := f.app.Billing.Change(ctx, billing.Change{UserID: id, PlanCode: "starter"})
		if err != nil || v.Subscription.PlanCode != "enterprise" || v.NextPlanCode != "starter" || !v.NextAmount.Equal(price) {
			t.Fatalf("downgrade %+v %v", v, err)
		}
		if _, err := f.app.Billing.Run(ctx, time.Date(2026, 12, 1, 0, 0, 0, 0, kolkata)); err != nil {
			t.Fatal(err)
		}
		if got := f.fees(id); len(got) != 1 || got[0] != "300.00" {
			t.Fatalf("December's fee %v, want Starter's 300.00", got)
		}
		s := f.sub(id)
		u, err := f.store.Stores().Users.ByID(ctx, id)
		if err != nil || s.PlanCode != "starter" || s.NextPlanCode != nil || u.Plan != user.PlanStarter || u.MonthlyCalls == nil || *u.MonthlyCalls != 50 {
			t.Fatalf("after the renewal: %+v, user %+v %v", s, u, err)
		}
		f.ledgerClean()
	})
}

// TestBillingPagesThroughEveryAccount: a round reads subscriptions 100 at a
// time; with 210 accounts to renew, 105 of them short (both lists past a page), every one is renewed
// or made past due, and a credit to each past-due one is paid at the next
// round, pages past the first included.
func TestBillingPagesThroughEveryAccount(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newBillingFixture(t, url)
		ctx := context.Background()
		const n = 210
		var short []uint64
		for i := range n {
			balance := "10.00"
			if i%2 == 1 {
				balance = "0.00"
			}
			id := f.user(fmt.Sprintf("u%d@example.com", i), user.PlanEnterprise, balance)
			if i%2 == 1 {
				short = append(short, id)
			}
		}
		if _, err := f.app.Billing.Run(ctx, time.Date(2026, 11, 5, 0, 0, 0, 0, kolkata)); err != nil {
			t.Fatal(err)
		}
		if err := f.store.DB().Exec("UPDATE subscriptions SET price = '10.00'").Error; err != nil {
			t.Fatal(err)
		}
		dec1 := time.Date(2026, 12, 1, 0, 0, 0, 0, kolkata)
		if res, err := f.app.Billing.Run(ctx, dec1); err != nil || res.Renewed != n/2 || res.PastDue != n/2 {
			t.Fatalf("renewal %+v %v, want %d renewed and %d past due", res, err, n/2, n/2)
		}
		for _, id := range short {
			err := f.store.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
				u, err := s.Users.LockByID(ctx, id)
				if err != nil {
					return err
				}
				if _, err := store.Post(ctx, s.Books(), time.Now(), false, u, ledger.Credit, decimal.RequireFromString("10.00"), ledger.RefAdjustment, nil, "top-up"); err != nil {
					return err
				}
				return s.Users.SaveBalance(ctx, u)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if res, err := f.app.Billing.Run(ctx, dec1.Add(time.Hour)); err != nil || res.Paid != n/2 || res.Renewed != 0 {
			t.Fatalf("retry %+v %v, want %d paid", res, err, n/2)
		}
		if fees := f.fees(short[len(short)-1]); len(fees) != 1 || fees[0] != "10.00" {
			t.Fatalf("the last account's fees %v", fees)
		}
		f.ledgerClean()
	})
}

// billingStores are the repositories billing reads outside a transaction.
func billingStores(st store.Stores) billing.Stores {
	return billing.Stores{Users: st.Users, Plans: st.Plans, Subscriptions: st.Subscriptions}
}
