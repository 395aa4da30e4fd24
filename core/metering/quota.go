package metering

import (
	"errors"
	"sync"
	"time"

	"paygate/core/accounts/apikey"
)

// A metered answer tells its caller where the key stands against its daily
// limit (the RateLimit-* headers, decisions: "Prices and limits are visible"). The
// figure comes from what this instance already knows, never from a read of
// its own on the hot path: the key's row as the lookups last read it
// (hits_today of its day), plus the daily calls this instance counted
// since that read (a hold's calls when it is taken, a per-call
// reservation's one, less a released hold's calls not made). So Remaining
// runs up to one hold ahead of the calls made, and calls made through
// another instance show within the lookups' TTL. The limit itself is
// decided in the database (Admit); this figure only reports it.

// DailyQuota is a key's daily limit as a metered answer reports it.
type DailyQuota struct {
	Limit     int           // the key's daily_limit
	Remaining int           // calls left today, 0..Limit
	Reset     time.Duration // until the key's counter starts again: the next local midnight
}

// keyUsage is this instance's view of the keys' daily counters.
type keyUsage struct {
	m sync.Map // key id → *keyTally
}

type keyTally struct {
	mu      sync.Mutex
	rowHits int    // hits_today of the key's row as last read
	rowDay  string // the day rowHits counts for
	day     string // the day since counts for
	since   int    // daily calls this instance counted for day since the row was read
}

func (u *keyUsage) tally(keyID uint64) *keyTally {
	if t, ok := u.m.Load(keyID); ok {
		return t.(*keyTally)
	}
	t, _ := u.m.LoadOrStore(keyID, &keyTally{})
	return t.(*keyTally)
}

// read records a fresh read of the key's row: its counter holds every call
// counted before, so the calls counted here start again from zero.
func (u *keyUsage) read(k *apikey.Key) {
	t := u.tally(k.ID)
	t.mu.Lock()
	t.rowHits, t.rowDay, t.since = k.HitsToday, k.HitsDate, 0
	t.mu.Unlock()
}

// add records n daily calls of day counted (n < 0: given back) by this
// instance. Calls of a day before the one counted are ignored.
func (u *keyUsage) add(keyID uint64, day string, n int) {
	t := u.tally(keyID)
	t.mu.Lock()
	switch {
	case day > t.day:
		t.day, t.since = day, n
	case day == t.day:
		t.since += n
	default:
		t.mu.Unlock()
		return
	}
	// Calls given back that this instance never saw counted (another
	// instance's hold, released here by recovery) take the count to 0 at
	// most.
	base := 0
	if t.rowDay == t.day {
		base = t.rowHits
	}
	t.since = max(t.since, -base)
	t.mu.Unlock()
}

// exhausted records the key's day as used up: the database refused a call
// for the daily limit.
func (u *keyUsage) exhausted(k *apikey.Key, day string) {
	t := u.tally(k.ID)
	t.mu.Lock()
	if day >= t.day {
		base := 0
		if t.rowDay == day {
			base = t.rowHits
		}
		t.day, t.since = day, k.DailyLimit-base
	}
	t.mu.Unlock()
}

// quota is key's standing on day as this instance knows it.
func (u *keyUsage) quota(k *apikey.Key, day string) int {
	t := u.tally(k.ID)
	t.mu.Lock()
	used := 0
	if t.rowDay == day {
		used = t.rowHits
	}
	if t.day == day {
		used += t.since
	}
	t.mu.Unlock()
	return min(max(k.DailyLimit-used, 0), k.DailyLimit)
}

// untilNextDay is the time from now to the next local midnight in loc.
func untilNextDay(now time.Time, loc *time.Location) time.Duration {
	t := now.In(loc)
	y, m, d := t.Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, loc).Sub(t)
}

// UntilNextDay is the time to the next local midnight (TIMEZONE), when the
// keys' daily counters start again: the Retry-After of a 429 "Daily limit
// exceeded".
func (a *Metering) UntilNextDay() time.Duration {
	return untilNextDay(a.now(), a.cfg.Location)
}

// UntilNextMonth is the time to the first local midnight of the next
// month, when the plans' monthly counts start again.
func (a *Metering) UntilNextMonth() time.Duration {
	t := a.now().In(a.cfg.Location)
	y, m, _ := t.Date()
	return time.Date(y, m+1, 1, 0, 0, 0, 0, a.cfg.Location).Sub(t)
}

// quota is where c's key stands against its daily limit once the call
// was answered with err.
func (a *Metering) quota(c *call, err error) DailyQuota {
	if errors.Is(err, apikey.ErrDailyLimit) {
		a.usage.exhausted(c.key, c.day)
	}
	return DailyQuota{Limit: c.key.DailyLimit, Remaining: a.usage.quota(c.key, c.day), Reset: untilNextDay(a.now(), a.cfg.Location)}
}
