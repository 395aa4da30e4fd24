package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"paygate/core/platform/errs"
)

// Token is a refresh token; only the SHA-256 of its value is stored.
type Token struct {
	ID        uint64
	UserID    uint64
	Name      string // e.g. the client's user agent, for the sessions list
	TokenHash string
	// PreviousHash is TokenHash before the last rotation (empty before
	// any): presented again, that token ends the session (reuse detection).
	PreviousHash string
	LastUsedAt   *time.Time
	ExpiresAt    time.Time
	CreatedAt    time.Time
}

var (
	ErrInvalidRefresh = errs.E(errs.Unauthenticated, "invalid_refresh_token", "Refresh token is invalid or expired")
	ErrNotFound       = errs.E(errs.NotFound, "session_not_found", "Session not found")
)

// Live reports whether the session may still be used at now.
func (t *Token) Live(now time.Time) bool { return now.Before(t.ExpiresAt) }

// Hash is the stored form of a token value.
func Hash(value string) string {
	s := sha256.Sum256([]byte(value))
	return hex.EncodeToString(s[:])
}

// Repository stores tokens. A token's row is its session: it keeps its id
// across refresh rotations, so the sessions list and access tokens (which
// carry the id) follow one sign-in from login to logout.
type Repository interface {
	Create(ctx context.Context, t *Token) error
	ByHash(ctx context.Context, hash string) (*Token, error) // errs.ErrNotFound
	ByID(ctx context.Context, id uint64) (*Token, error)     // errs.ErrNotFound
	// ByPreviousHash finds the session whose token hash was hash before its
	// last rotation (reuse detection); errs.ErrNotFound otherwise.
	ByPreviousHash(ctx context.Context, hash string) (*Token, error)
	// Rotate replaces the token's hash only if it still is oldHash, keeps
	// oldHash as the previous hash, and sets last_used_at to now and
	// expires_at; it reports whether this call did, so of two concurrent
	// refreshes with one token exactly one wins.
	Rotate(ctx context.Context, id uint64, oldHash, newHash string, now, expiresAt time.Time) (bool, error)
	// Delete removes a token and reports whether this call removed it, so
	// two concurrent refreshes with one token cannot both succeed.
	Delete(ctx context.Context, id uint64) (bool, error)
	DeleteByUser(ctx context.Context, userID uint64) error
	// DeleteOthers removes every token of the user except keepID.
	DeleteOthers(ctx context.Context, userID, keepID uint64) error
	ListByUser(ctx context.Context, userID uint64) ([]Token, error)
	// Prune removes the user's tokens expired before now, and all but the
	// newest keep of the rest.
	Prune(ctx context.Context, userID uint64, now time.Time, keep int) error
}

// MaxAge is the longest a session lives from its sign-in, however often
// it is refreshed; then the user signs in again.
const MaxAge = 90 * 24 * time.Hour

// MaxPerUser is how many sessions one user keeps: signing in once more ends
// the oldest, so scripted logins cannot pile up rows.
const MaxPerUser = 50

// Settings is a small key-value store for values generated once (the JWT key).
type Settings interface {
	// GetOrCreate returns the stored value of key, storing value first when
	// none exists; concurrent first starts agree on one value.
	GetOrCreate(ctx context.Context, key, value string) (string, error)
}
