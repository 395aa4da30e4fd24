package user

import (
	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
)

// Limits are the per-account limits and fees an admin sets on an account
// and a reseller's customer is bound by (decisions "Resellers: a
// customer is never looser than its reseller"): the daily payout limit (lower is stricter)
// and the collection fee (higher is stricter).
type Limits struct {
	DailyPayoutLimit     decimal.Decimal
	CollectionFeePercent decimal.Decimal
}

// OwnLimits are the limits stored on u's row.
func (u *User) OwnLimits() Limits {
	return Limits{DailyPayoutLimit: u.DailyPayoutLimit, CollectionFeePercent: u.CollectionFeePercent}
}

// Stricter is the stricter of a and b in each limit.
func Stricter(a, b Limits) Limits {
	return Limits{DailyPayoutLimit: decimal.Min(a.DailyPayoutLimit, b.DailyPayoutLimit),
		CollectionFeePercent: decimal.Max(a.CollectionFeePercent, b.CollectionFeePercent)}
}

// EffectiveLimits are the limits that apply to u, whose reseller (its
// parent's row) is reseller, nil for an account that is nobody's customer:
// a customer is bound by the stricter of its own and its reseller's, so
// whatever the order of the admin's changes to either, a customer is never
// looser than its reseller. The reseller's own payout limit also bounds its
// customers' payouts together with its own (gateway's payout check).
func EffectiveLimits(u, reseller *User) Limits {
	own := u.OwnLimits()
	if reseller == nil || u.ParentID == nil || *u.ParentID != reseller.ID {
		return own
	}
	return Stricter(own, reseller.OwnLimits())
}

// ErrLooserThanReseller is the 422 of a customer limit a reseller sets
// looser than its own; Fields names each such limit.
func ErrLooserThanReseller(fields errs.FieldErrors) error {
	return &errs.Error{Kind: errs.Invalid, Code: "looser_than_reseller",
		Message: "A customer's limits and fees cannot be looser than your own", Fields: fields}
}

// LooserThan lists (by their JSON field names) the limits of l that are
// looser than bound's: a payout limit above it, a collection fee below it.
func (l Limits) LooserThan(bound Limits) errs.FieldErrors {
	fe := errs.FieldErrors{}
	if l.DailyPayoutLimit.GreaterThan(bound.DailyPayoutLimit) {
		fe.Add("daily_payout_limit", "must not be above your own daily payout limit ("+bound.DailyPayoutLimit.StringFixed(2)+")")
	}
	if l.CollectionFeePercent.LessThan(bound.CollectionFeePercent) {
		fe.Add("collection_fee_percent", "must not be below your own collection fee ("+bound.CollectionFeePercent.StringFixed(2)+"%)")
	}
	return fe
}
