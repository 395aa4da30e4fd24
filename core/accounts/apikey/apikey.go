package apikey

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"math/big"
	"time"

	"paygate/core/platform/errs"
)

type Status string

const (
	StatusActive  Status = "active"
	StatusRevoked Status = "revoked"
)

// DefaultDailyLimit is the seed's default calls per day.
const DefaultDailyLimit = 1000

// Key is an API key. SecretHash is the hex SHA-256 of the secret.
type Key struct {
	ID              uint64
	UserID          uint64
	Key             string
	SecretHash      string
	Name            string
	AllowedServices []uint64 // empty: every active service
	AllowedIPs      string   // comma-separated addresses and CIDRs; empty: any
	DailyLimit      int
	HitsToday       int
	HitsDate        string // local "2006-01-02" that HitsToday counts for
	LastUsedAt      *time.Time
	Status          Status
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

var (
	ErrInvalidCredentials = errs.E(errs.Unauthenticated, "invalid_credentials", "Invalid API credentials")
	ErrIPNotAllowed       = errs.E(errs.Forbidden, "ip_not_whitelisted", "IP not whitelisted")
	ErrServiceNotAllowed  = errs.E(errs.Forbidden, "service_not_allowed", "Service not allowed for this key")
	ErrDailyLimit         = errs.E(errs.LimitExceeded, "daily_limit_exceeded", "Daily limit exceeded")
	ErrNotFound           = errs.E(errs.NotFound, "api_key_not_found", "API key not found")
	ErrRevoked            = errs.E(errs.Conflict, "api_key_revoked", "A revoked key cannot be changed")
	ErrTooManyKeys        = errs.E(errs.Conflict, "api_key_limit_reached",
		fmt.Sprintf("At most %d active API keys per account: revoke one before creating another", MaxActiveKeys))
)

// MaxActiveKeys is how many active keys one user may hold.
const MaxActiveKeys = 50

// MaxAllowedServices is how many service ids one key's allow-list may name.
const MaxAllowedServices = 200

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// RandomBase62 returns n cryptographically random base62 characters.
func RandomBase62(n int) string {
	b := make([]byte, n)
	max := big.NewInt(int64(len(base62)))
	for i := range b {
		v, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		b[i] = base62[v.Int64()]
	}
	return string(b)
}

// NewCredentials makes a key (rk_live_ + 32) and a secret (rs_ + 48).
func NewCredentials() (key, secret string) {
	return "rk_live_" + RandomBase62(32), "rs_" + RandomBase62(48)
}

// NewSecret makes a fresh secret for rotation.
func NewSecret() string { return "rs_" + RandomBase62(48) }

// HashSecret is the stored form of a secret.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// SecretMatches compares a presented secret with the stored hash in constant time.
func (k *Key) SecretMatches(secret string) bool {
	got := HashSecret(secret)
	return subtle.ConstantTimeCompare([]byte(got), []byte(k.SecretHash)) == 1
}

// AllowsService reports whether the key may call service id.
func (k *Key) AllowsService(id uint64) bool {
	if len(k.AllowedServices) == 0 {
		return true
	}
	for _, s := range k.AllowedServices {
		if s == id {
			return true
		}
	}
	return false
}

// Restrictions are the editable limits of a key.
type Restrictions struct {
	Name            string
	AllowedServices []uint64
	AllowedIPs      string
	DailyLimit      int
}

// Validate normalises and checks restrictions.
func (r *Restrictions) Validate() error {
	fe := errs.FieldErrors{}
	if r.Name == "" {
		fe.Add("name", "is required")
	} else if len(r.Name) > 255 {
		fe.Add("name", "must be at most 255 characters")
	}
	if r.DailyLimit < 1 || r.DailyLimit > 10_000_000 {
		fe.Add("daily_limit", "must be between 1 and 10000000")
	}
	if len(r.AllowedIPs) > 500 {
		fe.Add("allowed_ips", "must be at most 500 characters")
	} else if norm, err := NormalizeAllowList(r.AllowedIPs); err != nil {
		fe.Add("allowed_ips", err.Error())
	} else {
		r.AllowedIPs = norm
	}
	return fe.Err()
}

// Change is one change of an active key: only the fields set are written.
type Change struct {
	Name            *string
	AllowedServices *[]uint64
	AllowedIPs      *string
	DailyLimit      *int
	SecretHash      *string // a rotation
}

// Repository stores keys. A key is changed only by Change and Revoke, each
// one conditional UPDATE of the columns it changes on a key that is still
// active, so no change ever brings back a revoked key or a rotated-away
// secret (revocation is final).
type Repository interface {
	Create(ctx context.Context, k *Key) error
	ByID(ctx context.Context, id uint64) (*Key, error)
	ByKey(ctx context.Context, key string) (*Key, error)
	// BySecretHash finds the key whose secret hashes to hash (HashSecret).
	BySecretHash(ctx context.Context, hash string) (*Key, error)
	ListByUser(ctx context.Context, userID uint64) ([]Key, error)
	// CountActive counts the user's active keys; under the user's row
	// lock it bounds their number.
	CountActive(ctx context.Context, userID uint64) (int, error)
	// Change writes c to key id of userID if it is still active and returns
	// the key as it then is: ErrNotFound when userID has no such key,
	// ErrRevoked when it is revoked.
	Change(ctx context.Context, id, userID uint64, c Change, at time.Time) (*Key, error)
	// Revoke revokes key id of userID for good and returns it; revoking a
	// revoked key changes nothing. ErrNotFound when userID has no such key.
	Revoke(ctx context.Context, id, userID uint64, at time.Time) (*Key, error)
	// CountHit atomically counts one call for local day `day` (resetting the
	// counter when the stored day differs) unless the limit is reached, in
	// one conditional UPDATE. It reports false when the limit was reached.
	CountHit(ctx context.Context, id uint64, day string, at time.Time) (bool, error)
	// CountHits counts up to n calls for local day `day` under the key's row
	// lock and reports how many were counted (the first `granted` of the n
	// calls pass; the rest are over the limit). It must run inside a
	// transaction: the lock lasts until its end, so instances never pass the
	// limit together.
	CountHits(ctx context.Context, id uint64, day string, n int, at time.Time) (granted int, err error)
	// UncountHits gives back n calls counted for local day `day` (a
	// released hold's calls not made); nothing when the counter has moved
	// on to another day. It never takes the counter below zero.
	UncountHits(ctx context.Context, id uint64, day string, n int) error
}
