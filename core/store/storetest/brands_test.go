package storetest_test

import (
	"testing"

	"paygate/core/store/storetest"
)

func TestBrandContract(t *testing.T) {
	storetest.BrandContract(t, storetest.New().Stores().Brands, 7, 8)
}
