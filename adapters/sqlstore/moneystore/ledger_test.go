package moneystore_test

import (
	"context"
	"errors"
	"fmt"
	"paygate/core/platform/store"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

func TestLedger(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		entries := s.Stores().Ledger
		alice, bob := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		balance := decimal.Zero
		var inserted []ledger.Entry
		for i := 0; i < 30; i++ {
			typ, amount := ledger.Credit, sqltest.Dec(t, "10.10")
			if i%3 == 2 {
				typ, amount = ledger.Debit, sqltest.Dec(t, "0.30")
			}
			after, err := ledger.Apply(balance, typ, amount)
			if err != nil {
				t.Fatal(err)
			}
			ref := uint64(i)
			e := &ledger.Entry{
				UserID: alice.ID, TxnID: ledger.NewTxnID(base), Type: typ, Amount: amount,
				BalanceBefore: balance, BalanceAfter: after, ReferenceType: ledger.RefAPIHit, ReferenceID: &ref,
				Description: fmt.Sprintf("entry %d", i), Status: "completed", CreatedAt: base.Add(time.Duration(i) * time.Hour),
			}
			if err := entries.Insert(ctx, e); err != nil {
				t.Fatalf("Insert: %v", err)
			}
			if e.ID == 0 {
				t.Fatal("Insert did not set the id")
			}
			balance = after
			inserted = append(inserted, *e)
		}
		bobEntry := &ledger.Entry{UserID: bob.ID, TxnID: ledger.NewTxnID(base), Type: ledger.Credit, Amount: sqltest.Dec(t, "1"),
			BalanceBefore: decimal.Zero, BalanceAfter: sqltest.Dec(t, "1"), ReferenceType: ledger.RefAdjustment, Description: "bob"}
		if err := entries.Insert(ctx, bobEntry); err != nil {
			t.Fatal(err)
		}

		// Duplicate txn_id.
		dup := inserted[0]
		if err := entries.Insert(ctx, &dup); !errors.Is(err, errs.ErrConflict) {
			t.Fatalf("duplicate txn_id err = %v, want errs.ErrConflict", err)
		}

		aliceID := alice.ID
		list, total, err := entries.List(ctx, ledger.Filter{UserID: &aliceID})
		if err != nil || total != 30 || len(list) != 20 {
			t.Fatalf("List(alice) = %d rows, total %d, %v", len(list), total, err)
		}
		if list[0].ID != inserted[29].ID {
			t.Fatalf("List is not newest first")
		}
		e := list[0]
		if e.TxnID != inserted[29].TxnID || e.ReferenceType != ledger.RefAPIHit || *e.ReferenceID != 29 ||
			e.Description != "entry 29" || e.Status != "completed" || !e.CreatedAt.Equal(inserted[29].CreatedAt) {
			t.Fatalf("List()[0] = %+v, want %+v", e, inserted[29])
		}
		sqltest.MustEqualDec(t, "balance_after", e.BalanceAfter, inserted[29].BalanceAfter.String())

		_, total, _ = entries.List(ctx, ledger.Filter{})
		if total != 31 {
			t.Fatalf("List(all) total %d, want 31", total)
		}
		_, total, _ = entries.List(ctx, ledger.Filter{UserID: &aliceID, Type: ledger.Debit})
		if total != 10 {
			t.Fatalf("debits: %d, want 10", total)
		}
		from, to := base.Add(2*time.Hour), base.Add(5*time.Hour) // inclusive: entries 2, 3, 4, 5
		ranged, total, _ := entries.List(ctx, ledger.Filter{UserID: &aliceID, From: &from, To: &to})
		if total != 4 || ranged[0].Description != "entry 5" || ranged[3].Description != "entry 2" {
			t.Fatalf("date range: total %d", total)
		}
		// Bounds in another zone mean the same instants.
		ist := time.FixedZone("IST", 19800)
		fromIST, toIST := from.In(ist), to.In(ist)
		_, total, _ = entries.List(ctx, ledger.Filter{UserID: &aliceID, From: &fromIST, To: &toIST})
		if total != 4 {
			t.Fatalf("date range in IST: total %d, want 4", total)
		}

		// ForEachByUser streams in id order and the books add up.
		var seen int
		running := decimal.Zero
		err = entries.ForEachByUser(ctx, alice.ID, func(e ledger.Entry) error {
			if e.ID != inserted[seen].ID || !e.BalanceBefore.Equal(running) {
				return fmt.Errorf("entry %d out of order or chain broken", seen)
			}
			running = e.BalanceAfter
			seen++
			return nil
		})
		if err != nil || seen != 30 || !running.Equal(balance) {
			t.Fatalf("ForEachByUser: %v, saw %d, running %s, want %s", err, seen, running, balance)
		}
		stop := errors.New("stop")
		if err := entries.ForEachByUser(ctx, alice.ID, func(ledger.Entry) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("ForEachByUser did not return fn's error: %v", err)
		}
	})
}

