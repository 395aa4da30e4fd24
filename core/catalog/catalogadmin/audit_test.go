package catalogadmin_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/catalogadmin"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

// auditWorld is an admin's use case over the in-memory store.
type auditWorld struct {
	db    *storetest.DB
	panel *catalogadmin.Catalog
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
	st := w.db.Stores()
	w.panel = catalogadmin.New(store.Narrow(w.db, catalogadmin.TxStoresOf), catalogadmin.Stores{Services: st.Services, Pricing: st.Pricing, Users: st.Users, Selling: st.CustomerPrices}, func() time.Time { return now })
	return w
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
