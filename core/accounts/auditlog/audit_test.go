package auditlog_test

import (
	"context"
	"testing"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/auditlog"
	"paygate/core/accounts/user"
	"paygate/core/platform/store/storetest"
)

// auditWorld is an admin's use case over the in-memory store.
type auditWorld struct {
	db    *storetest.DB
	panel *auditlog.Log
	admin *user.User
	ctx   context.Context
}

func newAuditWorld(t *testing.T) *auditWorld {
	w := &auditWorld{
		db:    storetest.New(),
		admin: &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive},
		ctx:   audit.WithSource(context.Background(), audit.Source{IPAddress: "198.51.100.4", RequestID: "req_X"}),
	}
	w.panel = auditlog.New(w.db.Stores().Audit)
	return w
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
