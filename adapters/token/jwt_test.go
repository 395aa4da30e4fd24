package token

import (
	"strings"
	"testing"
	"time"

	"paygate/core/user"
)

func TestJWTRoundTripAndExpiry(t *testing.T) {
	j, err := NewJWT([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	tok, ttl, err := j.Issue(42, user.RoleAdmin, now)
	if err != nil || ttl != TTL {
		t.Fatalf("issue: %v %v", err, ttl)
	}
	id, err := j.Parse(tok, now.Add(time.Minute))
	if err != nil || id != 42 {
		t.Fatalf("parse: %d %v", id, err)
	}
	if _, err := j.Parse(tok, now.Add(TTL+time.Second)); err == nil {
		t.Fatal("expired token accepted")
	}
	other, _ := NewJWT([]byte(strings.Repeat("x", 32)))
	if _, err := other.Parse(tok, now); err == nil {
		t.Fatal("token signed with another key accepted")
	}
	if _, err := j.Parse(tok[:len(tok)-2]+"AA", now); err == nil {
		t.Fatal("tampered token accepted")
	}
	if _, err := NewJWT([]byte("short")); err == nil {
		t.Fatal("short key accepted")
	}
}
