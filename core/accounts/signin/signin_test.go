package signin_test

import (
	"errors"
	"testing"
	"time"

	"paygate/core/accounts/signin"
	"paygate/core/platform/errs"
)

// counters is an in-memory table of counters, standing in for the
// database around the pure rule.
type counters map[string]signin.Counter

func (m counters) lock(k signin.Keys) []signin.Counter {
	out := make([]signin.Counter, len(k))
	for i, key := range k {
		c, ok := m[key]
		if !ok {
			c = signin.Counter{Key: key}
		}
		out[i] = c
	}
	return out
}

func (m counters) save(cs []signin.Counter) {
	for _, c := range cs {
		m[c.Key] = c
	}
}

// try runs one attempt: Admit, then Release when the password was right.
// It returns the wait when refused.
func (m counters) try(p signin.Policy, k signin.Keys, now time.Time, right bool) time.Duration {
	before := m.lock(k)
	claimed, wait := p.Admit(before, now)
	if wait > 0 {
		return wait
	}
	m.save(claimed)
	if right {
		m.save(p.Release(m.lock(k), before, claimed, now))
	}
	return 0
}

var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func TestFailuresFromOneAddressBackOffDoublingToFifteenMinutes(t *testing.T) {
	p, m := signin.DefaultPolicy, counters{}
	k := signin.KeysFor(signin.UserAccount(7), "198.51.100.1")
	now := t0
	for i := 1; i <= 5; i++ {
		if w := m.try(p, k, now, false); w != 0 {
			t.Fatalf("failure %d refused (wait %s)", i, w)
		}
	}
	// Past the 5 free failures each wait doubles: 1, 2, 4, 8, then 15 min.
	for _, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute, 15 * time.Minute} {
		w := m.try(p, k, now, true) // even the right password waits
		if w != want {
			t.Fatalf("wait %s, want %s", w, want)
		}
		if w := m.try(p, k, now.Add(want-time.Second), true); w != time.Second {
			t.Fatalf("a second before the end: wait %s", w)
		}
		now = now.Add(want)
		if w := m.try(p, k, now, false); w != 0 {
			t.Fatalf("refused when the backoff ended (wait %s)", w)
		}
	}
}

func TestAnotherAddressIsNeverLockedOut(t *testing.T) {
	p, m := signin.DefaultPolicy, counters{}
	attacker := signin.KeysFor(signin.UserAccount(7), "198.51.100.1")
	owner := signin.KeysFor(signin.UserAccount(7), "203.0.113.9")
	for i := 0; i < 30; i++ {
		m.try(p, attacker, t0.Add(time.Duration(i)*16*time.Minute), false)
	}
	if w := m.try(p, attacker, t0.Add(29*16*time.Minute+time.Minute), true); w != 14*time.Minute {
		t.Fatal("the attacker's address is not backing off")
	}
	if w := m.try(p, owner, t0.Add(29*16*time.Minute+time.Minute), true); w != 0 {
		t.Fatalf("the owner's address waits %s", w)
	}
}

func TestManyAddressesOnOneAccountGetOneTryEach(t *testing.T) {
	p, m := signin.DefaultPolicy, counters{}
	p.AccountBusy = 10
	for i := 0; i < 10; i++ {
		k := signin.KeysFor(signin.UserAccount(7), "198.51.100."+string(rune('0'+i)))
		m.try(p, k, t0, false)
	}
	// The account is busy: a new address gets one failure, then backs off.
	bot := signin.KeysFor(signin.UserAccount(7), "192.0.2.1")
	if w := m.try(p, bot, t0, false); w != 0 {
		t.Fatalf("a fresh address refused: %s", w)
	}
	if w := m.try(p, bot, t0, false); w != time.Minute {
		t.Fatalf("second failure from a new address while busy: wait %s, want 1m", w)
	}
	// The owner, from an address with no failure, still signs in.
	if w := m.try(p, signin.KeysFor(signin.UserAccount(7), "203.0.113.9"), t0, true); w != 0 {
		t.Fatalf("owner refused while busy: %s", w)
	}
	// Another account is not busy.
	other := signin.KeysFor(signin.UserAccount(8), "192.0.2.1")
	for i := 0; i < 4; i++ {
		if w := m.try(p, other, t0, false); w != 0 {
			t.Fatalf("other account, failure %d refused", i+1)
		}
	}
}

func TestOneAddressGuessingManyAccountsBacksOff(t *testing.T) {
	p, m := signin.DefaultPolicy, counters{}
	for i := 0; i < 20; i++ {
		k := signin.KeysFor(signin.EmailAccount("user"+string(rune('a'+i))+"@example.com"), "2001:db8:1:2::"+string(rune('a'+i%6)))
		if w := m.try(p, k, t0, false); w != 0 {
			t.Fatalf("failure %d refused", i+1)
		}
	}
	// The whole /64 is one address; another /64 is not slowed.
	if w := m.try(p, signin.KeysFor(signin.EmailAccount("fresh@example.com"), "2001:db8:1:2:ffff::1"), t0, true); w != time.Minute {
		t.Fatalf("the /64's 21st attempt: wait %s, want 1m", w)
	}
	if w := m.try(p, signin.KeysFor(signin.EmailAccount("fresh@example.com"), "2001:db8:1:3::1"), t0, true); w != 0 {
		t.Fatalf("another /64 waits %s", w)
	}
}

