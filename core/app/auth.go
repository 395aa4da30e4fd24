package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"paygate/core/apikey"
	"paygate/core/errs"
	"paygate/core/session"
	"paygate/core/user"
)

// Login is a signed-in panel session.
type Login struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    time.Duration
	User         *user.User
}

// Login checks email and password and opens a session. Unknown email and
// wrong password answer the same error in the same time.
func (a *App) Login(ctx context.Context, email, password, client string) (*Login, error) {
	u, err := a.st.Users.ByEmail(ctx, strings.ToLower(strings.TrimSpace(email)))
	if err != nil && errs.KindOf(err) != errs.NotFound {
		return nil, fmt.Errorf("find user: %w", err)
	}
	if u != nil && u.IsDeleted() {
		u = nil
	}
	if !a.pw.Check(u, password) {
		return nil, user.ErrBadCredentials
	}
	if err := u.CanAct(); err != nil {
		return nil, err
	}
	return a.openSession(ctx, a.st, u, client)
}

func (a *App) openSession(ctx context.Context, s Stores, u *user.User, client string) (*Login, error) {
	now := a.now()
	access, ttl, err := a.tokens.Issue(u.ID, u.Role, now)
	if err != nil {
		return nil, fmt.Errorf("issue access token: %w", err)
	}
	refresh := "rt_" + apikey.RandomBase62(48)
	if len(client) > 255 {
		client = client[:255]
	}
	if client == "" {
		client = "panel"
	}
	t := &session.Token{UserID: u.ID, Name: client, TokenHash: session.Hash(refresh), ExpiresAt: now.Add(a.cfg.RefreshTTL).UTC(), CreatedAt: now.UTC()}
	if err := s.Sessions.Create(ctx, t); err != nil {
		return nil, fmt.Errorf("store refresh token: %w", err)
	}
	return &Login{AccessToken: access, RefreshToken: refresh, ExpiresIn: ttl, User: u}, nil
}

// Refresh exchanges a refresh token for a new pair; the old token stops
// working, and of two concurrent refreshes with one token only one succeeds.
func (a *App) Refresh(ctx context.Context, refreshToken, client string) (*Login, error) {
	var out *Login
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
		t, err := s.Sessions.ByHash(ctx, session.Hash(refreshToken))
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return session.ErrInvalidRefresh
			}
			return fmt.Errorf("find refresh token: %w", err)
		}
		removed, err := s.Sessions.Delete(ctx, t.ID)
		if err != nil {
			return fmt.Errorf("revoke refresh token: %w", err)
		}
		if !removed || !a.now().Before(t.ExpiresAt) {
			return session.ErrInvalidRefresh
		}
		u, err := s.Users.ByID(ctx, t.UserID)
		if err != nil {
			return session.ErrInvalidRefresh
		}
		if err := u.CanAct(); err != nil {
			return session.ErrInvalidRefresh
		}
		out, err = a.openSession(ctx, s, u, client)
		return err
	})
	if err != nil {
		if errors.Is(err, session.ErrInvalidRefresh) {
			return nil, session.ErrInvalidRefresh
		}
		return nil, err
	}
	return out, nil
}

// Logout revokes the caller's refresh token. An unknown token or one of
// another user changes nothing.
func (a *App) Logout(ctx context.Context, caller *user.User, refreshToken string) error {
	t, err := a.st.Sessions.ByHash(ctx, session.Hash(refreshToken))
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil
		}
		return fmt.Errorf("find refresh token: %w", err)
	}
	if t.UserID != caller.ID {
		return nil
	}
	if _, err := a.st.Sessions.Delete(ctx, t.ID); err != nil {
		return fmt.Errorf("revoke refresh token: %w", err)
	}
	return nil
}

// Authenticate resolves a panel access token to its user, who must still
// be active and not deleted: blocking a user ends their sessions at once.
func (a *App) Authenticate(ctx context.Context, accessToken string) (*user.User, error) {
	id, err := a.tokens.Parse(accessToken, a.now())
	if err != nil {
		return nil, errs.ErrUnauthorized
	}
	u, err := a.st.Users.ByID(ctx, id)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, errs.ErrUnauthorized
		}
		return nil, fmt.Errorf("find user: %w", err)
	}
	if u.CanAct() != nil {
		return nil, errs.ErrUnauthorized
	}
	return u, nil
}
