package panel_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/audit"
	auditmocks "paygate/core/audit/mocks"
	"paygate/core/catalog"
	catalogmocks "paygate/core/catalog/mocks"
	"paygate/core/panel"
	sessionmocks "paygate/core/session/mocks"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
)

// auditWorld is an App on mocks whose transactions run fn on the stores.
type auditWorld struct {
	users    *usermocks.MockRepository
	services *catalogmocks.MockRepository
	sessions *sessionmocks.MockRepository
	audit    *auditmocks.MockRepository
	panel    *panel.Panel
	admin    *user.User
	ctx      context.Context
}

func newAuditWorld(t *testing.T) *auditWorld {
	w := &auditWorld{
		users: usermocks.NewMockRepository(t), services: catalogmocks.NewMockRepository(t),
		sessions: sessionmocks.NewMockRepository(t), audit: auditmocks.NewMockRepository(t),
		admin: &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive},
		ctx:   audit.WithSource(context.Background(), audit.Source{IPAddress: "198.51.100.4", RequestID: "req_X"}),
	}
	stores := store.Stores{Users: w.users, Services: w.services, Sessions: w.sessions, Audit: w.audit}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	w.panel = panel.New(panel.Deps{Tx: tx, Stores: stores, Now: func() time.Time { return now }})
	return w
}

func TestBlockingAUserIsAudited(t *testing.T) {
	w := newAuditWorld(t)
	secret, hook := "whsec_supersecret", "https://hooks.example/x"
	target := &user.User{ID: 42, Name: "Asha", Email: "asha@example.com", Role: user.RoleUser, Status: user.StatusActive,
		Plan: user.PlanStarter, PasswordHash: "$2a$10$hashhashhash", WebhookSecret: &secret, WebhookURL: &hook, Balance: dec("12.50")}
	w.users.EXPECT().LockByID(mock.Anything, uint64(42)).Return(target, nil)
	w.users.EXPECT().Update(mock.Anything, mock.Anything).Return(nil)
	w.sessions.EXPECT().DeleteByUser(mock.Anything, uint64(42)).Return(nil)
	var got *audit.Entry
	w.audit.EXPECT().Add(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, e *audit.Entry) error {
		got = e
		return nil
	})

	if _, err := w.panel.SetUserStatus(w.ctx, w.admin, 42, user.StatusBlocked); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Action != audit.UserBlock || got.ActorID != 1 || got.TargetType != audit.TargetUser ||
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
	w := newAuditWorld(t)
	key := "pk-live-123"
	svc := &catalog.Service{ID: 5, Name: "SMS", Slug: "sms", Category: "x", ProviderURL: "https://up.example/sms",
		ProviderKey: &key, Method: "POST", Status: catalog.StatusActive}
	w.services.EXPECT().ByID(mock.Anything, uint64(5)).Return(svc, nil)
	w.services.EXPECT().Delete(mock.Anything, uint64(5)).Return(nil)
	boom := errors.New("disk full")
	w.audit.EXPECT().Add(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, e *audit.Entry) error {
		if e.Action != audit.ServiceDelete || e.After != nil || strings.Contains(string(e.Before), key) ||
			!strings.Contains(string(e.Before), `"provider_key_set":true`) {
			t.Errorf("entry %+v before %s", e, e.Before)
		}
		return boom
	})
	// The transactor rolls back on the returned error: the use case must
	// return the audit failure, not swallow it.
	if err := w.panel.DeleteService(w.ctx, w.admin, 5); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the audit failure", err)
	}
}

func TestAuditListIsAdminOnly(t *testing.T) {
	w := newAuditWorld(t)
	_, _, err := w.panel.ListAudit(w.ctx, &user.User{ID: 9, Role: user.RoleReseller, Status: user.StatusActive}, audit.Filter{})
	if err == nil {
		t.Fatal("a reseller listed the audit log")
	}
	w.audit.EXPECT().List(mock.Anything, audit.Filter{Action: audit.UserBlock}).Return([]audit.Entry{{ID: 3}}, 1, nil)
	rows, total, err := w.panel.ListAudit(w.ctx, w.admin, audit.Filter{Action: audit.UserBlock})
	if err != nil || total != 1 || rows[0].ID != 3 {
		t.Fatalf("ListAudit = %v, %d, %v", rows, total, err)
	}
}
