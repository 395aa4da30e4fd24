package sensitive

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Shown is how many trailing characters a masked value keeps.
const Shown = 4

// Mask is s with every character but the last four replaced by X
// ("123412341234" → "XXXXXXXX1234"). A value of four characters or fewer
// is all X: its last four would be the whole value.
func Mask(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= Shown {
		return strings.Repeat("X", n)
	}
	cut := len(s)
	for i := 0; i < Shown; i++ {
		_, size := utf8.DecodeLastRuneInString(s[:cut])
		cut -= size
	}
	return strings.Repeat("X", n-Shown) + s[cut:]
}

// MinScrubbed is the shortest value Scrub looks for: a shorter one (a
// four-digit PIN) would match unrelated text, and is all X when masked.
const MinScrubbed = 6

// Scrub replaces every occurrence of each value (of at least MinScrubbed
// characters) in text by its mask: for text that may echo what the caller
// sent, such as a provider's answer or error. The masks keep the values'
// lengths, so JSON text stays JSON when the values need no escaping.
func Scrub(text string, values []string) string {
	for _, v := range values {
		if utf8.RuneCountInString(v) >= MinScrubbed && strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, Mask(v))
		}
	}
	return text
}

// FoldName is a parameter name as a sensitive name is matched: compatibility
// forms folded (NFKC: fullwidth letters), lower case, and every character
// that is neither a letter nor a digit dropped, so "Aadhaar_Number",
// "aadhaar-number" and "AADHAAR NUMBER" are all "aadhaarnumber".
func FoldName(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKC.String(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
