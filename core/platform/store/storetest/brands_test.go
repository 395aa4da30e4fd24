package storetest_test

import (
	"testing"

	"paygate/core/platform/store/storecontract"
	"paygate/core/platform/store/storetest"
)

func TestBrandContract(t *testing.T) {
	db := storetest.New()
	storecontract.BrandContract(t, db, db.Stores().Brands, 7, 8)
}
