package gst_test

import (
	"testing"

	"paygate/core/billing/gst"
)

// FuzzGSTINProblem: GSTINProblem never panics on any text; an accepted
// GSTIN is already normalised, its state is in force and its PAN is a PAN,
// and any other check character is refused.
func FuzzGSTINProblem(f *testing.F) {
	for _, s := range append(append([]string{}, published...), derived...) {
		f.Add(s)
	}
	for _, s := range []string{"", "27aapfu0939f1zv", "27AAPFU0939F1ZX", "00AAPFU0939F1ZV", "27AAPFU0939F1DV",
		"27ÄAPFU0939F1Z", "27AAPFU0939F1Z\x00", "999999999999999", "ZZZZZZZZZZZZZZZ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if gst.GSTINProblem(s) != "" {
			if gst.StateOfGSTIN(s) != "" || gst.PANOfGSTIN(s) != "" {
				t.Fatalf("%q refused, yet its state or PAN was read", s)
			}
			return
		}
		if len(s) != 15 || gst.NormalizeGSTIN(s) != s {
			t.Fatalf("%q accepted: not 15 normalised characters", s)
		}
		if _, ok := gst.StateName(gst.StateOfGSTIN(s)); !ok {
			t.Fatalf("%q accepted with state %q", s, gst.StateOfGSTIN(s))
		}
		if p := gst.PANProblem(gst.PANOfGSTIN(s)); p != "" {
			t.Fatalf("%q accepted with PAN %q: %s", s, gst.PANOfGSTIN(s), p)
		}
		for _, r := range alnum {
			if byte(r) != s[14] && gst.GSTINProblem(s[:14]+string(r)) == "" {
				t.Fatalf("%q and check character %c both accepted", s, r)
			}
		}
	})
}