func TestHitLogs(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		hits := s.Stores().Hits
		u := sqltest.NewUser(t, s)
		base := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
		statuses := []hitlog.Status{hitlog.StatusSuccess, hitlog.StatusFailed, hitlog.StatusInsufficientBalance, hitlog.StatusPending}
		for i := 0; i < 12; i++ {
			h := &hitlog.Hit{
				UserID: u.ID, ServiceID: uint64(1 + i%2), APIKeyID: uint64(10 + i%3), RequestID: fmt.Sprintf("req_%02d", i),
				RequestPayload: `{"n":` + fmt.Sprint(i) + `}`, ChargeAmount: decimal.Zero, Reserved: sqltest.Dec(t, "0.5"),
				IPAddress: "2001:db8::1", Status: statuses[i%4], CreatedAt: base.Add(time.Duration(i) * time.Minute),
			}
			if err := hits.Insert(ctx, h); err != nil {
				t.Fatalf("Insert: %v", err)
			}
		}
		dup := &hitlog.Hit{UserID: u.ID, ServiceID: 1, APIKeyID: 1, RequestID: "req_00", RequestPayload: "{}", IPAddress: "::1"}
		if err := hits.Insert(ctx, dup); !errors.Is(err, errs.ErrConflict) {
			t.Fatalf("duplicate request_id err = %v, want errs.ErrConflict", err)
		}

		h, err := hits.ByRequestID(ctx, "req_03")
		if err != nil {
			t.Fatalf("ByRequestID: %v", err)
		}
		if h.Status != hitlog.StatusPending || h.ResponsePayload != nil || h.IPAddress != "2001:db8::1" ||
			h.RequestPayload != `{"n":3}` || h.Reserved.StringFixed(4) != "0.5000" || !h.CreatedAt.Equal(base.Add(3*time.Minute)) {
			t.Fatalf("ByRequestID = %+v", h)
		}
		if _, err := hits.ByRequestID(ctx, "req_missing"); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("ByRequestID(missing) err = %v", err)
		}

		// Finish settles a pending hit.
		body := `{"data":{"ok":true}}`
		h.Status, h.ChargeAmount, h.ResponsePayload, h.ResponseTimeMs = hitlog.StatusSuccess, sqltest.Dec(t, "0.5"), &body, 123
		if err := hits.Finish(ctx, h); err != nil {
			t.Fatalf("Finish: %v", err)
		}
		h, _ = hits.ByRequestID(ctx, "req_03")
		if h.Status != hitlog.StatusSuccess || *h.ResponsePayload != body || h.ResponseTimeMs != 123 {
			t.Fatalf("after Finish: %+v", h)
		}
		sqltest.MustEqualDec(t, "charge_amount", h.ChargeAmount, "0.5000")
		if err := hits.Finish(ctx, &hitlog.Hit{RequestID: "req_missing", Status: hitlog.StatusFailed}); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("Finish(missing) err = %v", err)
		}
		// Finish is conditional on pending: a second settlement of a settled
		// hit changes nothing and says so.
		again := *h
		failed := `{"error":"interrupted"}`
		again.Status, again.ChargeAmount, again.ResponsePayload = hitlog.StatusFailed, decimal.Zero, &failed
		if err := hits.Finish(ctx, &again); !errors.Is(err, hitlog.ErrNotPending) {
			t.Fatalf("Finish(settled) err = %v, want hitlog.ErrNotPending", err)
		}
		if h, _ = hits.ByRequestID(ctx, "req_03"); h.Status != hitlog.StatusSuccess || *h.ResponsePayload != body {
			t.Fatalf("a refused Finish changed the hit: %+v", h)
		}

		// Pending: still pending and created before the cut-off, oldest first.
		pending, err := hits.Pending(ctx, base.Add(10*time.Minute), 10)
		if err != nil || len(pending) != 1 || pending[0].RequestID != "req_07" {
			t.Fatalf("Pending = %+v, %v; want req_07 only (req_03 is settled, req_11 too recent)", pending, err)
		}
		pending, _ = hits.Pending(ctx, base.Add(time.Hour), 10)
		if len(pending) != 2 || pending[0].RequestID != "req_07" || pending[1].RequestID != "req_11" {
			t.Fatalf("Pending(later) = %d rows", len(pending))
		}

		// Lists and filters.
		uid := u.ID
		list, total, err := hits.List(ctx, hitlog.Filter{UserID: &uid, PerPage: 5})
		if err != nil || total != 12 || len(list) != 5 || list[0].RequestID != "req_11" {
			t.Fatalf("List = %d rows, total %d, %v", len(list), total, err)
		}
		svcID, keyID := uint64(2), uint64(10)
		_, total, _ = hits.List(ctx, hitlog.Filter{ServiceID: &svcID})
		if total != 6 {
			t.Fatalf("service filter: %d", total)
		}
		_, total, _ = hits.List(ctx, hitlog.Filter{APIKeyID: &keyID})
		if total != 4 {
			t.Fatalf("key filter: %d", total)
		}
		_, total, _ = hits.List(ctx, hitlog.Filter{Status: hitlog.StatusFailed})
		if total != 3 {
			t.Fatalf("status filter: %d", total)
		}
		from, to := base.Add(time.Minute), base.Add(3*time.Minute)
		_, total, _ = hits.List(ctx, hitlog.Filter{From: &from, To: &to})
		if total != 3 {
			t.Fatalf("date filter: %d", total)
		}

		var ids []string
		err = hits.ForEachByUser(ctx, u.ID, func(h hitlog.Hit) error {
			ids = append(ids, h.RequestID)
			return nil
		})
		if err != nil || len(ids) != 12 || ids[0] != "req_00" || ids[11] != "req_11" {
			t.Fatalf("ForEachByUser = %v, %v", ids, err)
		}
	})
}

