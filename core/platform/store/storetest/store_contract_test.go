package storetest_test

import (
	"testing"

	"paygate/core/platform/store"
	"paygate/core/platform/store/storecontract"
	"paygate/core/platform/store/storetest"
)

func TestStoreContract(t *testing.T) {
	storecontract.StoreContract(t, func(*testing.T) (store.Transactor, store.Stores) {
		db := storetest.New()
		return db, db.Stores()
	})
}
