package pricing

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// Resale is what a reseller's customer pays for one call and what the
// reseller earns on it (decisions "Resellers: one price, shown and charged").
type Resale struct {
	Cost       decimal.Decimal // the reseller's own charge for the call
	Charge     decimal.Decimal // the customer's charge
	Commission decimal.Decimal // Charge − Cost, never negative
}

var hundred = decimal.NewFromInt(100)

// Resell is the resale of a call under resellerRow, the price row
// applicable to the reseller (Applicable(service, resellerID)): the
// reseller's selling price when set, else its own charge × (1 +
// markup/100) when it set a default markup, else the service's user price;
// never below the reseller's own charge, then at least the row's minimum
// hit charge, rounded half-up to 2 places like Charge.
func Resell(resellerRow *Price, selling, markup *decimal.Decimal) Resale {
	cost := resellerRow.Charge(user.RoleReseller)
	var price decimal.Decimal
	switch {
	case selling != nil:
		price = *selling
	case markup != nil:
		price = cost.Mul(hundred.Add(*markup)).Div(hundred)
	default:
		price = resellerRow.UserPrice
	}
	if price.LessThan(cost) {
		price = cost
	}
	if resellerRow.MinimumHitCharge.GreaterThan(price) {
		price = resellerRow.MinimumHitCharge
	}
	charge := inr.Round2(price)
	commission := charge.Sub(cost)
	if commission.IsNegative() {
		commission = decimal.Zero
	}
	return Resale{Cost: cost, Charge: charge, Commission: commission}
}

// Source names where a customer's charge comes from.
type Source string

const (
	SourcePrice  Source = "price"  // the reseller's selling price
	SourceMarkup Source = "markup" // its default markup over its own charge
	SourceList   Source = "list"   // the service's user price
)

// SourceOf is the source of the charge Resell computes from selling and markup.
func SourceOf(selling, markup *decimal.Decimal) Source {
	switch {
	case selling != nil:
		return SourcePrice
	case markup != nil:
		return SourceMarkup
	}
	return SourceList
}

// CustomerPrice is a reseller's selling price of a service to its customers.
type CustomerPrice struct {
	ID         uint64
	ResellerID uint64
	ServiceID  uint64
	Price      decimal.Decimal
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Selling is what a reseller set for one service: its selling price and
// its default markup (percent), each nil when not set.
type Selling struct {
	Price  *decimal.Decimal
	Markup *decimal.Decimal
}

var (
	// ErrBelowCost is the 422 of a selling price below the reseller's own
	// charge for the service.
	ErrBelowCost = &errs.Error{Kind: errs.Invalid, Code: "below_cost", Message: "The price is below your own price for this service",
		Fields: map[string][]string{"price": {"must not be below your own price for this service"}}}
	// ErrCustomerPriceNotFound: no selling price set for this service.
	ErrCustomerPriceNotFound = errs.E(errs.NotFound, "customer_price_not_found", "No selling price set for this service")
)

// ValidateSellingPrice checks a selling price against its column.
func ValidateSellingPrice(p decimal.Decimal) error {
	fe := errs.FieldErrors{}
	if p.IsNegative() {
		fe.Add("price", "must not be negative")
	} else if !inr.FitsColumn(p, 10, 4) {
		fe.Add("price", "must fit 6 digits and 4 decimals")
	}
	return fe.Err()
}

// ValidateMarkup checks a default markup (percent) against its column.
func ValidateMarkup(m decimal.Decimal) error {
	fe := errs.FieldErrors{}
	if m.IsNegative() {
		fe.Add("default_markup", "must not be negative")
	} else if !inr.FitsColumn(m, 6, 2) {
		fe.Add("default_markup", "must fit 4 digits and 2 decimals")
	}
	return fe.Err()
}

// CustomerPrices stores resellers' selling prices (customer_prices) and
// default markups (reseller_settings.default_markup).
type CustomerPrices interface {
	// Selling reads a reseller's selling price of a service and its default
	// markup in one read (the metering path caches it).
	Selling(ctx context.Context, resellerID, serviceID uint64) (Selling, error)
	// ListByReseller returns a reseller's selling prices in service id order.
	ListByReseller(ctx context.Context, resellerID uint64) ([]CustomerPrice, error)
	// Set creates or replaces the selling price of (p.ResellerID, p.ServiceID)
	// and fills p as stored.
	Set(ctx context.Context, p *CustomerPrice) error
	// Delete removes a selling price; ErrCustomerPriceNotFound when none.
	Delete(ctx context.Context, resellerID, serviceID uint64) error
	// Markup is a reseller's default markup, nil when not set.
	Markup(ctx context.Context, resellerID uint64) (*decimal.Decimal, error)
	// SetMarkup sets (nil: clears) a reseller's default markup, touching no
	// other setting of the reseller.
	SetMarkup(ctx context.Context, resellerID uint64, markup *decimal.Decimal, at time.Time) error
}
