package invoicepdf

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"
	"golang.org/x/text/unicode/norm"

	"paygate/core/billing/gst"
)

// inr writes an amount with 2 places in the Indian digit grouping, lakhs
// and crores: 120500.5 → "1,20,500.50", -1234.5 → "-1,234.50". It rounds
// half-up to the paisa first, as the ledger does.
func inr(d decimal.Decimal) string {
	return groupIndian(d.Round(2).StringFixed(2))
}

// rupees is inr with the currency in letters: the core fonts have no ₹.
func rupees(d decimal.Decimal) string { return "Rs. " + inr(d) }

// price writes a unit price: grouped like inr, with 2 to 4 places ("0.50",
// "0.1250", "1,499.00"), since per-call prices have 4.
func price(d decimal.Decimal) string {
	s := d.Round(4).StringFixed(4)
	for strings.HasSuffix(s, "0") && len(s)-strings.IndexByte(s, '.') > 3 {
		s = s[:len(s)-1]
	}
	return groupIndian(s)
}

// quantity writes a count grouped like inr: 1234567 → "12,34,567".
func quantity(n int64) string { return groupIndian(strconv.FormatInt(n, 10)) }

// groupIndian groups the integer digits of a plain decimal string ("-123456.78")
// in the Indian system: the last three digits, then pairs.
func groupIndian(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	if len(whole) > 3 {
		head := whole[:len(whole)-3]
		for i := range len(head) {
			if i > 0 && (len(head)-i)%2 == 0 {
				b.WriteByte(',')
			}
			b.WriteByte(head[i])
		}
		b.WriteByte(',')
		whole = whole[len(whole)-3:]
	}
	b.WriteString(whole)
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// percent writes a rate in percent without trailing zeros: 18.00 → "18%",
// 2.50 → "2.5%".
func percent(rate decimal.Decimal) string { return rate.String() + "%" }

// halfRate is the rate of CGST and of SGST: half the GST rate.
func halfRate(rate decimal.Decimal) decimal.Decimal { return rate.Div(decimal.NewFromInt(2)) }

// stateLabel names a GST state code with the code, as a place of supply is
// printed: "27" → "Maharashtra (27)". An unknown code prints alone.
func stateLabel(code string) string {
	if code == "" {
		return ""
	}
	if name, ok := gst.StateName(code); ok {
		return name + " (" + code + ")"
	}
	return code
}

// monthLabel writes a "2026-11" month as "November 2026"; anything else
// prints as given.
func monthLabel(month string) string {
	t, err := time.Parse("2006-01", month)
	if err != nil {
		return month
	}
	return t.Format("January 2006")
}

const (
	dateLayout     = "02 Jan 2006"
	dateTimeLayout = "02 Jan 2006 15:04"
)

// asciiReplacements are the characters outside ASCII that a name or a
// description commonly holds and that have a plain spelling.
var asciiReplacements = map[rune]string{
	'₹': "Rs.", '‘': "'", '’': "'", '‚': ",", '“': `"`, '”': `"`, '„': `"`,
	'–': "-", '—': "-", '−': "-", '•': "-", '·': "-", '×': "x",
	'ß': "ss", 'æ': "ae", 'Æ': "AE", 'ø': "o", 'Ø': "O", 'œ': "oe", 'Œ': "OE",
	'ł': "l", 'Ł': "L", 'đ': "d", 'Đ': "D",
}

// ascii turns text into printable ASCII, the only characters every core
// PDF font draws and fpdf measures: accents are dropped ("Société" →
// "Societe"), common punctuation is spelt plainly, other characters become
// '?', control characters a space. Line breaks stay when keepNewlines.
func ascii(s string, keepNewlines bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		switch {
		case r == '\n' && keepNewlines:
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		case r < 0x7f:
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
			// a combining accent, split off by NFKD
		default:
			if rep, ok := asciiReplacements[r]; ok {
				b.WriteString(rep)
			} else if unicode.IsSpace(r) {
				b.WriteByte(' ')
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// lines splits a multi-line field ("\n"-separated address) into its
// non-blank lines, in ASCII.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(ascii(s, true), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
