package storecontract

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/gateway/payment"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
)

// Opener opens a fresh, empty (migrated) store for one area of the
// contract: its Transactor and its Stores outside any transaction.
type Opener func(t *testing.T) (store.Transactor, store.Stores)

// StoreContract runs the cases the use cases rely on, the same on every
// implementation of the store ports: this fake (its own test) and the
// database adapter on SQLite and MariaDB (adapters/sqlstore), so the
// fake cannot drift from the real stores. Each area runs on a store of its
// own (open); its cases share it, each with rows of its own.
//
// The areas: users (lock, balance and profile writes, not found), keys
// (the daily counter and its reset, conditional change and revoke), holds,
// hits (conditional settlement, the newest-first list and its keyset
// export), the ledger (id order, filters, pages, Oldest), payments
// (conditional transitions), idempotency keys of payments and refunds,
// refunds, and transactions (rollback, commit).
func StoreContract(t *testing.T, open Opener) {
	areas := []struct {
		name string
		run  func(t *testing.T, c *contract)
	}{
		{"users", usersContract},
		{"keys", keysContract},
		{"holds", holdsContract},
		{"hits", hitsContract},
		{"ledger", ledgerContract},
		{"payments", paymentsContract},
		{"idempotency", idempotencyContract},
		{"refunds", refundsContract},
		{"transactions", txContract},
		{"customer prices", customerPricesContract},
		{"commissions", commissionsContract},
		{"payout limits", payoutLimitsContract},
	}
	for _, a := range areas {
		t.Run(a.name, func(t *testing.T) {
			tx, s := open(t)
			a.run(t, &contract{ctx: context.Background(), tx: tx, s: s})
		})
	}
}

// contract is one area's store and the helpers that seed it through the
// ports.
type contract struct {
	ctx context.Context
	tx  store.Transactor
	s   store.Stores
	n   atomic.Int64 // the last number given to a seeded row
}

// at is the contract's clock: whole seconds, which every store keeps as
// they are (the databases keep microseconds).
var at = time.Date(2026, 11, 27, 10, 30, 0, 0, time.UTC)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func (c *contract) next() int64 { return c.n.Add(1) }

func (c *contract) user(t *testing.T, mutate ...func(*user.User)) *user.User {
	t.Helper()
	n := c.next()
	u := &user.User{Name: fmt.Sprintf("User %d", n), Email: fmt.Sprintf("u%d@example.com", n), Phone: fmt.Sprintf("98%08d", n),
		PasswordHash: "$2a$10$hash", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter,
		Balance: decimal.Zero, TotalSpent: decimal.Zero, HeldAmount: decimal.Zero, CreatedAt: at, UpdatedAt: at}
	for _, m := range mutate {
		m(u)
	}
	if err := c.s.Users.Create(c.ctx, u); err != nil {
		t.Fatalf("create user: %v", err)
	}
	return u
}

// funded is a new user with balance money, written by SaveBalance.
func (c *contract) funded(t *testing.T, money string) *user.User {
	t.Helper()
	u := c.user(t)
	u.Balance = dec(money)
	if err := c.s.Users.SaveBalance(c.ctx, u); err != nil {
		t.Fatalf("fund user: %v", err)
	}
	return u
}

func (c *contract) key(t *testing.T, owner *user.User, dailyLimit int) *apikey.Key {
	t.Helper()
	key, secret := apikey.NewCredentials()
	k := &apikey.Key{UserID: owner.ID, Key: key, SecretHash: apikey.HashSecret(secret), Name: fmt.Sprintf("key %d", c.next()),
		DailyLimit: dailyLimit, Status: apikey.StatusActive, CreatedAt: at, UpdatedAt: at}
	if err := c.s.Keys.Create(c.ctx, k); err != nil {
		t.Fatalf("create key: %v", err)
	}
	return k
}

func (c *contract) service(t *testing.T) *catalog.Service {
	t.Helper()
	n := c.next()
	svc := &catalog.Service{Name: fmt.Sprintf("Service %d", n), Slug: fmt.Sprintf("svc-%d", n), Category: "test",
		ProviderURL: "https://example.com/api", Method: "POST", Status: catalog.StatusActive}
	if err := c.s.Services.Create(c.ctx, svc); err != nil {
		t.Fatalf("create service: %v", err)
	}
	return svc
}

