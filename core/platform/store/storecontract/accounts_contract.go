package storecontract

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
)

// usersContract: what the metered call and the balance changes rely on —
// the row lock, SaveBalance and Update each writing only their own
// columns, the plan's allowance carried on the row, and the not-found and
// duplicate errors the use cases test for.
func usersContract(t *testing.T, c *contract) {
	ctx, users := c.ctx, c.s.Users

	t.Run("create, read back, duplicates", func(t *testing.T) {
		u := c.user(t)
		if u.ID == 0 {
			t.Fatal("Create gave no id")
		}
		for name, read := range map[string]func() (*user.User, error){
			"ByID":    func() (*user.User, error) { return users.ByID(ctx, u.ID) },
			"ByEmail": func() (*user.User, error) { return users.ByEmail(ctx, u.Email) },
			"ByPhone": func() (*user.User, error) { return users.ByPhone(ctx, u.Phone) },
		} {
			got, err := read()
			if err != nil || got.ID != u.ID || got.Email != u.Email || got.Name != u.Name || got.Plan != user.PlanStarter ||
				got.Status != user.StatusActive || !got.Balance.IsZero() {
				t.Fatalf("%s: %+v, %v", name, got, err)
			}
		}
		dupEmail := *u
		dupEmail.ID, dupEmail.Phone = 0, "9111111111"
		if err := users.Create(ctx, &dupEmail); !errors.Is(err, user.ErrEmailTaken) {
			t.Fatalf("a second account with the email: %v, want email_taken", err)
		}
		dupPhone := *u
		dupPhone.ID, dupPhone.Email = 0, "other@example.com"
		if err := users.Create(ctx, &dupPhone); !errors.Is(err, user.ErrPhoneTaken) {
			t.Fatalf("a second account with the phone: %v, want phone_taken", err)
		}
		if _, err := users.ByEmail(ctx, "other@example.com"); !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("the refused account was stored: %v", err)
		}
	})

	t.Run("the plan's allowance is on the row", func(t *testing.T) {
		// The metered call reads the monthly allowance from the row it locks.
		u := c.user(t)
		got, err := users.ByID(ctx, u.ID)
		if err != nil || got.MonthlyCalls == nil || *got.MonthlyCalls != user.StarterMonthlyCalls {
			t.Fatalf("a Starter account's allowance: %v, %v; want %d", got.MonthlyCalls, err, user.StarterMonthlyCalls)
		}
		got.Plan = user.PlanEnterprise
		if err := users.Update(ctx, got); err != nil {
			t.Fatal(err)
		}
		if got, err = users.ByID(ctx, u.ID); err != nil || got.MonthlyCalls != nil {
			t.Fatalf("an Enterprise account's allowance: %v, %v; want none (unlimited)", got.MonthlyCalls, err)
		}
	})

	t.Run("not found", func(t *testing.T) {
		ghost := *c.user(t)
		ghost.ID = 987654
		reads := map[string]func() error{
			"ByID":        func() error { _, err := users.ByID(ctx, ghost.ID); return err },
			"ByEmail":     func() error { _, err := users.ByEmail(ctx, "nobody@example.com"); return err },
			"ByPhone":     func() error { _, err := users.ByPhone(ctx, "9000000001"); return err },
			"Update":      func() error { return users.Update(ctx, &ghost) },
			"SaveBalance": func() error { return users.SaveBalance(ctx, &ghost) },
			"LockByID": func() error {
				return c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
					_, err := s.Users.LockByID(ctx, ghost.ID)
					return err
				})
			},
		}
		for name, read := range reads {
			if err := read(); !errors.Is(err, user.ErrNotFound) {
				t.Errorf("%s of an unknown user: %v, want user_not_found", name, err)
			}
		}
	})

	t.Run("SaveBalance writes the money, Update the profile", func(t *testing.T) {
		u := c.user(t)
		money := *u
		money.Balance, money.TotalSpent, money.HeldAmount = dec("150.25"), dec("10.50"), dec("5.00")
		money.PlanMonth, money.PlanCalls = "2026-11", 7
		money.Name = "Not written by SaveBalance"
		if err := users.SaveBalance(ctx, &money); err != nil {
			t.Fatal(err)
		}
		got, err := users.ByID(ctx, u.ID)
		if err != nil || !got.Balance.Equal(dec("150.25")) || !got.TotalSpent.Equal(dec("10.50")) ||
			!got.HeldAmount.Equal(dec("5.00")) || got.PlanMonth != "2026-11" || got.PlanCalls != 7 || got.Name != u.Name {
			t.Fatalf("after SaveBalance: %+v, %v", got, err)
		}
		// A profile change made from a copy read before the money moved
		// leaves the money alone (and the email, which Update never writes).
		stale := *u
		stale.Name, stale.Email = "Renamed", "changed@example.com"
		if err := users.Update(ctx, &stale); err != nil {
			t.Fatal(err)
		}
		got, err = users.ByID(ctx, u.ID)
		if err != nil || got.Name != "Renamed" || got.Email != u.Email || !got.Balance.Equal(dec("150.25")) ||
			!got.HeldAmount.Equal(dec("5.00")) || got.PlanCalls != 7 || got.PlanMonth != "2026-11" {
			t.Fatalf("after Update: %+v, %v", got, err)
		}
	})

	t.Run("parent_id is only ever cleared, and only a user has one", func(t *testing.T) {
		r := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
		rid := r.ID
		cust := c.user(t, func(u *user.User) { u.ParentID = &rid })
		other := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
		// A copy naming another parent writes nothing of it.
		moved := *cust
		moved.ParentID = &other.ID
		if err := users.Update(ctx, &moved); err != nil {
			t.Fatal(err)
		}
		if got, _ := users.ByID(ctx, cust.ID); got.ParentID == nil || *got.ParentID != rid {
			t.Fatalf("parent after an Update naming another: %v", got.ParentID)
		}
		// A customer made an admin keeping its parent is refused.
		admin := *cust
		admin.Role = user.RoleAdmin
		if err := users.Update(ctx, &admin); err == nil {
			t.Fatal("a customer made admin with its parent was stored")
		}
		if got, _ := users.ByID(ctx, cust.ID); got.Role != user.RoleUser || got.ParentID == nil {
			t.Fatalf("after the refused update: %s %v", got.Role, got.ParentID)
		}
		n := c.next()
		bad := user.User{Name: "Reseller", Email: fmt.Sprintf("u%d@example.com", n), Phone: fmt.Sprintf("98%08d", n),
			PasswordHash: "$2a$10$hash", Role: user.RoleReseller, Status: user.StatusActive, Plan: user.PlanStarter, ParentID: &rid,
			Balance: decimal.Zero, TotalSpent: decimal.Zero, HeldAmount: decimal.Zero, CreatedAt: at, UpdatedAt: at}
		if err := users.Create(ctx, &bad); err == nil {
			t.Fatal("a reseller with a parent was created")
		}
		// Detached and promoted in one write: stored.
		admin.Detach()
		if err := users.Update(ctx, &admin); err != nil {
			t.Fatal(err)
		}
		if got, _ := users.ByID(ctx, cust.ID); got.Role != user.RoleAdmin || got.ParentID != nil {
			t.Fatalf("after detach and promotion: %s %v", got.Role, got.ParentID)
		}
	})

	t.Run("a locked read serialises balance changes", func(t *testing.T) {
		// Two debits of 70 from 100: the second waits for the first's lock,
		// reads 30 and is refused; the balance never goes below zero.
		u := c.funded(t, "100.00")
		debit := func(ctx context.Context, s store.Stores, held func()) error {
			read, err := s.Users.LockByID(ctx, u.ID)
			if err != nil {
				return err
			}
			held()
			if _, err := ledger.NewEntry(read, ledger.Debit, dec("70.00"), ledger.RefAPIHit, nil, "call", at); err != nil {
				return err
			}
			return s.Users.SaveBalance(ctx, read)
		}
		first, second := c.whileLocked(t, debit)
		if first != nil || !errors.Is(second, ledger.ErrInsufficientBalance) {
			t.Fatalf("first debit %v, second %v; want the second refused for insufficient balance", first, second)
		}
		if got, _ := users.ByID(ctx, u.ID); !got.Balance.Equal(dec("30.00")) {
			t.Fatalf("balance %s, want 30.00", got.Balance)
		}
	})
}

