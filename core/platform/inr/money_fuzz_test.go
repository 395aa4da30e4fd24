package inr

import (
	"strings"
	"testing"
)

// FuzzParse: an accepted amount is plain decimal text with at most
// maxPlaces places; formatting it with maxPlaces places and parsing again
// gives the same amount, and that text is stable.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "12", "12.5", "12.50", "-3.25", " 7.1 ", "1e3", "1.005", ".5", "5.", "+1", "--1", "-", "0x10",
		"１２", "99999999999999999999999999999999", "1.2.3", "NaN", "Inf", "0.0000"} {
		f.Add(s, uint8(2))
		f.Add(s, uint8(4))
	}
	f.Fuzz(func(t *testing.T, s string, places uint8) {
		p := int(places % 9)
		d, ok := Parse(s, p)
		if !ok {
			if !d.IsZero() {
				t.Fatalf("refused %q but returned %s", s, d)
			}
			return
		}
		trimmed := strings.TrimSpace(s)
		if strings.Trim(trimmed, "-0123456789.") != "" || strings.Count(trimmed, ".") > 1 || strings.LastIndex(trimmed, "-") > 0 {
			t.Fatalf("accepted %q: not plain decimal text", s)
		}
		if int(-d.Exponent()) > p {
			t.Fatalf("accepted %q with %d places, max %d", s, -d.Exponent(), p)
		}
		text := d.StringFixed(int32(p))
		again, ok := Parse(text, p)
		if !ok || !again.Equal(d) {
			t.Fatalf("%q → %s → %s (%v)", s, text, again, ok)
		}
		if again.StringFixed(int32(p)) != text {
			t.Fatalf("format not stable: %s vs %s", text, again.StringFixed(int32(p)))
		}
	})
}
