package resalestore_test

import (
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/platform/store/storecontract"
	"paygate/internal/testdb"
)

// TestBrandContract runs the brand store's contract on SQLite and MariaDB.
func TestBrandContract(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		reseller := func(u *user.User) { u.Role = user.RoleReseller }
		a, b := sqltest.NewUser(t, s, reseller), sqltest.NewUser(t, s, reseller)
		storecontract.BrandContract(t, s, s.Stores().Brands, a.ID, b.ID)
	})
}
