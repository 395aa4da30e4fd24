package gst

import (
	"fmt"

	"github.com/shopspring/decimal"
)

var (
	hundred = decimal.NewFromInt(100)
	two     = decimal.NewFromInt(2)
)

// ValidRate reports a GST rate Split accepts: a percentage from 0 to 100
// with at most 2 decimal places ("18", "0.25").
func ValidRate(rate decimal.Decimal) bool {
	return !rate.IsNegative() && !rate.GreaterThan(hundred) && rate.Equal(rate.Round(2))
}

// Split splits a gross amount that includes GST at rate percent into its
// taxable value, gross ÷ (1 + rate/100) rounded half-up to the paisa, and
// the tax, gross − taxable value: taxable + tax == gross exactly. Rate 0 (a
// bill of supply) gives tax 0. A negative gross (a credit) splits like its
// opposite. gross is an amount in paise, as the ledger keeps it; rate must
// satisfy ValidRate, which the configuration checks: Split panics otherwise.
func Split(gross, rate decimal.Decimal) (taxable, tax decimal.Decimal) {
	if !ValidRate(rate) {
		panic(fmt.Sprintf("gst.Split: rate %s is not a percentage from 0 to 100 with at most 2 places", rate))
	}
	if rate.IsZero() {
		return gross, decimal.Zero
	}
	// gross·100 ÷ (100 + rate), rounded in one exact step: DivRound
	// compares the exact remainder, so no intermediate rounding can tip a
	// paisa (it rounds half away from zero: half-up for a positive gross).
	taxable = gross.Mul(hundred).DivRound(hundred.Add(rate), 2)
	return taxable, gross.Sub(taxable)
}

// Heads splits a line's gross amount that includes GST at rate percent into
// its taxable value and the heads of GST (docs/decisions.md, "Tax invoices,
// credit notes and statements"). Within the supplier's state (intraState)
// the tax is CGST and SGST, always equal: each half is the exact tax
// (gross − gross ÷ (1 + rate/100)) halved and rounded half-up to the paisa,
// and the taxable value is gross − both halves, so the odd paisa of an odd
// tax moves into the taxable value, never into one head. Otherwise all of
// the tax is IGST, as Split gives it. taxable + cgst + sgst + igst == gross
// exactly; a negative gross (a credit) splits like its opposite. rate must
// satisfy ValidRate (Heads panics otherwise).
func Heads(gross, rate decimal.Decimal, intraState bool) (taxable, cgst, sgst, igst decimal.Decimal) {
	if !intraState || rate.IsZero() {
		taxable, igst = Split(gross, rate)
		return taxable, decimal.Zero, decimal.Zero, igst
	}
	if !ValidRate(rate) {
		panic(fmt.Sprintf("gst.Heads: rate %s is not a percentage from 0 to 100 with at most 2 places", rate))
	}
	// gross·rate ÷ (2·(100 + rate)) in one exact step, as Split does.
	half := gross.Mul(rate).DivRound(two.Mul(hundred.Add(rate)), 2)
	return gross.Sub(half.Mul(two)), half, half, decimal.Zero
}
