package catalog

import "paygate/core/catalog/pricing"

// Seed is a service registered at first start with its docs and default
// price.
type Seed struct {
	Service Service
	Doc     *Doc
	Price   pricing.Price
}
