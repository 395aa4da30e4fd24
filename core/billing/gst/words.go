package gst

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

var (
	unitWords = []string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
		"Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"}
	tensWords = []string{"", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"}
)

// InWords writes an amount in rupees in words in the Indian system, as a
// tax invoice prints it: "Rupees One Lakh Twenty Thousand Five Hundred and
// Paise Fifty Only" for 120500.50. The amount is first rounded half-up to
// the paisa. Groups are crore, lakh, thousand and hundred; above 99 crore the
// number of crores is itself written in words ("One Hundred Crore", "One
// Lakh Crore"). "and" only joins the rupees and the paise ("One Hundred
// One", never "One Hundred and One"), tens and units are not hyphenated
// ("Twenty One"), and whole rupees have no paise part ("Rupees One Crore
// Only"). An amount under a rupee keeps its rupees, so every amount reads
// the same way: "Rupees Zero and Paise Five Only". A negative amount starts
// with "Minus".
func InWords(amount decimal.Decimal) string {
	amount = amount.Round(2)
	var b strings.Builder
	if amount.IsNegative() {
		b.WriteString("Minus ")
		amount = amount.Neg()
	}
	rupees, paise, _ := strings.Cut(amount.StringFixed(2), ".")
	b.WriteString("Rupees ")
	b.WriteString(strings.Join(indianWords(strings.TrimLeft(rupees, "0")), " "))
	if paise != "00" {
		b.WriteString(" and Paise ")
		b.WriteString(strings.Join(indianWords(strings.TrimLeft(paise, "0")), " "))
	}
	b.WriteString(" Only")
	return b.String()
}

// indianWords writes a whole number given as its decimal digits without
// leading zeros ("" is zero). The digits above the last seven are a number
// of crores, written the same way, so any length works.
func indianWords(digits string) []string {
	if digits == "" {
		return []string{unitWords[0]}
	}
	var out []string
	if len(digits) > 7 {
		out = append(indianWords(digits[:len(digits)-7]), "Crore")
		digits = strings.TrimLeft(digits[len(digits)-7:], "0")
		if digits == "" {
			return out
		}
	}
	n, _ := strconv.Atoi(digits) // at most 7 digits: below one crore
	for _, g := range []struct {
		value int
		name  string
	}{{100000, "Lakh"}, {1000, "Thousand"}, {100, "Hundred"}} {
		if q := n / g.value; q > 0 {
			out = append(out, belowHundred(q)...)
			out = append(out, g.name)
			n %= g.value
		}
	}
	if n > 0 {
		out = append(out, belowHundred(n)...)
	}
	return out
}

// belowHundred writes 1 to 99.
func belowHundred(n int) []string {
	if n < 20 {
		return []string{unitWords[n]}
	}
	if n%10 == 0 {
		return []string{tensWords[n/10]}
	}
	return []string{tensWords[n/10], unitWords[n%10]}
}
