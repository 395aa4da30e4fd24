package accounts

import (
	"context"
	"time"

	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
)

// Stores are the repositories the account use cases call outside a
// transaction; a transaction gets TxStores.
type Stores struct {
	Users    Users
	Sessions Sessions
	Resets   Resets
	Logins   Logins // nil: no mail cooldown and no sign-in counters are purged
}

// Users reads accounts.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
	ByEmail(ctx context.Context, email string) (*user.User, error)
	ByPhone(ctx context.Context, phone string) (*user.User, error)
	List(ctx context.Context, f user.Filter) ([]user.User, int64, error)
	CountByRole(ctx context.Context, role user.Role) (int64, error)
}

// Sessions are the refresh tokens' rows.
type Sessions interface {
	Create(ctx context.Context, t *session.Token) error
	ByHash(ctx context.Context, hash string) (*session.Token, error)
	ByID(ctx context.Context, id uint64) (*session.Token, error)
	ByPreviousHash(ctx context.Context, hash string) (*session.Token, error)
	Rotate(ctx context.Context, id uint64, oldHash, newHash string, now, expiresAt time.Time) (bool, error)
	Delete(ctx context.Context, id uint64) (bool, error)
	ListByUser(ctx context.Context, userID uint64) ([]session.Token, error)
	Prune(ctx context.Context, userID uint64, now time.Time, keep int) error
}

// Resets keeps the password reset tokens.
type Resets interface {
	Put(ctx context.Context, t user.ResetToken) error
}

// Logins are the sign-in and mail counters (core/accounts/signin).
type Logins interface {
	Ensure(ctx context.Context, keys []string, now time.Time) error
	Purge(ctx context.Context, before, now time.Time, limit int) (int, error)
}
