package pricing

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
)

// Quote is what one call of a service costs its caller: the row it is
// billed under (its admin cost is the call's cost), the charge, and for a
// reseller's customer the reseller and its commission.
type Quote struct {
	Row        *Price
	Charge     decimal.Decimal
	Reseller   *uint64 // the reseller selling the call, nil when none does
	Commission decimal.Decimal
	Source     Source // where a customer's charge comes from; "" for anyone else
}

// Reads are the rows a quote depends on. The metering path hands cached
// ones; the panel hands the stores.
type Reads struct {
	Prices interface {
		Applicable(ctx context.Context, serviceID, userID uint64) (*Price, error)
	}
	Users interface {
		ByID(ctx context.Context, id uint64) (*user.User, error)
	}
	Selling interface {
		Selling(ctx context.Context, resellerID, serviceID uint64) (Selling, error)
	}
}

// PriceFor is what one call of serviceID costs caller: the one function
// by which a call is charged and by which its price is shown (decisions
// "Resellers: one price, shown and charged"). A reseller's
// customer pays the resale of its reseller's row (Resell: its selling
// price, else its markup, else the list price); a customer whose reseller
// is blocked, deleted or no longer a reseller (user.Resells) pays what an
// ordinary user pays, and no commission accrues; anyone else pays its
// role's Charge under the row applicable to it. ErrNotFound (or the
// store's NotFound) when the service is not priced for the caller.
func PriceFor(ctx context.Context, r Reads, serviceID uint64, caller *user.User) (Quote, error) {
	if caller.ParentID != nil {
		reseller := *caller.ParentID
		seller, err := r.Users.ByID(ctx, reseller)
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return Quote{}, fmt.Errorf("find reseller %d: %w", reseller, err)
		}
		if err == nil && seller.Resells() {
			row, err := r.Prices.Applicable(ctx, serviceID, reseller)
			if err != nil {
				return Quote{}, err
			}
			sel, err := r.Selling.Selling(ctx, reseller, serviceID)
			if err != nil {
				return Quote{}, fmt.Errorf("find selling price: %w", err)
			}
			rs := Resell(row, sel.Price, sel.Markup)
			return Quote{Row: row, Charge: rs.Charge, Reseller: &reseller, Commission: rs.Commission,
				Source: SourceOf(sel.Price, sel.Markup)}, nil
		}
	}
	row, err := r.Prices.Applicable(ctx, serviceID, caller.ID)
	if err != nil {
		return Quote{}, err
	}
	return Quote{Row: row, Charge: row.Charge(caller.Role), Commission: decimal.Zero}, nil
}

// Preview is what a reseller's customers pay for one service under a
// selling price and markup the reseller considers: its own cost, the list
// price (what an ordinary user pays under the reseller's row) and the
// customer's charge, by Resell as PriceFor charges it.
type Preview struct {
	Cost      decimal.Decimal
	List      decimal.Decimal
	Charge    decimal.Decimal
	Source    Source
	BelowList bool // the customer would pay less than the list price
}

// PreviewResale previews the resale of a call under resellerRow with
// selling and markup.
func PreviewResale(resellerRow *Price, selling, markup *decimal.Decimal) Preview {
	rs := Resell(resellerRow, selling, markup)
	list := resellerRow.Charge(user.RoleUser)
	return Preview{Cost: rs.Cost, List: list, Charge: rs.Charge, Source: SourceOf(selling, markup), BelowList: rs.Charge.LessThan(list)}
}
