// Package signin limits password guessing at the panel's sign-in (and at
// any other check of a password). Its counters live in the database, so
// every instance shares them; the rule over them is pure (Admit, Release).
//
// Three counters see each attempt:
//   - the pair (account, address): one address's failures on one account.
//     After PairFree of them the address backs off on that account, 1 min
//     doubling up to 15 min. Other addresses are not slowed, so an attacker
//     never locks the owner out.
//   - the address: one address's failures on every account (credential
//     stuffing). After AddressFree it backs off the same way.
//   - the account: failures from every address. It never refuses anything
//     itself; over AccountBusy it lowers the pairs' free budget to one
//     failure, so many addresses guessing at one account each get a single
//     try before backing off, while an address with no failure on the
//     account (the owner's) still gets in.
//
// An attempt is counted as a failure before the password is checked (its
// claim), so concurrent guesses cannot all slip past a limit (30 parallel
// guesses over two instances make exactly 5 password checks); a right
// password gives the claim back (Release). The panel claims the three
// counters in login_attempts under their row locks in one transaction.
// Counters are keyed by SHA-256 (no email or address is stored); the
// account is the user the email resolves to, so every spelling the
// collation matches shares one budget, and an unknown email is keyed on
// its normal form. Each attempt purges up to 100 idle rows.
package signin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"paygate/core/platform/errs"
)

// ErrTooMany is the answer while a backoff lasts (429).
var ErrTooMany = errs.E(errs.LimitExceeded, "too_many_login_attempts", "Too many failed login attempts; try again later")

// BlockedError is ErrTooMany with the time left: it unwraps to ErrTooMany,
// and the HTTP edge sends RetryAfter as Retry-After.
type BlockedError struct{ RetryAfter time.Duration }

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%v (retry after %s)", ErrTooMany, e.RetryAfter)
}

func (e *BlockedError) Unwrap() error { return ErrTooMany }

// Counter is one key's count of recent failures (claims in flight
// included) and its backoff.
type Counter struct {
	Key          string    // SHA-256 (hex) of the counter's name: no email or address is stored
	Failures     int       // failures since the counter last started over
	BlockedUntil time.Time // zero: not backing off
	UpdatedAt    time.Time // last change; an idle counter starts over after Policy.Forget
}

// Repository stores the counters.
type Repository interface {
	// Ensure creates zero counters for the keys that have none. Call it
	// outside a transaction: concurrent first inserts of one key inside
	// transactions deadlock on MySQL.
	Ensure(ctx context.Context, keys []string, now time.Time) error
	// Lock reads the counters of keys in the order given, locked until the
	// transaction ends; a missing key reads as a zero counter.
	Lock(ctx context.Context, keys []string) ([]Counter, error)
	// Save writes the counters (upserting missing ones).
	Save(ctx context.Context, cs []Counter) error
	// Purge deletes at most limit counters last changed before before and
	// not backing off at now; it returns how many it deleted.
	Purge(ctx context.Context, before, now time.Time, limit int) (int, error)
}

// Policy is the limit's tuning.
type Policy struct {
	PairFree    int           // failures of one address on one account before it backs off
	AddressFree int           // failures of one address on all accounts before it backs off
	AccountBusy int           // failures on one account (all addresses) that lower PairFree to 1
	FirstDelay  time.Duration // the first backoff; each later failure doubles it
	MaxDelay    time.Duration // the longest backoff
	Forget      time.Duration // a counter idle this long starts over
}

// DefaultPolicy: 5 failures per account and address, 20 per address,
// backoff 1 min doubling to 15 min, counters forgotten after an idle hour.
var DefaultPolicy = Policy{PairFree: 5, AddressFree: 20, AccountBusy: 100,
	FirstDelay: time.Minute, MaxDelay: 15 * time.Minute, Forget: time.Hour}

// Keys names the counters of one attempt, in the order Admit and Release
// take them: pair, address, account.
type Keys [3]string

