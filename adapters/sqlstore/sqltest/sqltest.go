// Package sqltest holds what the store's tests share: rows made with the
// store's own repositories (a user, a service, a key, a hit) and decimal
// helpers. The databases come from internal/testdb.
package sqltest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering/hitlog"
)

var seq atomic.Int64

// Next returns a number unique in this test binary.
func Next() int64 { return seq.Add(1) }

// Dec parses a decimal or fails the test.
func Dec(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("decimal %q: %v", s, err)
	}
	return d
}

// MustEqualDec fails the test unless got equals want.
func MustEqualDec(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	w, err := decimal.NewFromString(want)
	if err != nil {
		t.Fatalf("decimal %q: %v", want, err)
	}
	if !got.Equal(w) {
		t.Fatalf("%s = %s, want %s", what, got.String(), want)
	}
}

// NewUser creates an active user on the starter plan, changed by mutate.
func NewUser(t *testing.T, s *sqlstore.Store, mutate ...func(*user.User)) *user.User {
	t.Helper()
	n := Next()
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

// NewService creates an active service, changed by mutate.
func NewService(t *testing.T, s *sqlstore.Store, mutate ...func(*catalog.Service)) *catalog.Service {
	t.Helper()
	n := Next()
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

// NewCaller is a new user with a new service and a key of the user's: the
// three rows a hit refers to.
func NewCaller(t *testing.T, s *sqlstore.Store) (*user.User, *catalog.Service, *apikey.Key) {
	t.Helper()
	u := NewUser(t, s)
	return u, NewService(t, s), NewKey(t, s, u)
}

// NewKey creates an active key of owner's, changed by mutate.
func NewKey(t *testing.T, s *sqlstore.Store, owner *user.User, mutate ...func(*apikey.Key)) *apikey.Key {
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

// BatchHit is a hit of user u on service svc with key key, 0.50 reserved.
func BatchHit(u, svc, key uint64, status hitlog.Status, payload string) *hitlog.Hit {
	return &hitlog.Hit{UserID: u, ServiceID: svc, APIKeyID: key, RequestID: fmt.Sprintf("req_batch_%d", Next()),
		RequestPayload: payload, IPAddress: "127.0.0.1", Status: status,
		ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.RequireFromString("0.50"), CreatedAt: time.Now().UTC()}
}