// TestConcurrentBalanceChanges proves the locking set-up: on SQLite the
// IMMEDIATE transactions, on MySQL the row lock of LockByID. Fifty writers
// read, compute with decimal and write; no update is lost.
func TestConcurrentBalanceChanges(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		const writers = 50
		amount := sqltest.Dec(t, "0.10")
		var wg sync.WaitGroup
		errc := make(chan error, writers)
		for i := 0; i < writers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				errc <- s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
					locked, err := st.Users.LockByID(ctx, u.ID)
					if err != nil {
						return err
					}
					typ := ledger.Credit
					after, err := ledger.Apply(locked.Balance, typ, amount)
					if err != nil {
						return err
					}
					e := &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(time.Now()), Type: typ, Amount: amount,
						BalanceBefore: locked.Balance, BalanceAfter: after, ReferenceType: ledger.RefAdjustment,
						Description: fmt.Sprintf("writer %d", i), Status: "completed"}
					if err := st.Ledger.Insert(ctx, e); err != nil {
						return err
					}
					locked.Balance = after
					locked.TotalSpent = locked.TotalSpent.Add(amount)
					return st.Users.SaveBalance(ctx, locked)
				})
			}(i)
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			if err != nil {
				t.Fatalf("WithinTx: %v", err)
			}
		}
		got, err := s.Stores().Users.ByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		sqltest.MustEqualDec(t, "final balance", got.Balance, "5.00")
		sqltest.MustEqualDec(t, "total_spent", got.TotalSpent, "5.00")

		// The ledger chains exactly: each before is the previous after.
		running, n := decimal.Zero, 0
		err = s.Stores().Ledger.ForEachByUser(ctx, u.ID, func(e ledger.Entry) error {
			if !e.BalanceBefore.Equal(running) || !e.BalanceAfter.Equal(running.Add(amount)) {
				return fmt.Errorf("entry %s: %s -> %s after %s", e.TxnID, e.BalanceBefore, e.BalanceAfter, running)
			}
			running = e.BalanceAfter
			n++
			return nil
		})
		if err != nil || n != writers || !running.Equal(got.Balance) {
			t.Fatalf("ledger: %v, %d rows, ends at %s", err, n, running)
		}
	})
}

