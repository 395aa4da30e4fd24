package storetest_test

import (
	"testing"

	"paygate/core/platform/store/storetest"
)

func TestBrandContract(t *testing.T) {
	db := storetest.New()
	storetest.BrandContract(t, db, db.Stores().Brands, 7, 8)
}
