package gst_test

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/gst"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestSplit(t *testing.T) {
	cases := []struct {
		gross, rate, taxable, tax string
	}{
		// Where rounding bites: a paisa's tax rounds away, or not.
		{"0.01", "18", "0.01", "0.00"},
		{"0.05", "18", "0.04", "0.01"},
		{"1.18", "18", "1.00", "0.18"},
		{"999999.99", "18", "847457.62", "152542.37"},
		{"100.00", "18", "84.75", "15.25"},
		{"118.00", "18", "100.00", "18.00"},
		{"1000000.00", "18", "847457.63", "152542.37"},
		{"100.00", "5", "95.24", "4.76"},
		{"105.00", "5", "100.00", "5.00"},
		{"100.00", "12", "89.29", "10.71"},
		{"100.00", "28", "78.13", "21.87"}, // 78.125 exactly: half-up
		{"0.16", "28", "0.13", "0.03"},     // 0.125 exactly
		{"0.14", "12", "0.13", "0.01"},     // 0.125 exactly
		{"100.00", "0.25", "99.75", "0.25"},
		{"100.00", "0", "100.00", "0"}, // a bill of supply
		{"0.01", "0", "0.01", "0"},
		{"0", "18", "0", "0"},
		// A credit splits like its opposite.
		{"-100.00", "28", "-78.13", "-21.87"},
		{"-0.05", "18", "-0.04", "-0.01"},
	}
	for _, c := range cases {
		taxable, tax := gst.Split(d(c.gross), d(c.rate))
		if !taxable.Equal(d(c.taxable)) || !tax.Equal(d(c.tax)) {
			t.Errorf("Split(%s, %s) = %s, %s; want %s, %s", c.gross, c.rate, taxable, tax, c.taxable, c.tax)
		}
		if !taxable.Add(tax).Equal(d(c.gross)) {
			t.Errorf("Split(%s, %s): %s + %s is not the gross", c.gross, c.rate, taxable, tax)
		}
	}
}

func TestSplitPanicsOnARateItRefuses(t *testing.T) {
	for _, rate := range []string{"-1", "-100", "100.01", "18.001"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Split at rate %s did not panic", rate)
				}
			}()
			gst.Split(d("100"), d(rate))
		}()
	}
}

func TestValidRate(t *testing.T) {
	for rate, ok := range map[string]bool{
		"0": true, "0.25": true, "3": true, "5": true, "12": true, "18": true, "18.00": true, "28": true, "40": true, "100": true,
		"-0.01": false, "100.01": false, "18.005": false,
	} {
		if got := gst.ValidRate(d(rate)); got != ok {
			t.Errorf("ValidRate(%s) = %v, want %v", rate, got, ok)
		}
	}
}

func TestHeads(t *testing.T) {
	cases := []struct {
		tax              string
		intra            bool
		cgst, sgst, igst string
	}{
		{"18.00", true, "9.00", "9.00", "0"},
		{"15.25", true, "7.62", "7.63", "0"}, // the odd paisa to SGST
		{"0.01", true, "0.00", "0.01", "0"},
		{"0.00", true, "0", "0", "0"},
		{"152542.37", true, "76271.18", "76271.19", "0"},
		{"-15.25", true, "-7.62", "-7.63", "0"}, // a credit: the odd paisa still SGST's
		{"15.25", false, "0", "0", "15.25"},
		{"0.01", false, "0", "0", "0.01"},
		{"0", false, "0", "0", "0"},
	}
	for _, c := range cases {
		cgst, sgst, igst := gst.Heads(d(c.tax), c.intra)
		if !cgst.Equal(d(c.cgst)) || !sgst.Equal(d(c.sgst)) || !igst.Equal(d(c.igst)) {
			t.Errorf("Heads(%s, %v) = %s, %s, %s; want %s, %s, %s", c.tax, c.intra, cgst, sgst, igst, c.cgst, c.sgst, c.igst)
		}
	}
}

// TestSplitProperties: for random amounts from 0.01 to 10,00,000.00 at
// every slab, the parts add up to the gross exactly, the taxable value is
// the half-up rounding computed independently in integer paise, and the
// heads add up to the tax with SGST at most a paisa above CGST.
func TestSplitProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 46)) // fixed: a failure replays
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, rateBP := range []int64{0, 25, 300, 500, 1200, 1800, 2800, 4000} { // basis points: 18% is 1800
		rate := decimal.New(rateBP, -2)
		for range n {
			paise := 1 + rng.Int64N(100_000_000) // 0.01 to 10,00,000.00
			gross := decimal.New(paise, -2)
			taxable, tax := gst.Split(gross, rate)
			if !taxable.Add(tax).Equal(gross) {
				t.Fatalf("Split(%s, %s) = %s + %s", gross, rate, taxable, tax)
			}
			// taxable = round_half_up(paise·10000 / (10000 + rateBP)) paise.
			num, den := paise*10000, 10000+rateBP
			want := decimal.New((2*num+den)/(2*den), -2)
			if !taxable.Equal(want) {
				t.Fatalf("Split(%s, %s) taxable %s, want %s", gross, rate, taxable, want)
			}
			if tax.IsNegative() || taxable.Exponent() < -2 || tax.Exponent() < -2 {
				t.Fatalf("Split(%s, %s) = %s, %s: not paise", gross, rate, taxable, tax)
			}
			cgst, sgst, igst := gst.Heads(tax, true)
			if !cgst.Add(sgst).Equal(tax) || !igst.IsZero() || sgst.Sub(cgst).GreaterThan(d("0.01")) || sgst.LessThan(cgst) {
				t.Fatalf("Heads(%s, true) = %s, %s, %s", tax, cgst, sgst, igst)
			}
			if cgst, sgst, igst := gst.Heads(tax, false); !igst.Equal(tax) || !cgst.IsZero() || !sgst.IsZero() {
				t.Fatalf("Heads(%s, false) = %s, %s, %s", tax, cgst, sgst, igst)
			}
		}
	}
}
