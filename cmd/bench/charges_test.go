package main

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// chargeProblem passes only exact counts: every answered call charged once
// at the price, calls whose answer never arrived charged or not.
func TestChargeProblem(t *testing.T) {
	p := decimal.RequireFromString("0.01")
	money := func(s string) decimal.Decimal { return decimal.RequireFromString(s) }
	cases := []struct {
		name                 string
		answered, unreceived int
		charged              int64
		money                string
		want                 string // substring; "" = no problem
	}{
		{"exact", 1000, 0, 1000, "10.00", ""},
		{"one served free", 1000, 0, 999, "9.99", "1 served free"},
		{"unanswered charged", 1000, 3, 1002, "10.02", ""},
		{"more than answered", 1000, 3, 1004, "10.04", "1004 calls charged but only 1000 answered"},
		{"money short", 1000, 0, 1000, "9.99", "took 9.99"},
		{"money over", 1000, 0, 1000, "10.01", "took 10.01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := chargeProblem(c.answered, c.unreceived, c.charged, money(c.money), p)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Fatalf("chargeProblem = %q, want %q", got, c.want)
			}
		})
	}
}
