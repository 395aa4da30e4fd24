package gst_test

import (
	"strconv"
	"strings"
	"testing"

	"paygate/core/billing/gst"
)

func TestInWords(t *testing.T) {
	cases := []struct{ amount, want string }{
		{"0", "Rupees Zero Only"},
		{"0.00", "Rupees Zero Only"},
		{"1", "Rupees One Only"},
		{"10", "Rupees Ten Only"},
		{"11", "Rupees Eleven Only"},
		{"19", "Rupees Nineteen Only"},
		{"20", "Rupees Twenty Only"},
		{"21", "Rupees Twenty One Only"},
		{"99", "Rupees Ninety Nine Only"},
		{"100", "Rupees One Hundred Only"},
		{"101", "Rupees One Hundred One Only"},
		{"110", "Rupees One Hundred Ten Only"},
		{"999", "Rupees Nine Hundred Ninety Nine Only"},
		{"1000", "Rupees One Thousand Only"},
		{"1001", "Rupees One Thousand One Only"},
		{"1010", "Rupees One Thousand Ten Only"},
		{"10000", "Rupees Ten Thousand Only"},
		{"99999", "Rupees Ninety Nine Thousand Nine Hundred Ninety Nine Only"},
		{"100000", "Rupees One Lakh Only"},
		{"100001", "Rupees One Lakh One Only"},
		{"120500.50", "Rupees One Lakh Twenty Thousand Five Hundred and Paise Fifty Only"},
		{"1234567.89", "Rupees Twelve Lakh Thirty Four Thousand Five Hundred Sixty Seven and Paise Eighty Nine Only"},
		{"9999999.99", "Rupees Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine and Paise Ninety Nine Only"},
		{"10000000", "Rupees One Crore Only"},
		{"10000001", "Rupees One Crore One Only"},
		{"10100000", "Rupees One Crore One Lakh Only"},
		{"999999999.99", "Rupees Ninety Nine Crore Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine and Paise Ninety Nine Only"},
		{"1000000000.00", "Rupees One Hundred Crore Only"},
		{"12345678901", "Rupees One Thousand Two Hundred Thirty Four Crore Fifty Six Lakh Seventy Eight Thousand Nine Hundred One Only"},
		{"1000000000000", "Rupees One Lakh Crore Only"},
		{"100000000000000", "Rupees One Crore Crore Only"},
		// Paise.
		{"0.05", "Rupees Zero and Paise Five Only"},
		{"0.5", "Rupees Zero and Paise Fifty Only"},
		{"0.01", "Rupees Zero and Paise One Only"},
		{"0.99", "Rupees Zero and Paise Ninety Nine Only"},
		{"1.10", "Rupees One and Paise Ten Only"},
		{"15.25", "Rupees Fifteen and Paise Twenty Five Only"},
		// Rounded half-up to the paisa first.
		{"0.005", "Rupees Zero and Paise One Only"},
		{"0.004", "Rupees Zero Only"},
		{"99.999", "Rupees One Hundred Only"},
		// A credit.
		{"-118.00", "Minus Rupees One Hundred Eighteen Only"},
		{"-0.05", "Minus Rupees Zero and Paise Five Only"},
	}
	for _, c := range cases {
		if got := gst.InWords(d(c.amount)); got != c.want {
			t.Errorf("InWords(%s)\n got %q\nwant %q", c.amount, got, c.want)
		}
	}
}

// TestInWordsEveryNumberBelowTwoLakh: every whole amount up to 2,00,000
// reads back as its own number (the words parsed by a small independent
// reader), with no doubled spaces and no "Zero" except for zero itself.
func TestInWordsEveryNumberBelowTwoLakh(t *testing.T) {
	value := map[string]int{"Zero": 0}
	for i, w := range []string{"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
		"Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"} {
		value[w] = i + 1
	}
	for i, w := range []string{"Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"} {
		value[w] = (i + 2) * 10
	}
	scale := map[string]int{"Hundred": 100, "Thousand": 1000, "Lakh": 100000}
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for want := range n + 1 {
		s := gst.InWords(d(strconv.Itoa(want)))
		body, ok := strings.CutPrefix(s, "Rupees ")
		body, ok2 := strings.CutSuffix(body, " Only")
		if !ok || !ok2 || strings.Contains(body, "  ") || (want != 0 && strings.Contains(body, "Zero")) {
			t.Fatalf("InWords(%d) = %q", want, s)
		}
		total, group := 0, 0
		for _, w := range strings.Fields(body) {
			if v, ok := value[w]; ok {
				group += v
				continue
			}
			m, ok := scale[w]
			if !ok {
				t.Fatalf("InWords(%d) = %q: unknown word %q", want, s, w)
			}
			if m == 100 {
				group *= m // "Hundred" only scales the digit before it
				total += group
			} else {
				total += group * m
			}
			group = 0
		}
		if total += group; total != want {
			t.Fatalf("InWords(%d) = %q reads as %d", want, s, total)
		}
	}
}
