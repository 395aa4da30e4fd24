// Package inr holds the rounding and formatting rules for amounts in one
// place. Amounts are shopspring decimals; balances have 2 places, prices 4.
package inr

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Zero is 0.00.
var Zero = decimal.Zero

// Round2 rounds half-up to 2 places (the balance's unit: paise).
// shopspring's Round rounds half away from zero, which is half-up for the
// non-negative amounts we store.
func Round2(d decimal.Decimal) decimal.Decimal { return d.Round(2) }

// Format2 writes an amount with exactly 2 places ("100.00").
func Format2(d decimal.Decimal) string { return d.StringFixed(2) }

// Format2Ptr is Format2 of an optional amount: nil stays nil.
func Format2Ptr(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	s := Format2(*d)
	return &s
}

// Format4 writes an amount with exactly 4 places ("0.5000").
func Format4(d decimal.Decimal) string { return d.StringFixed(4) }

// maxIntDigits bounds the integer part of a parsed amount (far above any
// column's 10 integer digits), so input size is bounded without bounding the
// text length: an accepted amount, written with maxPlaces places, parses again.
const maxIntDigits = 24

// Parse reads a plain decimal string ("12", "12.5", "12.50"). It refuses
// exponents, signs other than a leading '-', blanks, more than maxPlaces
// decimal places and more than 24 integer digits, so "1e3" or "1.005" never
// slip through as money.
func Parse(s string, maxPlaces int) (decimal.Decimal, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return decimal.Zero, false
	}
	body := strings.TrimPrefix(s, "-")
	dot := false
	digits := 0
	places := 0
	for _, r := range body {
		switch {
		case r >= '0' && r <= '9':
			digits++
			if dot {
				places++
			}
		case r == '.' && !dot:
			dot = true
		default:
			return decimal.Zero, false
		}
		if digits-places > maxIntDigits || places > maxPlaces {
			return decimal.Zero, false
		}
	}
	if digits == 0 || strings.HasSuffix(body, ".") || strings.HasPrefix(body, ".") {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, false
	}
	return d, true
}

// FitsColumn reports whether d fits a DECIMAL(total, places) column.
func FitsColumn(d decimal.Decimal, total, places int) bool {
	if exp := int(d.Exponent()); exp >= -places {
		// No digit past places (the usual case, checked for every amount
		// written, without big-number arithmetic): d = c·10^exp fits when
		// c has at most total-places-exp digits.
		return d.IsZero() || d.NumDigits()+exp <= total-places
	}
	limit := decimal.New(1, int32(total-places)) // 10^(total-places)
	return d.Abs().LessThan(limit) && d.Equal(d.Round(int32(places)))
}
