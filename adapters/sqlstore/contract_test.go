package sqlstore_test

import (
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storecontract"
	"paygate/internal/testdb"
)

// TestStoreContract runs the store contract (the cases the in-memory fake
// passes too: conditional updates, the daily reset, holds, keyset pages,
// idempotency keys, rollback) on SQLite and MariaDB. Each area of the
// contract gets a database of its own: the first Each's, the others fresh
// ones of the same kind. Exports read pages of 2 rows, so every export
// crosses keyset pages.
func TestStoreContract(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		openLike := testdb.OpenSQLite
		if s.Dialect() == sqlstore.DialectMySQL {
			openLike = testdb.OpenMySQL
		}
		next := s
		storecontract.StoreContract(t, func(t *testing.T) (store.Transactor, store.Stores) {
			s := next
			if s == nil {
				s = openLike(t)
			}
			next = nil
			s.SetExportPageRows(2)
			return s, s.Stores()
		})
	})
}