func TestWithinTxRollsBack(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		boom := errors.New("boom")
		var created uint64
		err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			fresh := &user.User{Name: "Ghost", Email: "ghost@example.com", Phone: "9111111111", PasswordHash: "x",
				Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter}
			if err := st.Users.Create(ctx, fresh); err != nil {
				return err
			}
			created = fresh.ID
			locked, err := st.Users.LockByID(ctx, u.ID)
			if err != nil {
				return err
			}
			locked.Balance = sqltest.Dec(t, "99.99")
			if err := st.Users.SaveBalance(ctx, locked); err != nil {
				return err
			}
			e := &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(time.Now()), Type: ledger.Credit, Amount: sqltest.Dec(t, "99.99"),
				BalanceBefore: decimal.Zero, BalanceAfter: sqltest.Dec(t, "99.99"), ReferenceType: ledger.RefAdjustment, Description: "x"}
			if err := st.Ledger.Insert(ctx, e); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("WithinTx err = %v, want fn's error", err)
		}
		st := s.Stores()
		if _, err := st.Users.ByID(ctx, created); !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("the user created in the rolled-back transaction exists: %v", err)
		}
		got, _ := st.Users.ByID(ctx, u.ID)
		sqltest.MustEqualDec(t, "balance after rollback", got.Balance, "0")
		_, total, _ := st.Ledger.List(ctx, ledger.Filter{})
		if total != 0 {
			t.Fatalf("%d ledger rows after rollback", total)
		}

		// A panic rolls back too, and the store stays usable.
		func() {
			defer func() { _ = recover() }()
			_ = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
				locked, _ := st.Users.LockByID(ctx, u.ID)
				locked.Balance = sqltest.Dec(t, "1.00")
				_ = st.Users.SaveBalance(ctx, locked)
				panic("boom")
			})
		}()
		got, err = st.Users.ByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		sqltest.MustEqualDec(t, "balance after panic", got.Balance, "0")
		// A domain error from fn comes back unchanged.
		err = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error { return ledger.ErrInsufficientBalance })
		if !errors.Is(err, ledger.ErrInsufficientBalance) {
			t.Fatalf("WithinTx err = %v", err)
		}
	})
}

func TestMoneyRoundTripsExactly(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		st := s.Stores()
		u := sqltest.NewUser(t, s)
		// 0.1 + 0.2 is 0.30000000000000004 in floating point; here it is 0.30.
		u.Balance = sqltest.Dec(t, "0.10").Add(sqltest.Dec(t, "0.20"))
		u.TotalSpent = sqltest.Dec(t, "9999999999.99") // the largest DECIMAL(12,2)
		if err := st.Users.SaveBalance(ctx, u); err != nil {
			t.Fatal(err)
		}
		got, _ := st.Users.ByID(ctx, u.ID)
		if got.Balance.StringFixed(2) != "0.30" || !got.Balance.Equal(sqltest.Dec(t, "0.3")) {
			t.Fatalf("balance = %s, want 0.30", got.Balance)
		}
		if got.TotalSpent.StringFixed(2) != "9999999999.99" {
			t.Fatalf("total_spent = %s", got.TotalSpent)
		}
		// Adding 0.10 thirty times in the database's own arithmetic would not matter:
		// the application computes, the database stores.
		sum := decimal.Zero
		for i := 0; i < 30; i++ {
			sum = sum.Add(sqltest.Dec(t, "0.10"))
		}
		u.Balance = sum
		if err := st.Users.SaveBalance(ctx, u); err != nil {
			t.Fatal(err)
		}
		got, _ = st.Users.ByID(ctx, u.ID)
		sqltest.MustEqualDec(t, "balance", got.Balance, "3.00")

		// What is stored is the exact decimal text, on both databases.
		var stored string
		if err := s.DB().Raw("SELECT balance FROM users WHERE id = ?", u.ID).Scan(&stored).Error; err != nil {
			t.Fatal(err)
		}
		if stored != "3.00" {
			t.Fatalf("stored balance %q, want \"3.00\"", stored)
		}

		// Four-place prices.
		svc := sqltest.NewService(t, s)
		h := &hitlog.Hit{UserID: u.ID, ServiceID: svc.ID, APIKeyID: 1, RequestID: "req_money", RequestPayload: "{}",
			IPAddress: "127.0.0.1", Status: hitlog.StatusSuccess, ChargeAmount: sqltest.Dec(t, "0.5"), Reserved: sqltest.Dec(t, "123456.7891")}
		if err := st.Hits.Insert(ctx, h); err != nil {
			t.Fatal(err)
		}
		back, _ := st.Hits.ByRequestID(ctx, "req_money")
		if back.ChargeAmount.StringFixed(4) != "0.5000" || back.Reserved.String() != "123456.7891" {
			t.Fatalf("charge %s, reserved %s", back.ChargeAmount, back.Reserved)
		}
		if err := s.DB().Raw("SELECT charge_amount FROM api_hit_logs WHERE request_id = 'req_money'").Scan(&stored).Error; err != nil {
			t.Fatal(err)
		}
		if stored != "0.5000" {
			t.Fatalf("stored charge %q, want \"0.5000\"", stored)
		}
		// Out of range for DECIMAL(10,4) is an error on both databases.
		h2 := *h
		h2.RequestID, h2.ChargeAmount = "req_money_2", sqltest.Dec(t, "1000000")
		if err := st.Hits.Insert(ctx, &h2); err == nil {
			t.Fatal("Insert accepted 1000000 for DECIMAL(10,4)")
		}
	})
}
