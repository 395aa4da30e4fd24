package inr

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in     string
		places int
		want   string
		ok     bool
	}{
		{"12", 2, "12", true},
		{"12.5", 2, "12.5", true},
		{"12.50", 2, "12.5", true},
		{"0.0001", 4, "0.0001", true},
		{"-3.25", 2, "-3.25", true},
		{"1.005", 2, "", false},
		{"1e3", 2, "", false},
		{"", 2, "", false},
		{" ", 2, "", false},
		{".5", 2, "", false},
		{"5.", 2, "", false},
		{"1,000", 2, "", false},
		{"NaN", 2, "", false},
		{"+1", 2, "", false},
		{"12345678901234567890123456789012345", 2, "", false},
		{"123456789012345678901234", 2, "123456789012345678901234", true},
		{"1234567890123456789012345", 2, "", false},
		{"000000000000000000000000001", 2, "", false},
		// Found by FuzzParse: 32 digits were accepted, but their own
		// formatting with 2 places ("….00", 35 characters) was refused.
		{"99999999999999999999999999999999", 2, "", false},
		{"-0", 2, "0", true},
	}
	for _, c := range cases {
		got, ok := Parse(c.in, c.places)
		if ok != c.ok || (ok && !got.Equal(decimal.RequireFromString(c.want))) {
			t.Errorf("Parse(%q,%d) = %s,%v; want %s,%v", c.in, c.places, got, ok, c.want, c.ok)
		}
	}
}

func TestRoundAndFormat(t *testing.T) {
	cases := map[string]string{"0.125": "0.13", "0.124": "0.12", "2.005": "2.01", "0.5": "0.50", "0": "0.00"}
	for in, want := range cases {
		if got := Format2(Round2(decimal.RequireFromString(in))); got != want {
			t.Errorf("Round2(%s) = %s, want %s", in, got, want)
		}
	}
	if got := Format4(decimal.RequireFromString("0.5")); got != "0.5000" {
		t.Errorf("Format4 = %s", got)
	}
}

func TestFitsColumn(t *testing.T) {
	cases := []struct {
		in           string
		total, place int
		want         bool
	}{
		{"9999999999.99", 12, 2, true},
		{"10000000000.00", 12, 2, false},
		{"1.001", 12, 2, false},
		{"999999.9999", 10, 4, true},
		{"1000000", 10, 4, false},
		{"0", 12, 2, true},
		{"-0.00", 12, 2, true},
		{"-9999999999.99", 12, 2, true},
		{"-10000000000", 12, 2, false},
		{"1.5000000", 12, 2, true}, // trailing zeros past the places
		{"1.5000001", 12, 2, false},
		{"99999999999e-1", 12, 2, true},
		{"1e10", 12, 2, false},
		{"9e9", 12, 2, true},
		{"12345678901234567890123", 12, 2, false}, // beyond int64
	}
	for _, c := range cases {
		if got := FitsColumn(decimal.RequireFromString(c.in), c.total, c.place); got != c.want {
			t.Errorf("FitsColumn(%s,%d,%d) = %v", c.in, c.total, c.place, got)
		}
	}
}

// The fast path (no digit past the places) agrees with the arithmetic one.
func TestFitsColumnAgreesWithArithmetic(t *testing.T) {
	slow := func(d decimal.Decimal, total, places int) bool {
		limit := decimal.New(1, int32(total-places))
		return d.Abs().LessThan(limit) && d.Equal(d.Round(int32(places)))
	}
	for _, total := range []int{4, 10, 12} {
		for _, places := range []int{0, 2, 4} {
			for exp := int32(-places); exp <= 12; exp++ {
				for _, c := range []int64{0, 1, -1, 9, 10, 99, 100, 12345, 99999, 100000, 999999999, -1000000000, 1 << 40} {
					d := decimal.New(c, exp)
					if got, want := FitsColumn(d, total, places), slow(d, total, places); got != want {
						t.Errorf("FitsColumn(%s, %d, %d) = %v, want %v", d, total, places, got, want)
					}
				}
			}
		}
	}
}
