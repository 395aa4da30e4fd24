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

// Heads divides a line's tax between the heads of GST. Within the
// supplier's state (intraState) it is CGST and SGST, each half, the odd
// paisa to SGST; otherwise all of it is IGST. cgst + sgst + igst == tax.
func Heads(tax decimal.Decimal, intraState bool) (cgst, sgst, igst decimal.Decimal) {
	if !intraState {
		return decimal.Zero, decimal.Zero, tax
	}
	// Truncate goes toward zero, so a negative tax (a credit) divides like
	// its opposite.
	cgst = tax.Div(two).Truncate(2)
	return cgst, tax.Sub(cgst), decimal.Zero
}
