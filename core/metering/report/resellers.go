package report

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// CustomerUsage is one reseller's customer's success calls in a range
// (decisions "Resellers: the panel's screens": the reseller dashboard).
type CustomerUsage struct {
	CustomerID uint64
	Calls      int64
	Spend      decimal.Decimal // the customer's charges
	Cost       decimal.Decimal // the reseller's own cost of those calls (charges less commission)
	Commission decimal.Decimal
}

// ResellerRepository reads the sums of a reseller's dashboard.
type ResellerRepository interface {
	// CustomerUsage sums the success hits carrying the reseller (its
	// customers' calls) created in [from, to), per customer.
	CustomerUsage(ctx context.Context, resellerID uint64, from, to time.Time) ([]CustomerUsage, error)
	// CommissionSettled sums the reseller's commission settlements whose
	// hour starts in [from, to), less the reversals taken back of them
	// (commission of calls refunded after they were credited).
	CommissionSettled(ctx context.Context, resellerID uint64, from, to time.Time) (decimal.Decimal, error)
	// HitCommissions reads the commission recorded on each of the hits
	// (api_hit_logs.commission); a hit not found is left out.
	HitCommissions(ctx context.Context, hitIDs []uint64) (map[uint64]decimal.Decimal, error)
}
