package token

import (
	"strings"
	"testing"
	"time"

	"paygate/core/accounts/user"
)

func TestJWTRoundTripAndExpiry(t *testing.T) {
	j, err := NewJWT([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	tok, ttl, err := j.Issue(42, 7, user.RoleAdmin, now)
	if err != nil || ttl != TTL {
		t.Fatalf("issue: %v %v", err, ttl)
	}
	id, sid, err := j.Parse(tok, now.Add(time.Minute))
	if err != nil || id != 42 || sid != 7 {
		t.Fatalf("parse: %d %d %v", id, sid, err)
	}
	if _, _, err := j.Parse(tok, now.Add(TTL+time.Second)); err == nil {
		t.Fatal("expired token accepted")
	}
	other, _ := NewJWT([]byte(strings.Repeat("x", 32)))
	if _, _, err := other.Parse(tok, now); err == nil {
		t.Fatal("token signed with another key accepted")
	}
	if _, _, err := j.Parse(tok[:len(tok)-2]+"AA", now); err == nil {
		t.Fatal("tampered token accepted")
	}
	if _, _, err := j.Parse(mustIssue(t, j, 42, 0, now), now); err == nil {
		t.Fatal("access token without a session accepted")
	}
	if _, err := NewJWT([]byte("short")); err == nil {
		t.Fatal("short key accepted")
	}
}

func mustIssue(t *testing.T, j *JWT, id, sid uint64, now time.Time) string {
	t.Helper()
	tok, _, err := j.Issue(id, sid, user.RoleUser, now)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestEmailVerificationTokensAreSinglePurpose(t *testing.T) {
	j, _ := NewJWT([]byte(strings.Repeat("k", 32)))
	now := time.Unix(1_800_000_000, 0)
	tok, err := j.IssueEmailVerification(42, "a@example.com", now.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	id, email, err := j.ParseEmailVerification(tok, now.Add(47*time.Hour))
	if err != nil || id != 42 || email != "a@example.com" {
		t.Fatalf("parse: %d %q %v", id, email, err)
	}
	if _, _, err := j.ParseEmailVerification(tok, now.Add(48*time.Hour+time.Second)); err == nil {
		t.Fatal("expired verification token accepted")
	}
	// Neither kind passes as the other.
	if _, _, err := j.Parse(tok, now); err == nil {
		t.Fatal("verification token accepted as an access token")
	}
	if _, _, err := j.ParseEmailVerification(mustIssue(t, j, 42, 7, now), now); err == nil {
		t.Fatal("access token accepted as a verification token")
	}
	other, _ := NewJWT([]byte(strings.Repeat("x", 32)))
	if _, _, err := other.ParseEmailVerification(tok, now); err == nil {
		t.Fatal("verification token of another key accepted")
	}
}

// A payout credential lives PayoutTTL and never passes as an access token,
// nor an access token as it.
func TestPayoutCredentialIsItsOwnToken(t *testing.T) {
	j, _ := NewJWT([]byte(strings.Repeat("k", 32)))
	now := time.Unix(1_800_000_000, 0)
	cred, ttl, err := j.IssuePayout(42, 7, now)
	if err != nil || ttl != PayoutTTL || PayoutTTL != 5*time.Minute {
		t.Fatalf("issue: %v %v", err, ttl)
	}
	if id, sid, err := j.ParsePayout(cred, now.Add(time.Minute)); err != nil || id != 42 || sid != 7 {
		t.Fatalf("parse: %d %d %v", id, sid, err)
	}
	if _, _, err := j.ParsePayout(cred, now.Add(PayoutTTL+time.Second)); err == nil {
		t.Fatal("expired credential accepted")
	}
	if _, _, err := j.Parse(cred, now); err == nil {
		t.Fatal("payout credential accepted as an access token")
	}
	if _, _, err := j.ParsePayout(mustIssue(t, j, 42, 7, now), now); err == nil {
		t.Fatal("access token accepted as a payout credential")
	}
}