// keysContract: the daily counter (counted in one conditional write, a new
// local day starting at zero, never past the limit, given back only on its
// own day) and the conditional change and revocation of a key.
func keysContract(t *testing.T, c *contract) {
	ctx, keys := c.ctx, c.s.Keys
	const day1, day2 = "2026-11-27", "2026-11-28"
	counter := func(t *testing.T, id uint64) (int, string) {
		t.Helper()
		k, err := keys.ByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return k.HitsToday, k.HitsDate
	}
	// hits counts n calls in a transaction, as the holds and batches do.
	hits := func(t *testing.T, id uint64, day string, n int) int {
		t.Helper()
		var granted int
		err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) (err error) {
			granted, err = s.Keys.CountHits(ctx, id, day, n, at)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return granted
	}

	t.Run("CountHit counts to the limit, a new day starts at zero", func(t *testing.T) {
		k := c.key(t, c.user(t), 3)
		for i := 1; i <= 4; i++ {
			ok, err := keys.CountHit(ctx, k.ID, day1, at)
			if err != nil || ok != (i <= 3) {
				t.Fatalf("call %d of a limit of 3: %v, %v", i, ok, err)
			}
		}
		if n, d := counter(t, k.ID); n != 3 || d != day1 {
			t.Fatalf("counter %d on %q, want 3 on %s", n, d, day1)
		}
		if got, _ := keys.ByID(ctx, k.ID); got.LastUsedAt == nil || !got.LastUsedAt.Equal(at) {
			t.Fatalf("last used %v, want %v", got.LastUsedAt, at)
		}
		if ok, err := keys.CountHit(ctx, k.ID, day2, at.Add(24*time.Hour)); !ok || err != nil {
			t.Fatalf("the first call of a new day: %v, %v", ok, err)
		}
		if n, d := counter(t, k.ID); n != 1 || d != day2 {
			t.Fatalf("counter %d on %q, want 1 on %s", n, d, day2)
		}
	})

	t.Run("CountHits grants what fits", func(t *testing.T) {
		k := c.key(t, c.user(t), 5)
		for _, step := range []struct {
			day     string
			n, want int
		}{{day1, 3, 3}, {day1, 4, 2}, {day1, 1, 0}, {day1, 0, 0}, {day2, 7, 5}} {
			if got := hits(t, k.ID, step.day, step.n); got != step.want {
				t.Fatalf("%d calls on %s: %d granted, want %d", step.n, step.day, got, step.want)
			}
		}
		if n, d := counter(t, k.ID); n != 5 || d != day2 {
			t.Fatalf("counter %d on %q, want 5 on %s", n, d, day2)
		}
	})

	t.Run("UncountHits gives back on its own day, never below zero", func(t *testing.T) {
		k := c.key(t, c.user(t), 5)
		hits(t, k.ID, day2, 5)
		steps := []struct {
			day  string
			n    int
			want int
		}{{day1, 2, 5}, {day2, 2, 3}, {day2, 10, 0}}
		for _, s := range steps {
			if err := keys.UncountHits(ctx, k.ID, s.day, s.n); err != nil {
				t.Fatal(err)
			}
			if n, d := counter(t, k.ID); n != s.want || d != day2 {
				t.Fatalf("after giving back %d of %s: %d on %q, want %d on %s", s.n, s.day, n, d, s.want, day2)
			}
		}
		if got := hits(t, k.ID, day2, 9); got != 5 {
			t.Fatalf("after giving every call back %d of 9 granted, want 5", got)
		}
	})

	t.Run("a daily limit of 0 counts nothing", func(t *testing.T) {
		k := c.key(t, c.user(t), 0)
		if ok, err := keys.CountHit(ctx, k.ID, day1, at); ok || err != nil {
			t.Fatalf("CountHit: %v, %v", ok, err)
		}
		if got := hits(t, k.ID, day1, 3); got != 0 {
			t.Fatalf("CountHits granted %d", got)
		}
	})

	t.Run("unknown key", func(t *testing.T) {
		if _, err := keys.ByID(ctx, 987654); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("ByID: %v", err)
		}
		if _, err := keys.CountHit(ctx, 987654, day1, at); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("CountHit: %v", err)
		}
		err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			_, err := s.Keys.CountHits(ctx, 987654, day1, 2, at)
			return err
		})
		if !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("CountHits: %v", err)
		}
		if err := keys.UncountHits(ctx, 987654, day1, 2); err != nil {
			t.Fatalf("UncountHits: %v", err)
		}
	})

	t.Run("Change and Revoke are conditional", func(t *testing.T) {
		owner, other := c.user(t), c.user(t)
		k := c.key(t, owner, 5)
		name, limit := "renamed", 9
		got, err := keys.Change(ctx, k.ID, owner.ID, apikey.Change{Name: &name, DailyLimit: &limit}, at.Add(time.Minute))
		if err != nil || got.Name != name || got.DailyLimit != 9 || got.SecretHash != k.SecretHash || !got.UpdatedAt.Equal(at.Add(time.Minute)) {
			t.Fatalf("Change: %+v, %v", got, err)
		}
		if _, err := keys.Change(ctx, k.ID, other.ID, apikey.Change{Name: &name}, at); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("Change by another user: %v", err)
		}
		if _, err := keys.Revoke(ctx, k.ID, other.ID, at); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("Revoke by another user: %v", err)
		}
		revokedAt := at.Add(2 * time.Minute)
		if got, err = keys.Revoke(ctx, k.ID, owner.ID, revokedAt); err != nil || got.Status != apikey.StatusRevoked {
			t.Fatalf("Revoke: %+v, %v", got, err)
		}
		if got, err = keys.Revoke(ctx, k.ID, owner.ID, at.Add(time.Hour)); err != nil || got.Status != apikey.StatusRevoked ||
			!got.UpdatedAt.Equal(revokedAt) {
			t.Fatalf("revoking again: %+v, %v; want it as the first revocation left it", got, err)
		}
		again := "after revocation"
		if _, err := keys.Change(ctx, k.ID, owner.ID, apikey.Change{Name: &again}, at); !errors.Is(err, apikey.ErrRevoked) {
			t.Fatalf("Change of a revoked key: %v", err)
		}
		if got, _ := keys.ByID(ctx, k.ID); got.Name != name || got.Status != apikey.StatusRevoked {
			t.Fatalf("the revoked key: %+v", got)
		}
	})
}
