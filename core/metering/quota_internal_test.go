package metering

import (
	"testing"
	"time"

	"paygate/core/accounts/apikey"
)

// TestKeyUsage: the daily counter as an instance knows it, from the key's
// row as last read and the calls counted here since.
func TestKeyUsage(t *testing.T) {
	const today, yesterday = "2026-11-25", "2026-11-24"
	key := func(hits int, day string) *apikey.Key {
		return &apikey.Key{ID: 7, DailyLimit: 10, HitsToday: hits, HitsDate: day}
	}
	steps := []struct {
		name string
		do   func(u *keyUsage)
		want int // Remaining of key(…) on today
	}{
		{"row read: 3 calls counted today", func(u *keyUsage) { u.read(key(3, today)) }, 7},
		{"a hold of 4 calls counts them all", func(u *keyUsage) { u.add(7, today, 4) }, 3},
		{"a per-call reservation", func(u *keyUsage) { u.add(7, today, 1) }, 2},
		{"the hold released with 3 calls unmade", func(u *keyUsage) { u.add(7, today, -3) }, 5},
		{"a release of yesterday's hold changes nothing", func(u *keyUsage) { u.add(7, yesterday, -5) }, 5},
		{"a fresh read holds everything counted before", func(u *keyUsage) { u.read(key(5, today)) }, 5},
		{"the database refused a call: used up", func(u *keyUsage) { u.exhausted(key(5, today), today) }, 0},
		{"more calls than the limit never go below 0", func(u *keyUsage) { u.add(7, today, 50) }, 0},
		{"a row of yesterday counts nothing today", func(u *keyUsage) { u.read(key(9, yesterday)) }, 10},
		{"calls given back never take the count below 0", func(u *keyUsage) { u.add(7, today, -100) }, 10},
		{"and later calls count from 0", func(u *keyUsage) { u.add(7, today, 1) }, 9},
	}
	u := &keyUsage{}
	for _, s := range steps {
		s.do(u)
		if got := u.quota(key(0, ""), today); got != s.want {
			t.Fatalf("%s: remaining %d, want %d", s.name, got, s.want)
		}
	}
	// A new day starts from the row's count of it (none) and its own calls.
	u.add(7, "2026-11-26", 2)
	if got := u.quota(key(0, ""), "2026-11-26"); got != 8 {
		t.Fatalf("next day: remaining %d, want 8", got)
	}
}

func TestUntilNextDay(t *testing.T) {
	ist, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		at   time.Time
		want time.Duration
	}{
		{time.Date(2026, 11, 25, 23, 59, 30, 0, ist), 30 * time.Second},
		{time.Date(2026, 11, 25, 0, 0, 0, 0, ist), 24 * time.Hour},
		{time.Date(2026, 12, 31, 18, 0, 0, 0, ist), 6 * time.Hour},
		{time.Date(2026, 11, 25, 18, 30, 0, 0, time.UTC), 24 * time.Hour}, // midnight in India
	} {
		if got := untilNextDay(tc.at, ist); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.at, got, tc.want)
		}
	}
	m := New(Deps{Config: Config{Location: ist}, Now: func() time.Time { return time.Date(2026, 12, 31, 23, 0, 0, 0, ist) }})
	if got := m.UntilNextMonth(); got != time.Hour {
		t.Errorf("until next month %s", got)
	}
	if got := m.UntilNextDay(); got != time.Hour {
		t.Errorf("until next day %s", got)
	}
}
