// Package token issues and verifies the panel's short-lived access tokens
// (JWT, HS256).
package token

import (
	"errors"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"paygate/core/app"
	"paygate/core/user"
)

// TTL is the access token's lifetime.
const TTL = 15 * time.Minute

const issuer = "paygate"

// JWT signs with one HMAC key.
type JWT struct {
	key []byte
	ttl time.Duration
}

var _ app.AccessTokens = (*JWT)(nil)

// NewJWT makes a signer; the key must be at least 32 bytes.
func NewJWT(key []byte) (*JWT, error) {
	if len(key) < 32 {
		return nil, errors.New("JWT key must be at least 32 bytes")
	}
	return &JWT{key: key, ttl: TTL}, nil
}

type claims struct {
	Role string `json:"role"`
	jwt.RegisteredClaims
}

// Issue signs a token for the user.
func (j *JWT) Issue(userID uint64, role user.Role, now time.Time) (string, time.Duration, error) {
	c := claims{
		Role: string(role),
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   strconv.FormatUint(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(j.ttl)),
		},
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(j.key)
	return s, j.ttl, err
}

// Parse verifies signature (HS256 only), issuer and expiry at now.
func (j *JWT) Parse(tok string, now time.Time) (uint64, error) {
	var c claims
	_, err := jwt.ParseWithClaims(tok, &c, func(*jwt.Token) (any, error) { return j.key, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer(issuer), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }))
	if err != nil {
		return 0, err
	}
	return strconv.ParseUint(c.Subject, 10, 64)
}
