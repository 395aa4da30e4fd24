// Package token issues and verifies the panel's signed tokens (JWT, HS256):
// short-lived access tokens, and the expiring tokens of email verification
// links and the payout credentials, each signed with its own key derived
// from the one secret.
package token

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
)

// TTL is the access token's lifetime.
const TTL = 15 * time.Minute

const (
	issuer           = "paygate"
	audienceAccess   = "panel"
	audienceVerifyEm = "email-verification"
	audiencePayout   = "payout"
)

// PayoutTTL is a payout credential's lifetime.
const PayoutTTL = 5 * time.Minute

// JWT signs with HMAC keys derived from one secret.
type JWT struct {
	key      []byte // access tokens
	emailKey []byte // email verification tokens
	payKey   []byte // payout credentials
	ttl      time.Duration
}

var (
	_ panel.AccessTokens = (*JWT)(nil)
	_ panel.EmailTokens  = (*JWT)(nil)
)

// NewJWT makes a signer; the key must be at least 32 bytes.
func NewJWT(key []byte) (*JWT, error) {
	if len(key) < 32 {
		return nil, errors.New("JWT key must be at least 32 bytes")
	}
	// A separate key per purpose: a verification token can never pass as an
	// access token (or the reverse), whatever its claims say.
	m := hmac.New(sha256.New, key)
	m.Write([]byte("paygate email verification v1"))
	p := hmac.New(sha256.New, key)
	p.Write([]byte("paygate payout credential v1"))
	return &JWT{key: key, emailKey: m.Sum(nil), payKey: p.Sum(nil), ttl: TTL}, nil
}

type claims struct {
	Role string `json:"role"`
	SID  uint64 `json:"sid"` // the session (refresh token row) the token belongs to
	jwt.RegisteredClaims
}

// Issue signs an access token for the user's session.
func (j *JWT) Issue(userID, sessionID uint64, role user.Role, now time.Time) (string, time.Duration, error) {
	c := claims{
		Role: string(role),
		SID:  sessionID,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Audience:  jwt.ClaimStrings{audienceAccess},
			Subject:   strconv.FormatUint(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(j.ttl)),
		},
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(j.key)
	return s, j.ttl, err
}

// Parse verifies signature (HS256 only), issuer, audience and expiry at now.
func (j *JWT) Parse(tok string, now time.Time) (uint64, uint64, error) {
	var c claims
	if err := parse(tok, &c, j.key, audienceAccess, now); err != nil {
		return 0, 0, err
	}
	if c.SID == 0 {
		return 0, 0, errors.New("access token without a session")
	}
	id, err := strconv.ParseUint(c.Subject, 10, 64)
	return id, c.SID, err
}

// IssuePayout signs a payout credential for the user's session, valid
// PayoutTTL: its own key and audience, so it never passes as an access
// token, nor an access token as it.
func (j *JWT) IssuePayout(userID, sessionID uint64, now time.Time) (string, time.Duration, error) {
	c := claims{
		SID: sessionID,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Audience:  jwt.ClaimStrings{audiencePayout},
			Subject:   strconv.FormatUint(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(PayoutTTL)),
		},
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(j.payKey)
	return s, PayoutTTL, err
}

// ParsePayout verifies a payout credential at now.
func (j *JWT) ParsePayout(tok string, now time.Time) (uint64, uint64, error) {
	var c claims
	if err := parse(tok, &c, j.payKey, audiencePayout, now); err != nil {
		return 0, 0, err
	}
	if c.SID == 0 {
		return 0, 0, errors.New("payout credential without a session")
	}
	id, err := strconv.ParseUint(c.Subject, 10, 64)
	return id, c.SID, err
}

type emailClaims struct {
	Email string `json:"email"`
	jwt.RegisteredClaims
}

// IssueEmailVerification signs a token naming the user and the address to
// verify, valid until expiresAt.
func (j *JWT) IssueEmailVerification(userID uint64, email string, expiresAt time.Time) (string, error) {
	c := emailClaims{
		Email: email,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Audience:  jwt.ClaimStrings{audienceVerifyEm},
			Subject:   strconv.FormatUint(userID, 10),
			ExpiresAt: jwt.NewNumericDate(expiresAt),
		},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(j.emailKey)
}

// ParseEmailVerification verifies a verification token at now.
func (j *JWT) ParseEmailVerification(tok string, now time.Time) (uint64, string, error) {
	var c emailClaims
	if err := parse(tok, &c, j.emailKey, audienceVerifyEm, now); err != nil {
		return 0, "", err
	}
	id, err := strconv.ParseUint(c.Subject, 10, 64)
	return id, c.Email, err
}

func parse(tok string, c jwt.Claims, key []byte, audience string, now time.Time) error {
	_, err := jwt.ParseWithClaims(tok, c, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer(issuer), jwt.WithAudience(audience),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(func() time.Time { return now }))
	return err
}
