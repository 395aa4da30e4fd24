package accounts_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"paygate/core/accounts"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

// auditWorld is an admin's use case over the in-memory store.
type auditWorld struct {
	db    *storetest.DB
	panel *accounts.Accounts
	admin *user.User
	ctx   context.Context
}

func newAuditWorld(t *testing.T) *auditWorld {
	w := &auditWorld{
		db:    storetest.New(),
		admin: &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive},
		ctx:   audit.WithSource(context.Background(), audit.Source{IPAddress: "198.51.100.4", RequestID: "req_X"}),
	}
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	w.panel = accounts.New(accounts.Deps{Tx: store.Narrow(w.db, accounts.TxStoresOf), Stores: accountStores(w.db), Now: func() time.Time { return now }})
	return w
}

func TestBlockingAUserIsAudited(t *testing.T) {
	w := newAuditWorld(t)
	secret, hook := "whsec_supersecret", "https://hooks.example/x"
	w.db.Put(user.User{ID: 42, Name: "Asha", Email: "asha@example.com", Role: user.RoleUser, Status: user.StatusActive,
		Plan: user.PlanStarter, PasswordHash: "$2a$10$hashhashhash", WebhookSecret: &secret, WebhookURL: &hook, Balance: dec("12.50")})
	w.db.Put(session.Token{ID: 3, UserID: 42, ExpiresAt: time.Now().Add(time.Hour)})

	if _, err := w.panel.SetUserStatus(w.ctx, w.admin, 42, user.StatusBlocked); err != nil {
		t.Fatal(err)
	}
	if u := w.db.User(42); u.Status != user.StatusBlocked || len(w.db.Sessions()) != 0 {
		t.Fatalf("user %+v, sessions %+v", u, w.db.Sessions())
	}
	entries := w.db.AuditEntries()
	if len(entries) != 1 {
		t.Fatalf("audit entries %+v", entries)
	}
	got := entries[0]
	if got.Action != audit.UserBlock || got.ActorID != 1 || got.TargetType != audit.TargetUser ||
		*got.TargetID != 42 || got.IPAddress != "198.51.100.4" || got.RequestID != "req_X" {
		t.Fatalf("entry = %+v", got)
	}
	var before, after map[string]any
	_ = json.Unmarshal(got.Before, &before)
	_ = json.Unmarshal(got.After, &after)
	if before["status"] != "active" || after["status"] != "blocked" || after["balance"] != "12.50" {
		t.Fatalf("before %v after %v", before, after)
	}
	for _, raw := range []json.RawMessage{got.Before, got.After} {
		if strings.Contains(string(raw), "whsec_") || strings.Contains(string(raw), "$2a$") {
			t.Fatalf("snapshot carries a secret: %s", raw)
		}
	}
}
