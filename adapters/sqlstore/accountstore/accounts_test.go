package accountstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

func TestUserByPhone(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		got, err := s.Stores().Users.ByPhone(ctx, u.Phone)
		if err != nil || got.ID != u.ID || got.Email != u.Email {
			t.Fatalf("ByPhone = %+v, %v", got, err)
		}
		if _, err := s.Stores().Users.ByPhone(ctx, "+000000000000"); !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("ByPhone(missing) err = %v", err)
		}
		// A second account with that phone is refused by name.
		dup := newUserValue(u.Phone)
		if err := s.Stores().Users.Create(ctx, dup); !errors.Is(err, user.ErrPhoneTaken) {
			t.Fatalf("duplicate phone err = %v", err)
		}
	})
}

func newUserValue(phone string) *user.User {
	n := sqltest.Next()
	return &user.User{Name: "Dup", Email: fmt.Sprintf("dup%d@example.com", n), Phone: phone, PasswordHash: "x",
		Role: user.RoleUser, Status: user.StatusPending, Plan: user.PlanStarter}
}

func TestSessionRotateByIDAndDeleteOthers(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		sessions := s.Stores().Sessions
		u, other := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		created := time.Now().Add(-time.Hour).UTC().Truncate(time.Microsecond)
		mk := func(owner uint64, value string) *session.Token {
			tok := &session.Token{UserID: owner, Name: value, TokenHash: session.Hash(value), ExpiresAt: created.Add(24 * time.Hour), CreatedAt: created}
			if err := sessions.Create(ctx, tok); err != nil {
				t.Fatal(err)
			}
			return tok
		}
		a, b, c, o := mk(u.ID, "a"), mk(u.ID, "b"), mk(u.ID, "c"), mk(other.ID, "o")

		got, err := sessions.ByID(ctx, a.ID)
		if err != nil || got.UserID != u.ID || got.Name != "a" || got.LastUsedAt != nil || !got.CreatedAt.Equal(created) {
			t.Fatalf("ByID = %+v, %v", got, err)
		}
		if _, err := sessions.ByID(ctx, o.ID+1000); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("ByID(missing) err = %v", err)
		}

		// Of concurrent rotations from one hash exactly one wins.
		now := time.Now().UTC().Truncate(time.Microsecond)
		var won atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				ok, err := sessions.Rotate(ctx, a.ID, a.TokenHash, session.Hash(fmt.Sprintf("a%d", i)), now, now.Add(48*time.Hour))
				if err != nil {
					t.Errorf("Rotate: %v", err)
				}
				if ok {
					won.Add(1)
				}
			}(i)
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Fatalf("%d rotations won, want 1", won.Load())
		}
		got, _ = sessions.ByID(ctx, a.ID)
		if got.TokenHash == a.TokenHash || got.LastUsedAt == nil || !got.LastUsedAt.Equal(now) ||
			!got.ExpiresAt.Equal(now.Add(48*time.Hour)) || !got.CreatedAt.Equal(created) || got.Name != "a" {
			t.Fatalf("rotated = %+v", got)
		}
		if _, err := sessions.ByHash(ctx, a.TokenHash); !errors.Is(err, errs.ErrNotFound) {
			t.Fatal("the old hash still finds the session")
		}
		if byHash, err := sessions.ByHash(ctx, got.TokenHash); err != nil || byHash.ID != a.ID {
			t.Fatalf("new hash: %+v, %v", byHash, err)
		}

		if err := sessions.DeleteOthers(ctx, u.ID, b.ID); err != nil {
			t.Fatal(err)
		}
		left, _ := sessions.ListByUser(ctx, u.ID)
		if len(left) != 1 || left[0].ID != b.ID {
			t.Fatalf("after DeleteOthers: %+v", left)
		}
		if _, err := sessions.ByID(ctx, c.ID); !errors.Is(err, errs.ErrNotFound) {
			t.Fatal("DeleteOthers left a session")
		}
		if l, _ := sessions.ListByUser(ctx, other.ID); len(l) != 1 {
			t.Fatal("DeleteOthers removed another user's session")
		}
	})
}

func TestResetTokens(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		resets := s.Stores().Resets
		now := time.Now().UTC().Truncate(time.Microsecond)
		hour := now.Add(-user.ResetTTL)
		put := func(email, hash string, at time.Time) {
			t.Helper()
			if err := resets.Put(ctx, user.ResetToken{Email: email, TokenHash: hash, CreatedAt: at}); err != nil {
				t.Fatalf("Put: %v", err)
			}
		}
		take := func(email, hash string, notBefore time.Time) bool {
			t.Helper()
			ok, err := resets.Take(ctx, email, hash, notBefore)
			if err != nil {
				t.Fatalf("Take: %v", err)
			}
			return ok
		}
		count := func() (n int64) {
			s.DB().Raw("SELECT COUNT(*) FROM password_reset_tokens").Scan(&n)
			return n
		}

		put("a@example.com", session.Hash("one"), now)
		put("A@example.com", session.Hash("two"), now) // replaces: one row per email
		if n := count(); n != 1 {
			t.Fatalf("%d rows, want 1", n)
		}
		put("deleted@example.com", session.Hash("gone"), now)
		if err := resets.Delete(ctx, "Deleted@example.com"); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if err := resets.Delete(ctx, "nobody@example.com"); err != nil {
			t.Fatalf("Delete of no token: %v", err)
		}
		if take("deleted@example.com", session.Hash("gone"), hour) || count() != 1 {
			t.Fatal("a deleted token still works")
		}
		if take("a@example.com", session.Hash("one"), hour) {
			t.Fatal("the replaced token was taken")
		}
		if take("b@example.com", session.Hash("two"), hour) {
			t.Fatal("a token was taken for another email")
		}
		if !take("A@EXAMPLE.COM", session.Hash("two"), hour) {
			t.Fatal("the current token was not taken")
		}
		if take("a@example.com", session.Hash("two"), hour) {
			t.Fatal("a token was taken twice")
		}

		// Too old: not taken (and kept until replaced).
		put("old@example.com", session.Hash("old"), now.Add(-61*time.Minute))
		if take("old@example.com", session.Hash("old"), hour) {
			t.Fatal("an expired token was taken")
		}
		if !take("old@example.com", session.Hash("old"), hour.Add(-2*time.Minute)) {
			t.Fatal("the token within the window was not taken")
		}

		// Of concurrent takes exactly one wins.
		put("race@example.com", session.Hash("race"), now)
		var won atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := resets.Take(ctx, "race@example.com", session.Hash("race"), hour)
				if err != nil {
					t.Errorf("Take: %v", err)
				}
				if ok {
					won.Add(1)
				}
			}()
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Fatalf("%d takes won, want 1", won.Load())
		}
	})
}
