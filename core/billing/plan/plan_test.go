package plan

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestProrate: the days left in the local month, the first day counted,
// rounded half-up to the paisa, on a 30-day and a 31-day month.
func TestProrate(t *testing.T) {
	ist, _ := time.LoadLocation("Asia/Kolkata")
	d := decimal.RequireFromString
	cases := []struct {
		name    string
		monthly string
		at      time.Time
		want    string
	}{
		{"30 days, the first day: all of it", "1000.00", time.Date(2026, 11, 1, 0, 0, 0, 0, ist), "1000.00"},
		{"30 days, the last day: one day", "1000.00", time.Date(2026, 11, 30, 23, 59, 0, 0, ist), "33.33"},
		{"30 days, the 16th: 15 days", "999.99", time.Date(2026, 11, 16, 9, 0, 0, 0, ist), "500.00"}, // 499.995 → half-up
		{"31 days, the first day", "310.00", time.Date(2026, 12, 1, 0, 0, 0, 0, ist), "310.00"},
		{"31 days, the last day", "1000.00", time.Date(2026, 12, 31, 12, 0, 0, 0, ist), "32.26"},
		{"the local day, not UTC's", "3100.00", time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC), "3000.00"}, // 2 Dec 01:30 IST: 30 of 31 days
	}
	for _, c := range cases {
		if got := Prorate(d(c.monthly), c.at, ist); got.StringFixed(2) != c.want {
			t.Errorf("%s: %s, want %s", c.name, got.StringFixed(2), c.want)
		}
	}
}

// TestProrateIn: a charge booked to a period is prorated by that period's
// days left: by Prorate inside it, nothing once it ended (one second into
// the next month included), all of it before it begins.
func TestProrateIn(t *testing.T) {
	ist, _ := time.LoadLocation("Asia/Kolkata")
	d := decimal.RequireFromString
	cases := []struct {
		name   string
		period string
		at     time.Time
		want   string
	}{
		{"its first instant: all of it", "2026-12", time.Date(2026, 12, 1, 0, 0, 0, 0, ist), "3100.00"},
		{"inside: the days left", "2026-12", time.Date(2026, 12, 31, 12, 0, 0, 0, ist), "100.00"},
		{"its last instant: one day", "2026-12", time.Date(2026, 12, 31, 23, 59, 59, 0, ist), "100.00"},
		{"one second after it ended: nothing", "2026-12", time.Date(2027, 1, 1, 0, 0, 1, 0, ist), "0.00"},
		{"the instant it ended: nothing", "2026-12", time.Date(2027, 1, 1, 0, 0, 0, 0, ist), "0.00"},
		{"months after: nothing", "2026-11", time.Date(2027, 1, 1, 0, 0, 1, 0, ist), "0.00"},
		{"before it begins: all of it", "2027-01", time.Date(2026, 12, 31, 23, 59, 59, 0, ist), "3100.00"},
		{"its local start, not UTC's", "2027-01", time.Date(2026, 12, 31, 18, 30, 1, 0, time.UTC), "3100.00"}, // 1 Jan 00:00:01 IST
	}
	for _, c := range cases {
		if got := ProrateIn(d("3100.00"), c.period, c.at, ist); got.StringFixed(2) != c.want {
			t.Errorf("%s: %s, want %s", c.name, got.StringFixed(2), c.want)
		}
	}
}

func TestMonths(t *testing.T) {
	ist, _ := time.LoadLocation("Asia/Kolkata")
	if NextMonth("2026-12") != "2027-01" || Month(time.Date(2026, 11, 30, 18, 30, 0, 0, time.UTC), ist) != "2026-12" {
		t.Fatal("month arithmetic")
	}
	start, end, err := Bounds("2026-12", ist)
	if err != nil || !start.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, ist)) || !end.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, ist)) {
		t.Fatalf("bounds %s %s %v", start, end, err)
	}
}
