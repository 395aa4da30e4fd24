package storetest_test

import (
	"testing"

	"paygate/core/platform/store/storecontract"
	"paygate/core/platform/store/storetest"
)

func TestTaxProfileContract(t *testing.T) {
	db := storetest.New()
	storecontract.TaxProfileContract(t, db, db.Stores())
}
