package payout

import "github.com/shopspring/decimal"

// Bound is one daily limit a payout must fit: the limit and the amount of
// the day's counted payouts that count against it. An account's own limit
// counts its payouts and its customers'; a reseller's customer is also
// bound by its reseller's limit, which counts the payouts of the reseller
// and of all its customers (decisions "Resellers: a customer is never
// looser than its reseller"), so customers created at will never pay out past it.
type Bound struct {
	Limit, Used decimal.Decimal
}

// Left is what the bound still admits today, never below zero.
func (b Bound) Left() decimal.Decimal { return decimal.Max(b.Limit.Sub(b.Used), decimal.Zero) }

// Tightest is the bound with the least left (the first on a tie): the
// limit a payout is checked and quoted against.
func Tightest(first Bound, more ...Bound) Bound {
	t := first
	for _, b := range more {
		if b.Left().LessThan(t.Left()) {
			t = b
		}
	}
	return t
}

// CheckDaily refuses amount (ErrDailyLimit, naming the tightest bound)
// when it does not fit every bound.
func CheckDaily(amount decimal.Decimal, first Bound, more ...Bound) error {
	t := Tightest(first, more...)
	if amount.GreaterThan(t.Left()) {
		return ErrDailyLimit(t.Limit, t.Left())
	}
	return nil
}
