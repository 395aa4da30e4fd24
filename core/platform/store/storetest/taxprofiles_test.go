package storetest_test

import (
	"testing"

	"paygate/core/platform/store/storetest"
)

func TestTaxProfileContract(t *testing.T) {
	db := storetest.New()
	storetest.TaxProfileContract(t, db, db.Stores())
}
