package httpapi

import (
	"sync"
	"time"

	"golang.org/x/time/rate"

	"paygate/core/errs"
)

var errTooManyRequests = errs.E(errs.LimitExceeded, "too_many_requests", "Too many requests; try again later")

// keyedLimiter is a token bucket per key (a client address, an email, a
// user), in the process's memory like loginLimiter: each instance counts on
// its own (decisions.md).
type keyedLimiter struct {
	mu     sync.Mutex
	perKey map[string]*limiterEntry
	every  time.Duration
	burst  int
	swept  time.Time
}

// newKeyedLimiter allows burst requests at once per key, then one per every.
func newKeyedLimiter(burst int, every time.Duration) *keyedLimiter {
	return &keyedLimiter{perKey: map[string]*limiterEntry{}, every: every, burst: burst}
}

// allow spends one request of every key, or none when any of them is spent.
func (l *keyedLimiter) allow(now time.Time, keys ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	lims := make([]*rate.Limiter, len(keys))
	for i, k := range keys {
		e := l.perKey[k]
		if e == nil {
			e = &limiterEntry{lim: rate.NewLimiter(rate.Every(l.every), l.burst)}
			l.perKey[k] = e
		}
		e.seen = now
		if e.lim.TokensAt(now) < 1 {
			return false
		}
		lims[i] = e.lim
	}
	for _, lim := range lims {
		lim.AllowN(now, 1)
	}
	return true
}

// sweep forgets keys idle long enough for their bucket to be full again.
func (l *keyedLimiter) sweep(now time.Time) {
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
