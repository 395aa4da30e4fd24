package gst_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"paygate/core/billing/gst"
)

func TestFinancialYear(t *testing.T) {
	ist, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		at   time.Time
		loc  *time.Location
		want string
	}{
		{time.Date(2026, 11, 27, 12, 0, 0, 0, ist), ist, "26-27"},
		{time.Date(2026, 3, 31, 23, 59, 0, 0, ist), ist, "25-26"},
		{time.Date(2026, 4, 1, 0, 0, 0, 0, ist), ist, "26-27"},
		{time.Date(2027, 1, 1, 0, 0, 0, 0, ist), ist, "26-27"},
		{time.Date(2027, 3, 31, 23, 59, 59, 999999999, ist), ist, "26-27"},
		// The local date decides: 31 March 19:00 UTC is 1 April 00:30 IST.
		{time.Date(2026, 3, 31, 19, 0, 0, 0, time.UTC), ist, "26-27"},
		{time.Date(2026, 3, 31, 18, 29, 0, 0, time.UTC), ist, "25-26"},
		{time.Date(2026, 3, 31, 19, 0, 0, 0, time.UTC), time.UTC, "25-26"},
		{time.Date(1999, 4, 1, 0, 0, 0, 0, ist), ist, "99-00"},
		{time.Date(2000, 3, 1, 0, 0, 0, 0, ist), ist, "99-00"},
		{time.Date(2009, 4, 1, 0, 0, 0, 0, ist), ist, "09-10"},
	}
	for _, c := range cases {
		if got := gst.FinancialYear(c.at, c.loc); got != c.want {
			t.Errorf("FinancialYear(%s in %s) = %s, want %s", c.at, c.loc, got, c.want)
		}
	}
}

func TestNumber(t *testing.T) {
	cases := []struct {
		prefix, fy string
		seq        int64
		want       string
	}{
		{"PG", "26-27", 1, "PG/26-27/000001"},
		{"PGC", "26-27", 1, "PGC/26-27/000001"}, // credit notes: 16 characters
		{"PG", "26-27", 200, "PG/26-27/000200"},
		{"PG", "99-00", 999999, "PG/99-00/999999"},
		{"PG", "26-27", 1000000, "PG/26-27/1000000"}, // widened: 16 characters
		{"P", "26-27", 99999999, "P/26-27/99999999"},
		{"P2", "26-27", 42, "P2/26-27/000042"},
		{"9", "26-27", 7, "9/26-27/000007"},
	}
	for _, c := range cases {
		got, err := gst.Number(c.prefix, c.fy, c.seq)
		if err != nil || got != c.want {
			t.Errorf("Number(%q, %q, %d) = %q, %v; want %q", c.prefix, c.fy, c.seq, got, err, c.want)
		}
		if len(got) > gst.MaxNumberLen || strings.Trim(got, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-/") != "" {
			t.Errorf("Number(%q, %q, %d) = %q breaks rule 46", c.prefix, c.fy, c.seq, got)
		}
	}
}

func TestNumberSeriesFull(t *testing.T) {
	for _, c := range []struct {
		prefix string
		seq    int64
	}{
		{"PGC", 1000000}, // 17 characters
		{"PG", 10000000}, // 17
		{"P", 100000000}, // 17
		{"ABCD", 1},      // a prefix too long for even the first number
		{"PGC", 1 << 62},
	} {
		got, err := gst.Number(c.prefix, "26-27", c.seq)
		if !errors.Is(err, gst.ErrSeriesFull) || got != "" {
			t.Errorf("Number(%q, 26-27, %d) = %q, %v; want ErrSeriesFull", c.prefix, c.seq, got, err)
		}
	}
}

func TestNumberRefusesWhatTheCallerGot(t *testing.T) {
	for _, c := range []struct {
		prefix, fy string
		seq        int64
	}{
		{"", "26-27", 1},
		{"pg", "26-27", 1},
		{"P-G", "26-27", 1},
		{"P/G", "26-27", 1},
		{"P G", "26-27", 1},
		{"PG", "2026-27", 1},
		{"PG", "26-28", 1},
		{"PG", "26/27", 1},
		{"PG", "2627", 1},
		{"PG", "", 1},
		{"PG", "26-27", 0},
		{"PG", "26-27", -1},
	} {
		got, err := gst.Number(c.prefix, c.fy, c.seq)
		if err == nil || errors.Is(err, gst.ErrSeriesFull) || got != "" {
			t.Errorf("Number(%q, %q, %d) = %q, %v; want an error of the caller's", c.prefix, c.fy, c.seq, got, err)
		}
	}
}

func TestPrefixProblem(t *testing.T) {
	for _, ok := range []string{"PG", "P", "A1", "99"} {
		if p := gst.PrefixProblem(ok); p != "" {
			t.Errorf("PrefixProblem(%q) = %q", ok, p)
		}
		// Both series fit 16 characters with 6-digit sequences.
		for _, series := range []string{ok, gst.CreditNotePrefix(ok)} {
			if n, err := gst.Number(series, "26-27", 999999); err != nil {
				t.Errorf("prefix %q accepted, but Number(%q, 26-27, 999999) = %q, %v", ok, series, n, err)
			}
		}
	}
	for _, bad := range []string{"", "PGX", "INV1", "pg", "P-", "P/", " P", "PÄ"} {
		if p := gst.PrefixProblem(bad); !strings.Contains(p, "capital letters or digits") {
			t.Errorf("PrefixProblem(%q) = %q", bad, p)
		}
	}
	if got := gst.CreditNotePrefix("PG"); got != "PGC" {
		t.Errorf("CreditNotePrefix(PG) = %q", got)
	}
}