// payment is a new payment of owner in status st that expires a day after
// the contract's clock, as mutate leaves it.
func (c *contract) payment(t *testing.T, s store.Stores, owner *user.User, st payment.Status, mutate ...func(*payment.Payment)) *payment.Payment {
	t.Helper()
	p := &payment.Payment{PublicID: fmt.Sprintf("pay_contract%d", c.next()), UserID: owner.ID, Amount: dec("100.00"),
		Currency: "INR", CustomerID: "cust_1", Status: st, Purpose: payment.PurposeCollection, Refunded: decimal.Zero,
		Fee: decimal.Zero, ExpiresAt: at.Add(24 * time.Hour), CreatedAt: at, UpdatedAt: at}
	for _, m := range mutate {
		m(p)
	}
	if err := s.Payments.Create(c.ctx, p); err != nil {
		t.Fatalf("create payment: %v", err)
	}
	return p
}

// refund is a new pending refund of p, first checked a day after the
// contract's clock, as mutate leaves it.
func (c *contract) refund(t *testing.T, s store.Stores, p *payment.Payment, amount string, mutate ...func(*payment.Refund)) *payment.Refund {
	t.Helper()
	r := &payment.Refund{PublicID: fmt.Sprintf("rfnd_contract%d", c.next()), PaymentID: p.ID, UserID: p.UserID,
		Amount: dec(amount), Reason: "requested", Status: payment.RefundPending, NextCheckAt: at.Add(24 * time.Hour),
		CreatedAt: at, UpdatedAt: at}
	for _, m := range mutate {
		m(r)
	}
	if err := s.Refunds.Create(c.ctx, r); err != nil {
		t.Fatalf("create refund: %v", err)
	}
	return r
}

// both runs a and b at the same time and returns their errors.
func both(a, b func() error) (errA, errB error) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); errA = a() }()
	go func() { defer wg.Done(); errB = b() }()
	wg.Wait()
	return errA, errB
}

// whileLocked runs fn twice, each in a transaction of its own: the first
// calls held once it holds its row lock and then keeps the lock a while;
// the second starts meanwhile (its held does nothing). A store whose lock
// holds makes the second wait for the first's commit; one whose lock does
// not lets the second read what the first has not written yet.
func (c *contract) whileLocked(t *testing.T, fn func(ctx context.Context, s store.Stores, held func()) error) (errFirst, errSecond error) {
	t.Helper()
	locked := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- c.tx.WithinTx(c.ctx, func(ctx context.Context, s store.Stores) error {
			return fn(ctx, s, func() {
				close(locked)
				time.Sleep(150 * time.Millisecond) // the second waits for the lock meanwhile
			})
		})
	}()
	select {
	case <-locked:
	case err := <-done:
		t.Fatalf("the first transaction ended before it held the lock: %v", err)
	}
	errSecond = c.tx.WithinTx(c.ctx, func(ctx context.Context, s store.Stores) error { return fn(ctx, s, func() {}) })
	return <-done, errSecond
}

func isKind(err error, k errs.Kind) bool { return err != nil && errs.KindOf(err) == k }

