package history_test

import (
	"context"
	"testing"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering/history"
	"paygate/core/platform/directory"
	"paygate/core/platform/store/storetest"
)

// TestNamesAreScopedToTheCaller: an admin reads every name; a user only
// their own and their keys' (and services', which the catalog shows to all).
func TestNamesAreScopedToTheCaller(t *testing.T) {
	w := struct {
		db    *storetest.DB
		panel *history.History
		admin *user.User
		ctx   context.Context
	}{db: storetest.New(), admin: &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive}, ctx: context.Background()}
	w.panel = history.New(history.Deps{Stores: historyStores(w.db)})
	w.db.Put(user.User{ID: 7, Name: "Asha", Email: "asha@example.com", Role: user.RoleUser, Status: user.StatusActive})
	w.db.Put(user.User{ID: 8, Name: "Ravi", Email: "ravi@example.com", Role: user.RoleUser, Status: user.StatusActive})
	w.db.Put(apikey.Key{ID: 3, UserID: 7, Name: "shop"})
	w.db.Put(apikey.Key{ID: 4, UserID: 8, Name: "cron"})
	w.db.Put(catalog.Service{ID: 9, Name: "SMS", Slug: "sms"})
	ids := directory.IDs{Users: []uint64{7, 8, 7, 99}, Keys: []uint64{3, 4}, Services: []uint64{9, 10}}

	all, err := w.panel.Names(w.ctx, w.admin, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Users) != 2 || all.Users[8].Email != "ravi@example.com" || all.Keys[4].Name != "cron" || all.Services[9].Name != "SMS" {
		t.Fatalf("admin's names %+v", all)
	}
	if _, ok := all.Services[10]; ok {
		t.Fatal("a missing service is named")
	}

	asha := &user.User{ID: 7, Role: user.RoleUser, Status: user.StatusActive}
	own, err := w.panel.Names(w.ctx, asha, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(own.Users) != 1 || own.Users[7].Name != "Asha" || len(own.Keys) != 1 || own.Keys[3].Name != "shop" || own.Services[9].Name != "SMS" {
		t.Fatalf("asha's names %+v", own)
	}
}
