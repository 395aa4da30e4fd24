package gst_test

import (
	"strings"
	"testing"

	"paygate/core/billing/gst"
)

// published are GSTINs printed as valid examples by others, whose check
// characters were not computed by this package: GSTN's documentation
// example (27AAPFU0939F1ZV) and two that validators' tests and samples use.
var published = []string{"27AAPFU0939F1ZV", "29AAGCB7383J1Z4", "27AASCS2460H1Z0"}

// derived are real-format GSTINs whose check characters this package's
// algorithm computed once it agreed with published (and an independent
// implementation): other states, entity numbers above 9, Other Territory.
var derived = []string{
	"07AAPFU0939F1ZX", "33AAGCB7383J2ZE", "97AASCS2460H1ZT", "36AAACH1234KAZK",
	"01ABCPE1234F9ZH", "38AAAGL0001ZZZY", "26AABCD1234E1ZA",
}

const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

func TestGSTINProblemAccepts(t *testing.T) {
	for _, g := range append(append([]string{}, published...), derived...) {
		if p := gst.GSTINProblem(g); p != "" {
			t.Errorf("GSTINProblem(%s) = %q", g, p)
		}
	}
}

func TestGSTINProblemRefuses(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "must be 15 characters"},
		{"27AAPFU0939F1Z", "must be 15 characters"},
		{"27AAPFU0939F1ZVV", "must be 15 characters"},
		{" 27AAPFU0939F1ZV", "must be 15 characters"},          // not normalised
		{"27aapfu0939f1zv", "only capital letters and digits"}, // not normalised
		{"27AAPFU 939F1ZV", "only capital letters and digits"},
		{"27AAPFU-939F1ZV", "only capital letters and digits"},
		{"27ÄAPFU0939F1Z", "only capital letters and digits"}, // 15 bytes, not 15 characters
		{"2AAAPFU0939F1ZV", "2-digit state code"},
		{"00AAPFU0939F1ZV", "00, which is not a GST state code"},
		{"25AAPFU0939F1ZV", "25, which is not a GST state code"},
		{"28AAPFU0939F1ZV", "28, which is not a GST state code"},
		{"39AAPFU0939F1ZV", "39, which is not a GST state code"},
		{"99AAPFU0939F1ZV", "99, which is not a GST state code"},
		{"27AAPF10939F1ZV", "PAN"}, // a digit among the PAN's letters
		{"27AAPFU09391F1Z", "PAN"}, // a digit where the PAN's last letter goes
		{"27AAPFU093XF1ZV", "PAN"},
		{"27AAPFU09391ZZV", "PAN"}, // the PAN's last character a digit
		{"27AAPFU0939F0ZV", "entity number"},
		{"27AAPFU0939F1DV", "Z as its 14th character"}, // a tax deductor's registration
		{"27AAPFU0939F11V", "Z as its 14th character"},
		{"27AAPFU0939F1ZX", "wrong check character"},
		{"27AAPFU0939F1Z0", "wrong check character"},
		{"29AAGCB7383J1Z5", "wrong check character"},
		{"27AAPFU0939F2ZV", "wrong check character"}, // another registration of the same PAN
		{"29AAPFU0939F1ZV", "wrong check character"}, // the right GSTIN in another state
	}
	for _, c := range cases {
		if p := gst.GSTINProblem(c.in); !strings.Contains(p, c.want) {
			t.Errorf("GSTINProblem(%q) = %q, want it to say %q", c.in, p, c.want)
		}
	}
}

// TestGSTINCheckCatchesEverySingleTypo: changing any one of the first 14
// characters of a valid GSTIN, or its check character, to any other letter
// or digit is refused, by the shape or by the check character (Luhn mod N
// catches every single substitution).
func TestGSTINCheckCatchesEverySingleTypo(t *testing.T) {
	for _, g := range append(append([]string{}, published...), derived...) {
		for i := range len(g) {
			for _, r := range alnum {
				if byte(r) == g[i] {
					continue
				}
				typo := g[:i] + string(r) + g[i+1:]
				if gst.GSTINProblem(typo) == "" {
					t.Errorf("%s (from %s) accepted", typo, g)
				}
			}
		}
	}
}

func TestNormalizeGSTIN(t *testing.T) {
	for in, want := range map[string]string{
		" 27aapfu0939f1zv\t": "27AAPFU0939F1ZV",
		"29AAGCB7383J1Z4":    "29AAGCB7383J1Z4",
		"27 AAPFU0939F1ZV":   "27 AAPFU0939F1ZV", // inner spaces are the customer's to fix
	} {
		if got := gst.NormalizeGSTIN(in); got != want {
			t.Errorf("NormalizeGSTIN(%q) = %q, want %q", in, got, want)
		}
	}
	if p := gst.GSTINProblem(gst.NormalizeGSTIN(" 27aapfu0939f1zv ")); p != "" {
		t.Errorf("a lower-case GSTIN is refused after normalising: %s", p)
	}
}

func TestStateAndPANOfGSTIN(t *testing.T) {
	for _, c := range []struct{ in, state, pan string }{
		{"27AAPFU0939F1ZV", "27", "AAPFU0939F"},
		{"29AAGCB7383J1Z4", "29", "AAGCB7383J"},
		{"97AASCS2460H1ZT", "97", "AASCS2460H"},
		{"27AAPFU0939F1ZX", "", ""}, // wrong check character
		{"39AAPFU0939F1ZV", "", ""},
		{"", "", ""},
	} {
		if got := gst.StateOfGSTIN(c.in); got != c.state {
			t.Errorf("StateOfGSTIN(%q) = %q, want %q", c.in, got, c.state)
		}
		if got := gst.PANOfGSTIN(c.in); got != c.pan {
			t.Errorf("PANOfGSTIN(%q) = %q, want %q", c.in, got, c.pan)
		}
	}
}

func TestPANProblem(t *testing.T) {
	for _, ok := range []string{"AAPFU0939F", "ABCPE1234F", "AAGCB7383J", "AAAEA0001Z", gst.NormalizePAN(" abcpe1234f ")} {
		if p := gst.PANProblem(ok); p != "" {
			t.Errorf("PANProblem(%q) = %q", ok, p)
		}
	}
	for _, bad := range []string{"", "ABCPE1234", "ABCPE1234FF", "abcpe1234f", "ABCP11234F", "ABCPEA234F", "ABCPE12345", "ABCPE 234F", "1BCPE1234F"} {
		if p := gst.PANProblem(bad); !strings.Contains(p, "must be a PAN") {
			t.Errorf("PANProblem(%q) = %q", bad, p)
		}
	}
}

func TestSACProblem(t *testing.T) {
	for _, ok := range []string{gst.DefaultSAC, gst.PaymentSAC, "998314", "997212", "990000", "999999"} {
		if p := gst.SACProblem(ok); p != "" {
			t.Errorf("SACProblem(%q) = %q", ok, p)
		}
	}
	for _, bad := range []string{"", "9983", "99831", "9983190", "998A19", "848319", "997158\n", "99-158", "９９7158", " 998319", "0998319", "98319 "} {
		if p := gst.SACProblem(bad); !strings.Contains(p, "6-digit service code") {
			t.Errorf("SACProblem(%q) = %q", bad, p)
		}
	}
}
