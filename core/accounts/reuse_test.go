package accounts_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
)

// TestReusedRefreshTokenEndsItsSession: a refresh token presented after it
// was rotated away ends its session at once, so the token that replaced it
// stops working too; other sessions live on.
func TestReusedRefreshTokenEndsItsSession(t *testing.T) {
	ctx := context.Background()
	f := newAccounts(t)
	f.activeUser(t, "x-password-1")
	f.db.Put(session.Token{ID: 60, UserID: 5, TokenHash: session.Hash("rt_first"), ExpiresAt: f.now.Add(time.Hour)},
		session.Token{ID: 61, UserID: 5, TokenHash: session.Hash("rt_other"), ExpiresAt: f.now.Add(time.Hour)})
	f.tokens.EXPECT().Issue(uint64(5), uint64(60), user.RoleUser, f.now).Return("jwt", 15*time.Minute, nil).Once()
	l, err := f.panel.Refresh(ctx, "rt_first")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.panel.Refresh(ctx, "rt_first"); !errors.Is(err, session.ErrInvalidRefresh) {
		t.Fatalf("reuse: %v", err)
	}
	for _, s := range f.db.Sessions() {
		if s.ID == 60 {
			t.Fatalf("the session survived the reuse: %+v", s)
		}
	}
	if _, err := f.panel.Refresh(ctx, l.RefreshToken); !errors.Is(err, session.ErrInvalidRefresh) {
		t.Fatalf("the current token of the ended session: %v", err)
	}
	if len(f.db.Sessions()) != 1 || f.db.Sessions()[0].ID != 61 {
		t.Fatalf("sessions left %v", f.db.Sessions())
	}
	// An unknown token changes nothing.
	if _, err := f.panel.Refresh(ctx, "rt_never"); !errors.Is(err, session.ErrInvalidRefresh) || len(f.db.Sessions()) != 1 {
		t.Fatalf("unknown token: %v, sessions %v", err, f.db.Sessions())
	}
}
