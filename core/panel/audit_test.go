package panel_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"paygate/core/audit"
	"paygate/core/catalog"
	"paygate/core/panel"
	"paygate/core/session"
	"paygate/core/store/storetest"
	"paygate/core/user"
)

// auditWorld is the panel over the in-memory store.
type auditWorld struct {
	db    *storetest.DB
	panel *panel.Panel
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
	w.panel = panel.New(panel.Deps{Tx: w.db, Stores: w.db.Stores(), Now: func() time.Time { return now }})
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

func TestAuditFailureRollsBackTheChange(t *testing.T) {
	key := "pk-live-123"
	svc := catalog.Service{ID: 5, Name: "SMS", Slug: "sms", Category: "x", ProviderURL: "https://up.example/sms",
		ProviderKey: &key, Method: "POST", Status: catalog.StatusActive}

	// The entry a deletion writes: the service before, without its key.
	w := newAuditWorld(t)
	w.db.Put(svc)
	if err := w.panel.DeleteService(w.ctx, w.admin, 5); err != nil {
		t.Fatal(err)
	}
	entries := w.db.AuditEntries()
	if len(entries) != 1 {
		t.Fatalf("audit entries %+v", entries)
	}
	if e := entries[0]; e.Action != audit.ServiceDelete || e.After != nil || strings.Contains(string(e.Before), key) ||
		!strings.Contains(string(e.Before), `"provider_key_set":true`) {
		t.Errorf("entry %+v before %s", e, e.Before)
	}

	// The entry cannot be written: the use case returns the failure and
	// the deletion rolls back with it.
	w = newAuditWorld(t)
	w.db.Put(svc)
	boom := errors.New("disk full")
	w.db.Fail("Audit.Add", boom)
	if err := w.panel.DeleteService(w.ctx, w.admin, 5); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the audit failure", err)
	}
	if _, err := w.db.Stores().Services.ByID(context.Background(), 5); err != nil {
		t.Fatalf("the service is gone without its audit entry: %v", err)
	}
	if n := len(w.db.AuditEntries()); n != 0 {
		t.Fatalf("%d audit entries", n)
	}
}

func TestAuditListIsAdminOnly(t *testing.T) {
	w := newAuditWorld(t)
	w.db.Put(audit.Entry{ID: 2, ActorID: 1, Action: audit.UserActivate}, audit.Entry{ID: 3, ActorID: 1, Action: audit.UserBlock},
		audit.Entry{ID: 4, ActorID: 1, Action: audit.ServiceDelete})
	_, _, err := w.panel.ListAudit(w.ctx, &user.User{ID: 9, Role: user.RoleReseller, Status: user.StatusActive}, audit.Filter{})
	if err == nil {
		t.Fatal("a reseller listed the audit log")
	}
	if w.db.Calls("Audit.List") != 0 {
		t.Fatal("a reseller's request read the audit log")
	}
	rows, total, err := w.panel.ListAudit(w.ctx, w.admin, audit.Filter{Action: audit.UserBlock})
	if err != nil || total != 1 || len(rows) != 1 || rows[0].ID != 3 {
		t.Fatalf("ListAudit = %v, %d, %v", rows, total, err)
	}
}
