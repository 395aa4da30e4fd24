package httpapi

import (
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"paygate/core/errs"
)

var errTooManyLogins = errs.E(errs.LimitExceeded, "too_many_login_attempts", "Too many failed login attempts; try again in a minute")

// loginLimiter slows password guessing: failed logins are limited per email
// and per client address. It lives in the process, so each instance counts
// on its own (decisions.md: an optimisation, not a money rule).
type loginLimiter struct {
	mu      sync.Mutex
	perKey  map[string]*limiterEntry
	email   rate.Limit
	ip      rate.Limit
	burstE  int
	burstIP int
	swept   time.Time
}

type limiterEntry struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLoginLimiter() *loginLimiter {
	return &loginLimiter{
		perKey: map[string]*limiterEntry{},
		email:  rate.Every(time.Minute / 5), burstE: 5, // 5 failures a minute per email
		ip: rate.Every(time.Minute / 20), burstIP: 20, // 20 a minute per address
	}
}

func (l *loginLimiter) get(key string, r rate.Limit, burst int, now time.Time) *rate.Limiter {
	e := l.perKey[key]
	if e == nil {
		e = &limiterEntry{lim: rate.NewLimiter(r, burst)}
		l.perKey[key] = e
	}
	e.seen = now
	return e.lim
}

// allowed reports whether another attempt may be tried now.
func (l *loginLimiter) allowed(email, ip string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	return l.get("e:"+strings.ToLower(email), l.email, l.burstE, now).TokensAt(now) >= 1 &&
		l.get("i:"+ip, l.ip, l.burstIP, now).TokensAt(now) >= 1
}

// failed spends one attempt of the email and of the address.
func (l *loginLimiter) failed(email, ip string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.get("e:"+strings.ToLower(email), l.email, l.burstE, now).AllowN(now, 1)
	l.get("i:"+ip, l.ip, l.burstIP, now).AllowN(now, 1)
}

// sweep forgets keys idle for 10 minutes (by then their buckets are full).
func (l *loginLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	for k, e := range l.perKey {
		if now.Sub(e.seen) > 10*time.Minute {
			delete(l.perKey, k)
		}
	}
}
