package accounts

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/session"
	"paygate/core/accounts/signin"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
)

// Login is a signed-in panel session.
type Login struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    time.Duration
	User         *user.User
}

// Login checks email and password and opens a session. Unknown email and
// wrong password answer the same error in the same time. Attempts are
// limited per account and client address ip (GuardPassword); the account
// is the one the email resolves to, so every spelling the database
// matches shares its budget.
func (p *Accounts) Login(ctx context.Context, email, password, client, ip string) (*Login, error) {
	email = user.NormalizeEmail(email)
	u, err := p.st.Users.ByEmail(ctx, email)
	if err != nil && errs.KindOf(err) != errs.NotFound {
		return nil, fmt.Errorf("find user: %w", err)
	}
	account := signin.EmailAccount(email)
	if u != nil {
		account = signin.UserAccount(u.ID)
	}
	release, err := p.guard(ctx, account, ip)
	if err != nil {
		return nil, err
	}
	if u != nil && u.IsDeleted() {
		u = nil
	}
	if !p.pw.Check(u, password) {
		return nil, user.ErrBadCredentials
	}
	release(ctx)
	if err := u.CanAct(); err != nil {
		return nil, err
	}
	return p.openSession(ctx, p.st.Sessions, u, client)
}

func (p *Accounts) openSession(ctx context.Context, sessions Sessions, u *user.User, client string) (*Login, error) {
	now := p.now()
	refresh := newRefreshToken()
	client = clientName(client)
	if client == "" {
		client = "panel"
	}
	t := &session.Token{UserID: u.ID, Name: client, TokenHash: session.Hash(refresh), ExpiresAt: now.Add(p.cfg.RefreshTTL).UTC(), CreatedAt: now.UTC()}
	if err := sessions.Create(ctx, t); err != nil {
		return nil, fmt.Errorf("store refresh token: %w", err)
	}
	if err := sessions.Prune(ctx, u.ID, now, session.MaxPerUser); err != nil {
		p.log.Warn("prune sessions", "user_id", u.ID, "err", err) // the sign-in itself stands
	}
	access, ttl, err := p.tokens.Issue(u.ID, t.ID, u.Role, now)
	if err != nil {
		return nil, fmt.Errorf("issue access token: %w", err)
	}
	return &Login{AccessToken: access, RefreshToken: refresh, ExpiresIn: ttl, User: u}, nil
}

func newRefreshToken() string { return "rt_" + apikey.RandomBase62(48) }

// Refresh exchanges a refresh token for a new pair; the old token stops
// working, and of two concurrent refreshes with one token only one succeeds
// (the session's row is rotated by a conditional update). The session keeps
// its id, name and created_at; last_used_at becomes now and it expires
// RefreshTTL after this use.
//
// A token that was already rotated away is a copy in a second pair of
// hands (the owner's or a thief's, whichever refreshed last): presenting
// it ends its session at once, the current token with it (reuse
// detection), and answers 401 like any invalid token.
func (p *Accounts) Refresh(ctx context.Context, refreshToken string) (*Login, error) {
	oldHash := session.Hash(refreshToken)
	t, err := p.st.Sessions.ByHash(ctx, oldHash)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, p.revokeReused(ctx, oldHash)
		}
		return nil, fmt.Errorf("find refresh token: %w", err)
	}
	now := p.now()
	if !t.Live(now) {
		// An expired session is dead: its row goes now rather than never.
		if _, err := p.st.Sessions.Delete(ctx, t.ID); err != nil {
			return nil, fmt.Errorf("remove expired session: %w", err)
		}
		return nil, session.ErrInvalidRefresh
	}
	u, err := p.st.Users.ByID(ctx, t.UserID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, session.ErrInvalidRefresh
		}
		return nil, fmt.Errorf("find user: %w", err)
	}
	if u.CanAct() != nil {
		return nil, session.ErrInvalidRefresh
	}
	refresh := newRefreshToken()
	// Each refresh extends the session by RefreshTTL, but never past
	// session.MaxAge from its sign-in: a stolen refresh token cannot be
	// kept alive forever.
	expires := now.Add(p.cfg.RefreshTTL)
	if limit := t.CreatedAt.Add(session.MaxAge); !t.CreatedAt.IsZero() && expires.After(limit) {
		expires = limit
	}
	won, err := p.st.Sessions.Rotate(ctx, t.ID, oldHash, session.Hash(refresh), now.UTC(), expires.UTC())
	if err != nil {
		return nil, fmt.Errorf("rotate refresh token: %w", err)
	}
	if !won { // rotated by a concurrent refresh with the same token: reused
		return nil, p.revokeReused(ctx, oldHash)
	}
	access, ttl, err := p.tokens.Issue(u.ID, t.ID, u.Role, now)
	if err != nil {
		return nil, fmt.Errorf("issue access token: %w", err)
	}
	return &Login{AccessToken: access, RefreshToken: refresh, ExpiresIn: ttl, User: u}, nil
}

