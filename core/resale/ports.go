package resale

import (
	"context"

	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/resale/settlement"
)

// Stores are the repositories the selling use cases read and write.
type Stores struct {
	Services    Services
	Pricing     Prices
	Selling     pricing.CustomerPrices
	Commissions Settlements
}

// Services lists the catalog and reads one service.
type Services interface {
	ByID(ctx context.Context, id uint64) (*catalog.Service, error)
	List(ctx context.Context, f catalog.Filter) ([]catalog.Service, int64, error)
}

// Prices finds the price row applicable to a reseller.
type Prices interface {
	Applicable(ctx context.Context, serviceID, userID uint64) (*pricing.Price, error)
}

// Settlements lists a page of a reseller's commission settlements.
type Settlements interface {
	List(ctx context.Context, f settlement.Filter) ([]settlement.Settlement, error)
	Count(ctx context.Context, f settlement.Filter) (int64, error)
}
