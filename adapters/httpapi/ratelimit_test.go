package httpapi

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLoginLimiterSpendsBeforeThePasswordCheck(t *testing.T) {
	l := newLoginLimiter()
	now := time.Now()
	// 50 guesses at once, none finished yet: only the email's 5 get through.
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok := l.attempt("victim@example.com", "198.51.100.1", now); ok {
				allowed.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n != 5 {
		t.Fatalf("%d concurrent attempts allowed, want 5", n)
	}
}

func TestLoginLimiterKeys(t *testing.T) {
	l := newLoginLimiter()
	now := time.Now()
	// Variants of one email share its bucket.
	for i, email := range []string{"victim@example.com", " Victim@Example.com", "victim@example.com\t", "\u00a0VICTIM@example.com", "victim@example.com "} {
		done, ok := l.attempt(email, "198.51.100.1", now)
		if !ok {
			t.Fatalf("attempt %d (%q) refused", i, email)
		}
		done(false)
	}
	if _, ok := l.attempt("victim@example.com", "198.51.100.2", now); ok {
		t.Fatal("a sixth failed attempt on one email was allowed")
	}
	// A success gives its try back.
	for i := 0; i < 10; i++ {
		done, ok := l.attempt("owner@example.com", "198.51.100.3", now)
		if !ok {
			t.Fatalf("successful attempt %d refused", i)
		}
		done(true)
	}
	// One IPv6 /64 is one address: 20 tries across it, then refused.
	for i := 0; i < 20; i++ {
		ip := "2001:db8:1:2::" + string(rune('a'+i%6)) + "0"
		done, ok := l.attempt("user"+string(rune('a'+i))+"@example.com", ip, now)
		if !ok {
			t.Fatalf("attempt %d from the /64 refused", i)
		}
		done(false)
	}
	if _, ok := l.attempt("fresh@example.com", "2001:db8:1:2:ffff::1", now); ok {
		t.Fatal("the /64 got a 21st attempt")
	}
	if _, ok := l.attempt("fresh@example.com", "2001:db8:1:3::1", now); !ok {
		t.Fatal("another /64 was refused")
	}
	// Tries come back with time: one every 12 s per email.
	if _, ok := l.attempt("victim@example.com", "198.51.100.9", now.Add(13*time.Second)); !ok {
		t.Fatal("the email's bucket did not refill")
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.7":            "i:203.0.113.7",
		"::ffff:203.0.113.7":     "i:203.0.113.7",
		"2001:db8:aa:bb:1:2:3:4": "i:2001:db8:aa:bb::/64",
		"not an ip":              "i:not an ip",
	} {
		if got := addressKey(in); got != want {
			t.Errorf("addressKey(%q) = %q, want %q", in, got, want)
		}
	}
}
