package panel

import (
	"context"
	"fmt"
	"time"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
)

// RequireAdmin refuses anyone but an admin (errs.ErrForbidden).
func RequireAdmin(actor *user.User) error {
	if actor == nil || actor.Role != user.RoleAdmin {
		return errs.ErrForbidden
	}
	return nil
}

// NewKey writes an active key for owner in the caller's transaction and
// returns it with its secret: the keys' own creation and an account's
// default key at activation.
func NewKey(ctx context.Context, keys apikey.Repository, owner *user.User, r apikey.Restrictions, now time.Time) (*apikey.Key, string, error) {
	keyValue, secret := apikey.NewCredentials()
	now = now.UTC()
	k := &apikey.Key{
		UserID: owner.ID, Key: keyValue, SecretHash: apikey.HashSecret(secret), Name: r.Name,
		AllowedServices: r.AllowedServices, AllowedIPs: r.AllowedIPs, DailyLimit: r.DailyLimit,
		Status: apikey.StatusActive, CreatedAt: now, UpdatedAt: now,
	}
	if err := keys.Create(ctx, k); err != nil {
		return nil, "", fmt.Errorf("create key: %w", err)
	}
	return k, secret, nil
}
