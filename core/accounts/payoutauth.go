package accounts

import (
	"context"
	"fmt"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
)

// ErrPayoutAuthorization answers a panel payout without a live payout
// credential of the caller's session (missing, forged, expired, or minted
// for another session): 403, so a panel access token alone sends no money.
var ErrPayoutAuthorization = errs.E(errs.Forbidden, "payout_authorization_required",
	"Confirm your password to send payouts (the payout authorization is missing or has expired)")

// AuthorizePayout mints the caller's payout credential for their session
// once the password is typed again: checked and rate-limited like a
// sign-in (GuardPassword). A wrong password is a 422 on password.
func (p *Accounts) AuthorizePayout(ctx context.Context, caller *user.User, sessionID uint64, password, ip string) (string, time.Duration, error) {
	if password == "" {
		return "", 0, errs.Validation(errs.FieldErrors{"password": {"is required"}})
	}
	release, err := p.GuardPassword(ctx, caller, ip)
	if err != nil {
		return "", 0, err
	}
	if !p.pw.Check(caller, password) {
		return "", 0, errs.Validation(errs.FieldErrors{"password": {"is incorrect"}})
	}
	release(ctx)
	tok, ttl, err := p.tokens.IssuePayout(caller.ID, sessionID, p.now())
	if err != nil {
		return "", 0, fmt.Errorf("issue payout credential: %w", err)
	}
	return tok, ttl, nil
}

// CheckPayoutAuthorization accepts a payout credential minted for the
// caller's own session and still live; anything else is
// ErrPayoutAuthorization.
func (p *Accounts) CheckPayoutAuthorization(caller *user.User, sessionID uint64, credential string) error {
	if credential == "" || len(credential) > 2048 {
		return ErrPayoutAuthorization
	}
	id, sid, err := p.tokens.ParsePayout(credential, p.now())
	if err != nil || id != caller.ID || sid != sessionID {
		return ErrPayoutAuthorization
	}
	return nil
}
