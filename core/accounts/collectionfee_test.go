package accounts_test

import (
	"context"
	"paygate/core/accounts"
	"paygate/core/platform/store"
	"testing"

	"paygate/core/accounts/user"
	"paygate/core/platform/store/storetest"
)

// New accounts start with COLLECTION_FEE_PERCENT (accounts.Config); an admin's
// change applies to that account only and is audited.
func TestCollectionFeeDefaultAndChange(t *testing.T) {
	db := storetest.New()
	p := accounts.New(accounts.Deps{Tx: store.Narrow(db, accounts.TxStoresOf), Stores: accountStores(db), Config: accounts.Config{PasswordCost: 4, CollectionFeePercent: dec("1.75")}})
	admin := &user.User{ID: 1, Role: user.RoleAdmin, Status: user.StatusActive}
	db.Put(*admin)
	ctx := context.Background()
	u, err := p.CreateUser(ctx, admin, accounts.NewUser{Profile: user.Profile{Name: "Asha", Email: "asha@example.com",
		Phone: "9876543210", Password: "user-password-1"}, Status: user.StatusActive})
	if err != nil || !u.CollectionFeePercent.Equal(dec("1.75")) || !db.User(u.ID).CollectionFeePercent.Equal(dec("1.75")) {
		t.Fatalf("new account's fee: %v %v", u, err)
	}
	fee := "0.5"
	if u, err = p.PatchUser(ctx, admin, u.ID, accounts.UserPatch{CollectionFeePercent: &fee}); err != nil || !db.User(u.ID).CollectionFeePercent.Equal(dec("0.50")) {
		t.Fatalf("patched fee: %v %v", u, err)
	}
	bad := "100.5"
	if _, err := p.PatchUser(ctx, admin, u.ID, accounts.UserPatch{CollectionFeePercent: &bad}); err == nil {
		t.Fatal("a fee above 100% was accepted")
	}
	if entries := db.AuditEntries(); len(entries) != 2 || string(entries[1].After) == string(entries[1].Before) {
		t.Fatalf("audit: %+v", entries)
	}
}