func TestARightPasswordGivesItsClaimBack(t *testing.T) {
	p, m := signin.DefaultPolicy, counters{}
	k := signin.KeysFor(signin.UserAccount(7), "198.51.100.1")
	// Four typos, then the right password: the pair starts over.
	for i := 0; i < 4; i++ {
		m.try(p, k, t0, false)
	}
	if w := m.try(p, k, t0, true); w != 0 {
		t.Fatalf("fifth attempt refused: %s", w)
	}
	for i := 0; i < 5; i++ {
		if w := m.try(p, k, t0, false); w != 0 {
			t.Fatalf("after a success, failure %d refused", i+1)
		}
	}
	// Successes do not count against the address: 19 failures on other
	// accounts plus any number of successes leave its 20th failure free.
	m = counters{}
	for i := 0; i < 19; i++ {
		m.try(p, signin.KeysFor(signin.EmailAccount("x"+string(rune('a'+i))+"@example.com"), "198.51.100.2"), t0, false)
	}
	mine := signin.KeysFor(signin.UserAccount(9), "198.51.100.2")
	for i := 0; i < 10; i++ {
		if w := m.try(p, mine, t0, true); w != 0 {
			t.Fatalf("success %d refused: %s", i+1, w)
		}
	}
	if w := m.try(p, mine, t0, false); w != 0 {
		t.Fatalf("the address's 20th failure refused: %s", w)
	}
	if w := m.try(p, mine, t0, true); w != time.Minute {
		t.Fatalf("after 20 failures: wait %s, want 1m", w)
	}
}

func TestConcurrentClaimsCannotAllSlipPast(t *testing.T) {
	// Claims in flight count: the sixth attempt waits even though none of
	// the first five has had its password checked yet.
	p, m := signin.DefaultPolicy, counters{}
	k := signin.KeysFor(signin.UserAccount(7), "198.51.100.1")
	for i := 0; i < 5; i++ {
		claimed, wait := p.Admit(m.lock(k), t0)
		if wait != 0 {
			t.Fatalf("claim %d refused", i+1)
		}
		m.save(claimed)
	}
	if _, wait := p.Admit(m.lock(k), t0); wait != time.Minute {
		t.Fatalf("sixth claim: wait %s", wait)
	}
}

func TestIdleCountersStartOver(t *testing.T) {
	p, m := signin.DefaultPolicy, counters{}
	k := signin.KeysFor(signin.UserAccount(7), "198.51.100.1")
	for i := 0; i < 4; i++ {
		m.try(p, k, t0, false)
	}
	later := t0.Add(time.Hour)
	for i := 0; i < 4; i++ {
		if w := m.try(p, k, later, false); w != 0 {
			t.Fatalf("an hour later, failure %d refused", i+1)
		}
	}
}

func TestKeys(t *testing.T) {
	a := signin.KeysFor(signin.UserAccount(7), "198.51.100.1")
	b := signin.KeysFor(signin.UserAccount(7), "::ffff:198.51.100.1")
	if a != b {
		t.Fatal("an IPv4-mapped address is another address")
	}
	c := signin.KeysFor(signin.UserAccount(7), "203.0.113.9")
	if c[0] == a[0] || c[1] == a[1] || c[2] != a[2] {
		t.Fatalf("another address: pair and address differ, account shared: %v %v", a, c)
	}
	if signin.EmailAccount(" Ghost@Example.COM\t") != signin.EmailAccount("ghost@example.com") {
		t.Fatal("unknown emails are not normalised")
	}
	if signin.KeysFor(signin.EmailAccount("ghost@example.com"), "x")[2] == signin.KeysFor(signin.UserAccount(7), "x")[2] {
		t.Fatal("an email and an account share a key")
	}
	err := error(&signin.BlockedError{RetryAfter: time.Minute})
	if !errors.Is(err, signin.ErrTooMany) || errs.KindOf(err) != errs.LimitExceeded {
		t.Fatalf("BlockedError is %v", err)
	}
}

func TestTakeMail(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	every := 5 * time.Minute
	cases := []struct {
		name string
		c    signin.Counter
		due  bool
	}{
		{"never sent", signin.Counter{Key: "k"}, true},
		{"sent a minute ago", signin.Counter{Key: "k", Failures: 1, BlockedUntil: now.Add(4 * time.Minute), UpdatedAt: now.Add(-time.Minute)}, false},
		{"sent just under every ago", signin.Counter{Key: "k", Failures: 1, BlockedUntil: now.Add(time.Nanosecond)}, false},
		{"sent exactly every ago", signin.Counter{Key: "k", Failures: 1, BlockedUntil: now}, true},
		{"sent long ago", signin.Counter{Key: "k", Failures: 7, BlockedUntil: now.Add(-time.Hour)}, true},
	}
	for _, c := range cases {
		next, due := signin.TakeMail(c.c, now, every)
		if due != c.due {
			t.Errorf("%s: due %v, want %v", c.name, due, c.due)
		}
		if due && (next.Key != "k" || !next.BlockedUntil.Equal(now.Add(every)) || !next.UpdatedAt.Equal(now)) {
			t.Errorf("%s: next %+v", c.name, next)
		}
		if !due && next != c.c {
			t.Errorf("%s: a refused mail changed the counter: %+v", c.name, next)
		}
	}
	if signin.MailKey(signin.MailReset, signin.UserAccount(1)) == signin.MailKey(signin.MailVerification, signin.UserAccount(1)) ||
		signin.MailKey(signin.MailReset, signin.UserAccount(1)) == signin.KeysFor(signin.UserAccount(1), "203.0.113.7")[2] {
		t.Error("mail kinds and sign-in counters share a key")
	}
}
