package keys_test

import (
	"context"
	"errors"
	"fmt"
	"paygate/core/accounts/keys"
	"slices"
	"sync"
	"testing"
	"time"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

// keysPanel is a panel over the in-memory store holding key 3 of user 7
// (allowed service 4, allowed IP 10.0.0.1).
func keysPanel(t *testing.T) (*keys.Keys, *storetest.DB) {
	db := storetest.New()
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	db.Put(apikey.Key{ID: 3, UserID: 7, Name: "k", DailyLimit: 10, AllowedServices: []uint64{4}, AllowedIPs: "10.0.0.1",
		Status: apikey.StatusActive})
	p := keys.New(store.Narrow(db, keys.TxStoresOf), keys.Stores{Keys: db.Stores().Keys, Services: db.Stores().Services}, func() time.Time { return at }, nil)
	return p, db
}

func manyIDs(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// serviceReads is how many times the catalog was read.
func serviceReads(db *storetest.DB) int {
	return db.Calls("Services.ExistingIDs") + db.Calls("Services.ByID") + db.Calls("Services.BySlug")
}

// More than 200 services is refused by its count alone: no lookup at all.
func TestAllowedServicesCountedBeforeAnyLookup(t *testing.T) {
	owner := &user.User{ID: 7, Role: user.RoleUser, Status: user.StatusActive}
	for _, n := range []int{201, 120_000} {
		p, db := keysPanel(t)
		ids := manyIDs(n)
		_, err := p.PatchKey(context.Background(), owner, 3, keys.KeyPatch{AllowedServices: &ids})
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields["allowed_services"]) != 1 {
			t.Fatalf("%d ids: %v, want one allowed_services error", n, err)
		}
		if serviceReads(db) != 0 || db.Calls("Keys.Change") != 0 {
			t.Fatalf("%d ids: %d catalog reads, %d changes", n, serviceReads(db), db.Calls("Keys.Change"))
		}
	}
}

// Up to 200 are checked in one query; the missing ones are named.
func TestAllowedServicesCheckedInOneQuery(t *testing.T) {
	owner := &user.User{ID: 7, Role: user.RoleUser, Status: user.StatusActive}
	p, db := keysPanel(t)
	for _, id := range append(manyIDs(198), 200) { // 199 does not exist
		db.Put(catalog.Service{ID: id, Slug: fmt.Sprintf("s%d", id)})
	}
	ids := append(manyIDs(200), 5, 5) // repeats count once: 200 ids, not 202
	_, err := p.PatchKey(context.Background(), owner, 3, keys.KeyPatch{AllowedServices: &ids})
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Fields["allowed_services"]) != 1 || e.Fields["allowed_services"][0] != "service 199 does not exist" {
		t.Fatalf("err = %v (%+v), want service 199 named", err, e)
	}
	if db.Calls("Services.ExistingIDs") != 1 || serviceReads(db) != 1 || db.Calls("Keys.Change") != 0 {
		t.Fatalf("%d catalog reads (%d ExistingIDs), %d changes", serviceReads(db), db.Calls("Services.ExistingIDs"), db.Calls("Keys.Change"))
	}
}

// A PATCH writes only the fields it names, as one conditional change: a
// name change never rewrites the allow-lists it read.
func TestPatchKeyWritesOnlyWhatItNames(t *testing.T) {
	owner := &user.User{ID: 7, Role: user.RoleUser, Status: user.StatusActive}
	p, db := keysPanel(t)
	var once sync.Once
	db.OnCall("Keys.Change", func() error { // another request changes the allow-lists after this one read the key
		once.Do(func() {
			k := db.Key(3)
			k.AllowedServices, k.AllowedIPs = []uint64{4, 5}, "10.0.0.2"
			db.Put(k)
		})
		return nil
	})
	name := "  renamed "
	if _, err := p.PatchKey(context.Background(), owner, 3, keys.KeyPatch{Name: &name}); err != nil {
		t.Fatal(err)
	}
	k := db.Key(3)
	if k.Name != "renamed" || !slices.Equal(k.AllowedServices, []uint64{4, 5}) || k.AllowedIPs != "10.0.0.2" || k.DailyLimit != 10 {
		t.Fatalf("key %+v: want the new name beside the other request's allow-lists", k)
	}
}