// KeysFor are the counters of an attempt on account (UserAccount or
// EmailAccount) from the client address ip.
func KeysFor(account, ip string) Keys {
	addr := Address(ip)
	return Keys{hash("p|" + account + "|" + addr), hash("a|" + addr), hash("u|" + account)}
}

// UserAccount names a known account: every spelling of its email that the
// database matches (case, accents, collation) resolves to it.
func UserAccount(id uint64) string { return "id:" + strconv.FormatUint(id, 10) }

// EmailAccount names an email that matches no account, normalised as it is
// looked up (user.NormalizeEmail; here at least trimmed and lower case).
func EmailAccount(email string) string { return "email:" + strings.ToLower(strings.TrimSpace(email)) }

// Address is the client's IPv4 address or its IPv6 /64: one IPv6
// subscriber holds a whole /64, so a per-address limit must count it once.
func Address(ip string) string {
	a, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Admit decides an attempt on the locked counters (pair, address, account).
// While any backoff lasts it returns the longest wait and no change.
// Otherwise it claims the attempt: each counter counts one more failure,
// and a counter that reaches its free budget starts (or extends) its
// backoff, so the next attempt waits even while this one is in flight.
func (p Policy) Admit(cs []Counter, now time.Time) (claimed []Counter, wait time.Duration) {
	cs = p.fresh(cs, now)
	for _, c := range cs {
		if d := c.BlockedUntil.Sub(now); d > wait {
			wait = d
		}
	}
	if wait > 0 {
		return nil, wait
	}
	claimed = make([]Counter, len(cs))
	for i, c := range cs {
		c.Failures++
		c.UpdatedAt = now
		if free := p.free(i, cs); free > 0 && c.Failures >= free {
			c.BlockedUntil = now.Add(p.delay(c.Failures - free))
		}
		claimed[i] = c
	}
	return claimed, 0
}

// Release gives back a claim whose password was right. The pair starts
// over (the owner proved the password from that address); the address and
// the account lose the claimed failure and, when nothing changed them
// since, the backoff the claim started. before and claimed are Admit's
// input and output; cs are the counters locked now.
func (p Policy) Release(cs, before, claimed []Counter, now time.Time) []Counter {
	before = p.fresh(before, now)
	out := make([]Counter, len(cs))
	for i, c := range cs {
		if i == 0 {
			out[i] = Counter{Key: c.Key, UpdatedAt: now}
			continue
		}
		if c.Failures > 0 {
			c.Failures--
		}
		if i < len(claimed) && c.BlockedUntil.Equal(claimed[i].BlockedUntil) && i < len(before) {
			c.BlockedUntil = before[i].BlockedUntil
		}
		c.UpdatedAt = now
		out[i] = c
	}
	return out
}

// fresh starts over the counters idle for Forget whose backoff is over.
func (p Policy) fresh(cs []Counter, now time.Time) []Counter {
	out := make([]Counter, len(cs))
	for i, c := range cs {
		if !c.UpdatedAt.IsZero() && now.Sub(c.UpdatedAt) >= p.Forget && !c.BlockedUntil.After(now) {
			c = Counter{Key: c.Key}
		}
		out[i] = c
	}
	return out
}

// free is counter i's budget: PairFree for the pair (1 while the account
// is busy), AddressFree for the address; the account never backs off.
func (p Policy) free(i int, cs []Counter) int {
	switch i {
	case 0:
		if len(cs) > 2 && p.AccountBusy > 0 && cs[2].Failures >= p.AccountBusy {
			return 1
		}
		return p.PairFree
	case 1:
		return p.AddressFree
	}
	return 0
}

// delay is the backoff after n failures past the free budget (n ≥ 0):
// FirstDelay doubled n times, at most MaxDelay.
func (p Policy) delay(n int) time.Duration {
	d := p.FirstDelay
	for ; n > 0 && d < p.MaxDelay; n-- {
		d *= 2
	}
	return min(d, p.MaxDelay)
}
