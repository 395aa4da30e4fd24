package invoicepdf

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestINRGroupsInTheIndianSystem(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0", "0.00"},
		{"0.005", "0.01"}, // half-up to the paisa
		{"0.5", "0.50"},
		{"999.99", "999.99"},
		{"1000", "1,000.00"},
		{"99999.99", "99,999.99"},
		{"100000", "1,00,000.00"},
		{"120500.5", "1,20,500.50"},
		{"1234567.89", "12,34,567.89"},
		{"12345678.9", "1,23,45,678.90"},
		{"1234567890.12", "1,23,45,67,890.12"},
		{"-1234.5", "-1,234.50"},
		{"-999", "-999.00"},
		{"-100000", "-1,00,000.00"},
	} {
		if got := inr(decimal.RequireFromString(c.in)); got != c.want {
			t.Errorf("inr(%s) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := rupees(decimal.RequireFromString("120500.5")); got != "Rs. 1,20,500.50" {
		t.Errorf("rupees = %q", got)
	}
}

func TestPriceKeepsTwoToFourPlaces(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0.5", "0.50"},
		{"0.5000", "0.50"},
		{"0.125", "0.125"},
		{"0.1234", "0.1234"},
		{"0.12345", "0.1235"},
		{"1499", "1,499.00"},
		{"250000.25", "2,50,000.25"},
	} {
		if got := price(decimal.RequireFromString(c.in)); got != c.want {
			t.Errorf("price(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestQuantityGroups(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 1: "1", 999: "999", 1000: "1,000", 12480: "12,480", 1234567: "12,34,567"} {
		if got := quantity(n); got != want {
			t.Errorf("quantity(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestASCIISpellsOutWhatCoreFontsLack(t *testing.T) {
	for _, c := range []struct {
		in, want     string
		keepNewlines bool
	}{
		{"Société Générale", "Societe Generale", false},
		{"₹ 500", "Rs. 500", false},
		{"Müller – Søn’s “API”", `Muller - Son's "API"`, false},
		{"a\tb\r\nc", "a b c", false},
		{"Floor 4\r\nMumbai", "Floor 4\nMumbai", true},
		{"日本", "??", false},
		{"Plain ASCII, 100%", "Plain ASCII, 100%", false},
	} {
		if got := ascii(c.in, c.keepNewlines); got != c.want {
			t.Errorf("ascii(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLabels(t *testing.T) {
	if got := stateLabel("27"); got != "Maharashtra (27)" {
		t.Errorf("stateLabel(27) = %q", got)
	}
	if got := stateLabel("99"); got != "99" {
		t.Errorf("stateLabel(99) = %q", got)
	}
	if got := monthLabel("2026-11"); got != "November 2026" {
		t.Errorf("monthLabel = %q", got)
	}
	if got := percent(halfRate(decimal.RequireFromString("18.00"))); got != "9%" {
		t.Errorf("half of 18.00 = %q", got)
	}
	if got := percent(decimal.RequireFromString("12.50")); got != "12.5%" {
		t.Errorf("percent(12.50) = %q", got)
	}
}
