package pricing

import (
	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// HitAmountDigits and HitAmountPlaces are the size of the hit log's amount
// columns (api_hit_logs.charge_amount, reserved_amount, admitted_amount,
// cost_amount and commission are DECIMAL(10, 4), migrations 00001, 00004,
// 00031 and 00042). A call whose charge does not fit them cannot be
// recorded, so it could only fail: a price is refused when it is set
// instead.
const (
	HitAmountDigits = 10
	HitAmountPlaces = 4
)

// MaxCharge is the largest charge a call can carry: a charge has 2 places
// (Charge, Resell) and must fit the hit log's columns.
var MaxCharge = decimal.New(1, HitAmountDigits-HitAmountPlaces).Sub(decimal.New(1, -2)) // 999999.99

// ChargeFits reports whether a call's charge fits the hit log's amount
// columns.
func ChargeFits(charge decimal.Decimal) bool {
	return inr.FitsColumn(charge, HitAmountDigits, HitAmountPlaces)
}

// ErrChargeTooLarge is the 422 of a price or markup that would make a
// call's charge larger than MaxCharge; its field is the one that was set.
var ErrChargeTooLarge = chargeTooLarge("price", "")

func chargeTooLarge(field, service string) *errs.Error {
	msg := "makes a call's charge larger than " + MaxCharge.StringFixed(2)
	if service != "" {
		msg += " for " + service
	}
	return &errs.Error{Kind: errs.Invalid, Code: "charge_too_large",
		Message: "The charge of a call would exceed " + MaxCharge.StringFixed(2),
		Fields:  map[string][]string{field: {msg}}}
}

// CheckSellingPrice refuses a selling price whose customer's charge under
// resellerRow (Resell, the function that charges it) would not fit.
func CheckSellingPrice(resellerRow *Price, price decimal.Decimal) error {
	if !ChargeFits(Resell(resellerRow, &price, nil).Charge) {
		return chargeTooLarge("price", "")
	}
	return nil
}

// CheckMarkup refuses a default markup whose customer's charge for the
// service named service, sold to the reseller under resellerRow, would not
// fit (Resell with the markup alone: a selling price set today may be
// removed tomorrow).
func CheckMarkup(resellerRow *Price, markup decimal.Decimal, service string) error {
	if !ChargeFits(Resell(resellerRow, nil, &markup).Charge) {
		return chargeTooLarge("default_markup", service)
	}
	return nil
}
