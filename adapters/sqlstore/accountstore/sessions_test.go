package accountstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/session"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

func TestSessions(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		sessions := s.Stores().Sessions
		u, other := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		expires := time.Now().Add(30 * 24 * time.Hour)
		var made []*session.Token
		for i, owner := range []uint64{u.ID, u.ID, other.ID} {
			tok := &session.Token{UserID: owner, Name: fmt.Sprintf("client %d", i),
				TokenHash: session.Hash(fmt.Sprintf("rt_%d", i)), ExpiresAt: expires}
			if err := sessions.Create(ctx, tok); err != nil {
				t.Fatalf("Create: %v", err)
			}
			made = append(made, tok)
		}
		got, err := sessions.ByHash(ctx, session.Hash("rt_0"))
		if err != nil {
			t.Fatalf("ByHash: %v", err)
		}
		if got.ID != made[0].ID || got.UserID != u.ID || got.Name != "client 0" ||
			!got.ExpiresAt.Equal(expires.Truncate(time.Microsecond)) || got.CreatedAt.IsZero() {
			t.Fatalf("ByHash = %+v", got)
		}
		if _, err := sessions.ByHash(ctx, session.Hash("nope")); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("ByHash(missing) err = %v", err)
		}
		dup := *made[0]
		if err := sessions.Create(ctx, &dup); !errors.Is(err, errs.ErrConflict) {
			t.Fatalf("duplicate token err = %v", err)
		}

		list, err := sessions.ListByUser(ctx, u.ID)
		if err != nil || len(list) != 2 || list[0].ID != made[1].ID {
			t.Fatalf("ListByUser = %+v, %v", list, err)
		}

		// Of concurrent deletes of one token exactly one removes it.
		var removed atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < 10; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := sessions.Delete(ctx, made[0].ID)
				if err != nil {
					t.Errorf("Delete: %v", err)
				}
				if ok {
					removed.Add(1)
				}
			}()
		}
		wg.Wait()
		if removed.Load() != 1 {
			t.Fatalf("%d deletes removed the token, want 1", removed.Load())
		}

		if err := sessions.DeleteByUser(ctx, u.ID); err != nil {
			t.Fatalf("DeleteByUser: %v", err)
		}
		if list, _ := sessions.ListByUser(ctx, u.ID); len(list) != 0 {
			t.Fatalf("%d tokens left after DeleteByUser", len(list))
		}
		if list, _ := sessions.ListByUser(ctx, other.ID); len(list) != 1 {
			t.Fatal("DeleteByUser removed another user's token")
		}
	})
}

func TestSettingsGetOrCreateAgreesUnderConcurrency(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		settings := s.Settings()
		const n = 20
		values := make([]string, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				v, err := settings.GetOrCreate(ctx, "jwt_secret", fmt.Sprintf("candidate-%d", i))
				if err != nil {
					t.Errorf("GetOrCreate: %v", err)
				}
				values[i] = v
			}(i)
		}
		wg.Wait()
		for _, v := range values {
			if v != values[0] || v == "" {
				t.Fatalf("concurrent first starts disagree: %v", values)
			}
		}
		again, err := settings.GetOrCreate(ctx, "jwt_secret", "later")
		if err != nil || again != values[0] {
			t.Fatalf("GetOrCreate later = %q, %v; want %q", again, err, values[0])
		}
	})
}

func TestOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	// sqlite:// creates the parent folder and enables foreign keys and WAL.
	dir := filepath.Join(t.TempDir(), "nested", "data")
	s, err := sqlstore.Open(ctx, "sqlite://"+filepath.Join(dir, "app.db"), nil)
	if err != nil {
		t.Fatalf("Open sqlite: %v", err)
	}
	defer s.Close()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("parent folder not created: %v", err)
	}
	var fk int
	var mode string
	s.DB().Raw("PRAGMA foreign_keys").Scan(&fk)
	s.DB().Raw("PRAGMA journal_mode").Scan(&mode)
	if fk != 1 || mode != "wal" {
		t.Fatalf("foreign_keys=%d journal_mode=%s, want 1 and wal", fk, mode)
	}
	if s.Dialect() != sqlstore.DialectSQLite {
		t.Fatalf("Dialect = %s", s.Dialect())
	}

	for _, bad := range []string{"postgres://x", "nothing", "sqlite://", "sqlite://:memory:"} {
		if s, err := sqlstore.Open(ctx, bad, nil); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", bad)
		}
	}
	// An unreachable server fails fast with the password hidden.
	_, err = sqlstore.Open(ctx, "mysql://root:hunter2@127.0.0.1:1/x?timeout=2s", nil)
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	if msg := err.Error(); !strings.Contains(msg, "xxxxx") || strings.Contains(msg, "hunter2") {
		t.Fatalf("error does not hide the password: %s", msg)
	}
}

func TestOpenMySQLOverSocket(t *testing.T) {
	t.Parallel()
	const sock = "/run/mysqld/mysqld.sock"
	if _, err := os.Stat(sock); err != nil {
		t.Skipf("no MariaDB socket at %s", sock)
	}
	s, err := sqlstore.Open(context.Background(), "mysql://root@localhost/?socket="+sock, nil)
	if err != nil {
		t.Skipf("socket connection refused (the server may need a password): %v", err)
	}
	defer s.Close()
	if s.Dialect() != sqlstore.DialectMySQL {
		t.Fatalf("Dialect = %s", s.Dialect())
	}
}

func TestSessionsPrune(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		sessions := s.Stores().Sessions
		u, other := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		now := time.Now()
		var ids []uint64
		for i := 0; i < 6; i++ {
			expires := now.Add(time.Hour)
			if i == 1 {
				expires = now.Add(-time.Minute) // expired
			}
			tok := &session.Token{UserID: u.ID, Name: "c", TokenHash: session.Hash(fmt.Sprintf("prune-%d-%d", u.ID, i)), ExpiresAt: expires}
			if err := sessions.Create(ctx, tok); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, tok.ID)
		}
		keep := &session.Token{UserID: other.ID, Name: "c", TokenHash: session.Hash(fmt.Sprintf("prune-other-%d", other.ID)), ExpiresAt: now.Add(-time.Minute)}
		if err := sessions.Create(ctx, keep); err != nil {
			t.Fatal(err)
		}
		if err := sessions.Prune(ctx, u.ID, now, 3); err != nil {
			t.Fatalf("Prune: %v", err)
		}
		left, err := sessions.ListByUser(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		for _, l := range left {
			got = append(got, l.ID)
		}
		// The expired one goes, then all but the newest 3 of the rest.
		if want := []uint64{ids[5], ids[4], ids[3]}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("left %v, want %v", got, want)
		}
		if others, _ := sessions.ListByUser(ctx, other.ID); len(others) != 1 {
			t.Fatalf("another user's sessions were pruned: %d left", len(others))
		}
	})
}
