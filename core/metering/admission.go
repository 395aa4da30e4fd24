package metering

import (
	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/money/ledger"
)

// Standing is what a metered call is admitted on, read under its owner's
// row lock in the transaction that charges it.
type Standing struct {
	// DailyLeft is how many calls the key's daily counter granted and
	// earlier calls of the same transaction have not taken.
	DailyLeft int
	// Invalid is the parameters' refusal, if any: such a call counts
	// against the day, then is refused.
	Invalid error
	Owner   *user.User // the owner's row, as locked
	Month   string     // the call's plan month
	Charge  decimal.Decimal
}

// Admit is the admission rule of a metered call: nil admits it, else the
// refusal, checked in the order the caller sees them: the key's daily
// limit, the parameters, the plan's monthly limit, the balance available
// (the balance less the money held for calls under way). The per-call
// batch, the gateway's reservation and the hold all decide with it.
func Admit(s Standing) error {
	switch {
	case s.DailyLeft <= 0:
		return apikey.ErrDailyLimit
	case s.Invalid != nil:
		return s.Invalid
	case !s.Owner.PlanAllows(s.Month):
		return ErrPlanLimit
	case s.Owner.Available().LessThan(s.Charge):
		return ledger.ErrInsufficientBalance
	}
	return nil
}

// HoldCalls is how many of want calls at charge a hold may set aside for
// owner: as many as Admit would admit one after another, each charge
// taken from the balance available, before the key's daily count (which
// the database then decides). Holds serve plans without a monthly limit;
// for a limited plan it is at most one call.
func HoldCalls(owner *user.User, month string, charge decimal.Decimal, want int) int {
	if want <= 0 || Admit(Standing{DailyLeft: want, Owner: owner, Month: month, Charge: charge}) != nil {
		return 0
	}
	if owner.PlanLimited() {
		want = 1
	}
	if !charge.IsPositive() {
		return want
	}
	return int(min(int64(want), owner.Available().Div(charge).IntPart()))
}