// revokeReused ends the session whose previous refresh token hashes to
// hash, if any, and returns the answer to the presenter: ErrInvalidRefresh.
func (p *Accounts) revokeReused(ctx context.Context, hash string) error {
	t, err := p.st.Sessions.ByPreviousHash(ctx, hash)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return session.ErrInvalidRefresh
		}
		return fmt.Errorf("find rotated refresh token: %w", err)
	}
	if _, err := p.st.Sessions.Delete(ctx, t.ID); err != nil {
		return fmt.Errorf("revoke session of a reused refresh token: %w", err)
	}
	p.log.Warn("rotated refresh token reused; session revoked", "user_id", t.UserID, "session_id", t.ID)
	return session.ErrInvalidRefresh
}

// Logout always ends the session sessionID that the caller's access token
// names. A refresh token sent along that is another of the caller's
// sessions ends too (an API client may sign out any session it holds the
// refresh token of); an unknown token, or one of another user, ends only
// the caller's own, so a 204 never leaves the caller signed in.
func (p *Accounts) Logout(ctx context.Context, caller *user.User, sessionID uint64, refreshToken string) error {
	if sessionID != 0 {
		if _, err := p.st.Sessions.Delete(ctx, sessionID); err != nil {
			return fmt.Errorf("revoke session: %w", err)
		}
	}
	if refreshToken == "" {
		return nil
	}
	t, err := p.st.Sessions.ByHash(ctx, session.Hash(refreshToken))
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil
		}
		return fmt.Errorf("find session: %w", err)
	}
	if t.UserID != caller.ID || t.ID == sessionID {
		return nil
	}
	if _, err := p.st.Sessions.Delete(ctx, t.ID); err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// Authenticate resolves a panel access token to its user and session. The
// user must still be active and not deleted, and the session must still
// exist: blocking a user, revoking a session or resetting the password ends
// the access tokens at once, not when they expire.
func (p *Accounts) Authenticate(ctx context.Context, accessToken string) (*user.User, uint64, error) {
	now := p.now()
	id, sid, err := p.tokens.Parse(accessToken, now)
	if err != nil || sid == 0 {
		return nil, 0, errs.ErrUnauthorized
	}
	t, err := p.st.Sessions.ByID(ctx, sid)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, 0, errs.ErrUnauthorized
		}
		return nil, 0, fmt.Errorf("find session: %w", err)
	}
	if t.UserID != id || !t.Live(now) {
		return nil, 0, errs.ErrUnauthorized
	}
	u, err := p.st.Users.ByID(ctx, id)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, 0, errs.ErrUnauthorized
		}
		return nil, 0, fmt.Errorf("find user: %w", err)
	}
	if u.CanAct() != nil {
		return nil, 0, errs.ErrUnauthorized
	}
	return u, sid, nil
}

// Sessions lists the caller's live sessions, newest first.
func (p *Accounts) Sessions(ctx context.Context, caller *user.User) ([]session.Token, error) {
	all, err := p.st.Sessions.ListByUser(ctx, caller.ID)
	if err != nil {
		return nil, err
	}
	now := p.now()
	live := make([]session.Token, 0, len(all))
	for _, t := range all {
		if t.Live(now) {
			live = append(live, t)
		}
	}
	return live, nil
}

// RevokeSession ends one of the caller's sessions: its refresh token and its
// access tokens stop working. Another user's session is "not found".
func (p *Accounts) RevokeSession(ctx context.Context, caller *user.User, id uint64) error {
	t, err := p.st.Sessions.ByID(ctx, id)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return session.ErrNotFound
		}
		return fmt.Errorf("find session: %w", err)
	}
	if t.UserID != caller.ID {
		return session.ErrNotFound
	}
	removed, err := p.st.Sessions.Delete(ctx, id)
	if err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	if !removed {
		return session.ErrNotFound
	}
	return nil
}

// clientName is a User-Agent fit for the sessions list: valid UTF-8 (MySQL
// refuses anything else) of at most 255 bytes, cut on a character boundary.
func clientName(ua string) string {
	ua = strings.ToValidUTF8(ua, "\uFFFD")
	for len(ua) > 255 {
		_, size := utf8.DecodeLastRuneInString(ua)
		ua = ua[:len(ua)-size]
	}
	return ua
}
