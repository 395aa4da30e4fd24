package web

import (
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"paygate/core/platform/errs"
)

var (
	errTooManyRequests = errs.E(errs.LimitExceeded, "too_many_requests", "Too many requests; try again later")
)

// KeyedLimiter is a token bucket per key (a client address, an email, a
// user). It lives in the process's memory, so each instance counts on its
// own: an optimisation against abuse, not a money rule (docs/decisions.md,
// "Account mail").
type KeyedLimiter struct {
	mu     sync.Mutex
	perKey map[string]*limiterEntry
	every  time.Duration
	burst  int
	swept  time.Time
}

type limiterEntry struct {
	lim  *rate.Limiter
	seen time.Time
}

// NewKeyedLimiter allows burst requests at once per key, then one per every.
func NewKeyedLimiter(burst int, every time.Duration) *KeyedLimiter {
	return &KeyedLimiter{perKey: map[string]*limiterEntry{}, every: every, burst: burst}
}

// Allow spends one request of every key, or none when any of them is
// spent: then it is a 429 whose Retry-After is when that key has a
// request again.
func (l *KeyedLimiter) Allow(now time.Time, keys ...string) error {
	if _, wait, ok := l.take(now, keys...); !ok {
		return &LimitedError{err: errTooManyRequests, After: wait}
	}
	return nil
}

// LimitedError is a 429 of an in-memory limit and how long it lasts.
type LimitedError struct {
	err   error
	After time.Duration
}

func (e *LimitedError) Error() string { return e.err.Error() }
func (e *LimitedError) Unwrap() error { return e.err }

// take spends one request of every key and returns the spendings;
// nothing is spent when any key is exhausted (wait: until it has one).
func (l *KeyedLimiter) take(now time.Time, keys ...string) ([]*rate.Reservation, time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	taken := make([]*rate.Reservation, 0, len(keys))
	for _, k := range keys {
		e := l.perKey[k]
		if e == nil {
			e = &limiterEntry{lim: rate.NewLimiter(rate.Every(l.every), l.burst)}
			l.perKey[k] = e
		}
		e.seen = now
		r := e.lim.ReserveN(now, 1)
		if wait := r.DelayFrom(now); !r.OK() || wait > 0 {
			r.CancelAt(now)
			giveBack(taken, now)
			if !r.OK() {
				wait = l.every
			}
			return nil, wait, false
		}
		taken = append(taken, r)
	}
	return taken, 0, true
}

func giveBack(taken []*rate.Reservation, now time.Time) {
	for _, r := range taken {
		r.CancelAt(now)
	}
}

// sweep forgets keys idle long enough for their bucket to be full again.
func (l *KeyedLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	full := l.every * time.Duration(l.burst)
	for k, e := range l.perKey {
		if now.Sub(e.seen) > full {
			delete(l.perKey, k)
		}
	}
}

// AddressKey is the client's IPv4 address, or its IPv6 /64: one IPv6
// subscriber holds a whole /64, so a per-address limit must count it once.
func AddressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return "i:" + ip
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return "i:" + p.String()
	}
	return "i:" + a.String()
}