// txContract: fn's error rolls back every write of the transaction, in
// every table a use case writes together; nil commits them all; inside,
// the transaction reads its own writes.
func txContract(t *testing.T, c *contract) {
	ctx := c.ctx
	type seen struct {
		balance   decimal.Decimal
		entries   int64
		holds     int
		hitsToday int
		hitErr    error
		payErr    error
		keyErr    error
		newErr    error
	}
	u, svc := c.funded(t, "50.00"), c.service(t)
	k := c.key(t, u, 10)
	look := func(s store.Stores, n int) seen {
		var v seen
		got, err := s.Users.ByID(ctx, u.ID)
		if err != nil {
			t.Fatalf("read user: %v", err)
		}
		v.balance = got.Balance
		_, v.entries, err = s.Ledger.List(ctx, ledger.Filter{UserID: &u.ID})
		if err != nil {
			t.Fatalf("list ledger: %v", err)
		}
		hs, err := s.Holds.ByUser(ctx, u.ID)
		if err != nil {
			t.Fatalf("list holds: %v", err)
		}
		v.holds = len(hs)
		key, err := s.Keys.ByID(ctx, k.ID)
		if err != nil {
			t.Fatalf("read key: %v", err)
		}
		if key.HitsDate == "2026-11-27" {
			v.hitsToday = key.HitsToday
		}
		_, v.hitErr = s.Hits.ByRequestID(ctx, fmt.Sprintf("req-tx-%d", n))
		_, v.payErr = s.Payments.ByPublicID(ctx, fmt.Sprintf("pay_tx%d", n))
		_, v.keyErr = s.Idempotency.Find(ctx, u.ID, fmt.Sprintf("idem-tx-%d", n), at)
		_, v.newErr = s.Users.ByEmail(ctx, fmt.Sprintf("new%d@example.com", n))
		return v
	}
	// write makes the writes of a metered call and a payment at once.
	write := func(ctx context.Context, s store.Stores, n int) error {
		locked, err := s.Users.LockByID(ctx, u.ID)
		if err != nil {
			return err
		}
		e, err := ledger.NewEntry(locked, ledger.Debit, dec("20.00"), ledger.RefAPIHit, nil, "call", at)
		if err != nil {
			return err
		}
		if err := s.Ledger.Insert(ctx, e); err != nil {
			return err
		}
		if err := s.Users.SaveBalance(ctx, locked); err != nil {
			return err
		}
		if _, err := s.Keys.CountHits(ctx, k.ID, "2026-11-27", 3, at); err != nil {
			return err
		}
		h := hold.Hold{UserID: u.ID, KeyID: k.ID, Day: "2026-11-27", Unit: dec("1.00"), Calls: 3, UsedMoney: decimal.Zero,
			ExpiresAt: at.Add(time.Minute), CreatedAt: at}
		if err := s.Holds.Insert(ctx, &h); err != nil {
			return err
		}
		hit := hitlog.Hit{UserID: u.ID, ServiceID: svc.ID, APIKeyID: k.ID, RequestID: fmt.Sprintf("req-tx-%d", n),
			RequestPayload: "{}", ChargeAmount: dec("20.00"), CostAmount: decimal.Zero, Reserved: decimal.Zero,
			IPAddress: "127.0.0.1", Status: hitlog.StatusSuccess, CreatedAt: at, UpdatedAt: at}
		if err := s.Hits.Insert(ctx, &hit); err != nil {
			return err
		}
		p := &payment.Payment{PublicID: fmt.Sprintf("pay_tx%d", n), UserID: u.ID, Amount: dec("10.00"), Currency: "INR",
			CustomerID: "c", Status: payment.StatusCreated, Purpose: payment.PurposeCollection, Refunded: decimal.Zero,
			Fee: decimal.Zero, ExpiresAt: at.Add(time.Hour), CreatedAt: at, UpdatedAt: at}
		if err := s.Payments.Create(ctx, p); err != nil {
			return err
		}
		if err := s.Idempotency.Claim(ctx, &payment.IdempotencyKey{UserID: u.ID, Key: fmt.Sprintf("idem-tx-%d", n),
			RequestHash: "h", PaymentID: p.ID, ExpiresAt: at.Add(time.Hour), CreatedAt: at}, at); err != nil {
			return err
		}
		nu := &user.User{Name: "New", Email: fmt.Sprintf("new%d@example.com", n), Phone: fmt.Sprintf("97%08d", n),
			PasswordHash: "x", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter,
			Balance: decimal.Zero, TotalSpent: decimal.Zero, HeldAmount: decimal.Zero, CreatedAt: at, UpdatedAt: at}
		return s.Users.Create(ctx, nu)
	}
	written := func(t *testing.T, v seen, what string) {
		t.Helper()
		if !v.balance.Equal(dec("30.00")) || v.entries != 1 || v.holds != 1 || v.hitsToday != 3 ||
			v.hitErr != nil || v.payErr != nil || v.keyErr != nil || v.newErr != nil {
			t.Fatalf("%s: %+v; want balance 30.00, an entry, a hold, 3 calls counted, the hit, payment, key and user", what, v)
		}
	}

	t.Run("a failing fn leaves nothing", func(t *testing.T) {
		failed := errors.New("the call failed")
		err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			if err := write(ctx, s, 1); err != nil {
				return err
			}
			written(t, look(s, 1), "inside the transaction")
			return failed
		})
		if !errors.Is(err, failed) {
			t.Fatalf("WithinTx returned %v, want fn's error", err)
		}
		v := look(c.s, 1)
		if !v.balance.Equal(dec("50.00")) || v.entries != 0 || v.holds != 0 || v.hitsToday != 0 {
			t.Fatalf("after the rollback: %+v; want balance 50.00 and no entry, hold or counted call", v)
		}
		if !isKind(v.hitErr, errs.NotFound) || !errors.Is(v.payErr, payment.ErrNotFound) ||
			!isKind(v.keyErr, errs.NotFound) || !errors.Is(v.newErr, user.ErrNotFound) {
			t.Fatalf("after the rollback the hit, payment, key or user is there: %+v", v)
		}
	})

	t.Run("nil commits every write", func(t *testing.T) {
		// The same unique values again: the rolled-back rows hold nothing.
		if err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error { return write(ctx, s, 1) }); err != nil {
			t.Fatal(err)
		}
		written(t, look(c.s, 1), "after the commit")
	})
}
