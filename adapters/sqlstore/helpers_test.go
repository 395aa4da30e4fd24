package sqlstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/internal/testdb"
)

var seq atomic.Int64

// next returns a number unique in this test binary.
func next() int64 { return seq.Add(1) }

func dec(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("decimal %q: %v", s, err)
	}
	return d
}

func mustEqualDec(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	w, err := decimal.NewFromString(want)
	if err != nil {
		t.Fatalf("decimal %q: %v", want, err)
	}
	if !got.Equal(w) {
		t.Fatalf("%s = %s, want %s", what, got.String(), want)
	}
}

func newUser(t *testing.T, s *sqlstore.Store, mutate ...func(*user.User)) *user.User {
	t.Helper()
	n := next()
	u := &user.User{
		Name: fmt.Sprintf("User %d", n), Email: fmt.Sprintf("u%d@example.com", n), Phone: fmt.Sprintf("9%09d", n),
		PasswordHash: "$2a$10$hash", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter,
		Balance: decimal.Zero, TotalSpent: decimal.Zero,
	}
	for _, m := range mutate {
		m(u)
	}
	if err := s.Stores().Users.Create(context.Background(), u); err != nil {
		t.Fatalf("create user: %v", err)
	}
	return u
}

func newService(t *testing.T, s *sqlstore.Store, mutate ...func(*catalog.Service)) *catalog.Service {
	t.Helper()
	n := next()
	svc := &catalog.Service{
		Name: fmt.Sprintf("Service %d", n), Slug: fmt.Sprintf("svc-%d", n), Category: "test", ProviderURL: "https://example.com/api",
		Method: "POST", Status: catalog.StatusActive,
	}
	for _, m := range mutate {
		m(svc)
	}
	if err := s.Stores().Services.Create(context.Background(), svc); err != nil {
		t.Fatalf("create service: %v", err)
	}
	return svc
}

// newCaller is a new user with a new service and a key of the user's: the
// three rows a hit refers to.
func newCaller(t *testing.T, s *sqlstore.Store) (*user.User, *catalog.Service, *apikey.Key) {
	t.Helper()
	u := newUser(t, s)
	return u, newService(t, s), newKey(t, s, u)
}

func newKey(t *testing.T, s *sqlstore.Store, owner *user.User, mutate ...func(*apikey.Key)) *apikey.Key {
	t.Helper()
	key, secret := apikey.NewCredentials()
	k := &apikey.Key{
		UserID: owner.ID, Key: key, SecretHash: apikey.HashSecret(secret), Name: "key",
		DailyLimit: apikey.DefaultDailyLimit, Status: apikey.StatusActive,
	}
	for _, m := range mutate {
		m(k)
	}
	if err := s.Stores().Keys.Create(context.Background(), k); err != nil {
		t.Fatalf("create key: %v", err)
	}
	return k
}

// eachAtVersion runs fn on a fresh SQLite and a fresh MySQL database, each
// migrated up to version only (a migration's test fills the tables as they
// were, then migrates the rest).
func eachAtVersion(t *testing.T, version int64, fn func(t *testing.T, s *sqlstore.Store)) {
	for name, url := range map[string]func(testing.TB) string{"sqlite": testdb.SQLiteURL, "mysql": testdb.MySQLURL} {
		t.Run(name, func(t *testing.T) {
			s, err := sqlstore.Open(context.Background(), url(t), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.MigrateTo(context.Background(), version); err != nil {
				t.Fatal(err)
			}
			fn(t, s)
		})
	}
}
