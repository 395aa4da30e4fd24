package panel_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/errs"
	"paygate/core/panel"
	panelmocks "paygate/core/panel/mocks"
	"paygate/core/session"
	sessionmocks "paygate/core/session/mocks"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
)

// accounts is the account use cases' world made of mocks.
type accounts struct {
	tx       *storemocks.MockTransactor
	users    *usermocks.MockRepository
	resets   *usermocks.MockResetRepository
	sessions *sessionmocks.MockRepository
	tokens   *panelmocks.MockAccessTokens
	email    *panelmocks.MockEmailTokens
	mailer   *panelmocks.MockMailer
	panel    *panel.Panel
	now      time.Time
	pw       *user.Passwords
}

func newAccounts(t *testing.T) *accounts {
	f := &accounts{
		tx: storemocks.NewMockTransactor(t), users: usermocks.NewMockRepository(t), resets: usermocks.NewMockResetRepository(t),
		sessions: sessionmocks.NewMockRepository(t), tokens: panelmocks.NewMockAccessTokens(t), email: panelmocks.NewMockEmailTokens(t),
		mailer: panelmocks.NewMockMailer(t), now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), pw: user.NewPasswords(4),
	}
	stores := store.Stores{Users: f.users, Resets: f.resets, Sessions: f.sessions}
	f.panel = panel.New(panel.Deps{Tx: f.tx, Stores: stores, Tokens: f.tokens, EmailTokens: f.email, Mailer: f.mailer,
		Now: func() time.Time { return f.now }, Config: panel.Config{PasswordCost: 4, PublicBaseURL: "https://pay.example.com"}})
	f.tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	t.Cleanup(f.panel.Wait)
	return f
}

func (f *accounts) activeUser(t *testing.T, password string) *user.User {
	h, err := f.pw.Hash(password)
	if err != nil {
		t.Fatal(err)
	}
	return &user.User{ID: 5, Name: "Asha", Email: "asha@example.com", Phone: "9876543210", PasswordHash: h,
		Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter}
}

func fields(err error) map[string][]string {
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid {
		return nil
	}
	return e.Fields
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// code is the stable code of an errs.Error ("" for any other error).
func code(err error) string {
	if e, ok := errs.As(err); ok {
		return e.Code
	}
	return ""
}

func profile() user.Profile {
	return user.Profile{Name: "Asha", Email: "Asha@Example.com", Phone: "9876543210", Password: "asha-password-1"}
}

func TestRegisterCreatesPendingUserAndMailsLink(t *testing.T) {
	f := newAccounts(t)
	f.users.EXPECT().ByEmail(mock.Anything, "asha@example.com").Return(nil, user.ErrNotFound)
	f.users.EXPECT().ByPhone(mock.Anything, "9876543210").Return(nil, user.ErrNotFound)
	f.users.EXPECT().Create(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Status == user.StatusPending && u.Role == user.RoleUser && u.Plan == user.PlanStarter &&
			u.Email == "asha@example.com" && u.IPAddress != nil && *u.IPAddress == "203.0.113.7" && f.pw.Check(u, "asha-password-1")
	})).RunAndReturn(func(_ context.Context, u *user.User) error { u.ID = 9; return nil })
	f.email.EXPECT().IssueEmailVerification(uint64(9), "asha@example.com", f.now.Add(user.VerificationTTL)).Return("tok.en", nil)
	f.mailer.EXPECT().Send(mock.Anything, mock.MatchedBy(func(m panel.Message) bool {
		return m.To == "asha@example.com" && strings.Contains(m.Text, "https://pay.example.com/verify-email?token=tok.en\n")
	})).Return(errors.New("mail server down")) // logged, never returned

	u, err := f.panel.Register(context.Background(), profile(), "203.0.113.7")
	if err != nil || u.ID != 9 {
		t.Fatalf("Register = %+v, %v", u, err)
	}
}

func TestRegisterDuplicatesAreFieldErrors(t *testing.T) {
	t.Run("both taken, found before the insert", func(t *testing.T) {
		f := newAccounts(t)
		f.users.EXPECT().ByEmail(mock.Anything, "asha@example.com").Return(&user.User{ID: 1, DeletedAt: &f.now}, nil)
		f.users.EXPECT().ByPhone(mock.Anything, "9876543210").Return(&user.User{ID: 2, Status: user.StatusBlocked}, nil)
		_, err := f.panel.Register(context.Background(), profile(), "")
		fe := fields(err)
		if fe["email"][0] != user.TakenMessage || fe["phone"][0] != user.TakenMessage {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("taken by a concurrent registration", func(t *testing.T) {
		f := newAccounts(t)
		f.users.EXPECT().ByEmail(mock.Anything, mock.Anything).Return(nil, user.ErrNotFound)
		f.users.EXPECT().ByPhone(mock.Anything, mock.Anything).Return(nil, user.ErrNotFound)
		f.users.EXPECT().Create(mock.Anything, mock.Anything).Return(user.ErrPhoneTaken.Wrap(errors.New("1062")))
		_, err := f.panel.Register(context.Background(), profile(), "")
		if fe := fields(err); len(fe) != 1 || fe["phone"][0] != user.TakenMessage {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("invalid fields are not looked up", func(t *testing.T) {
		f := newAccounts(t)
		_, err := f.panel.Register(context.Background(), user.Profile{Name: "A", Email: "bad", Phone: "1", Password: "short"}, "")
		if fe := fields(err); len(fe) != 3 {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestVerifyEmail(t *testing.T) {
	f := newAccounts(t)
	f.email.EXPECT().ParseEmailVerification("bad", f.now).Return(0, "", errors.New("signature"))
	if err := f.panel.VerifyEmail(context.Background(), "bad"); code(err) != "invalid_verification_token" {
		t.Fatalf("forged: %v", err)
	}
	// A token for an address the account no longer has.
	u := f.activeUser(t, "x-password-1")
	f.email.EXPECT().ParseEmailVerification("old", f.now).Return(5, "previous@example.com", nil)
	f.users.EXPECT().LockByID(mock.Anything, uint64(5)).RunAndReturn(func(context.Context, uint64) (*user.User, error) { c := *u; return &c, nil })
	if err := f.panel.VerifyEmail(context.Background(), "old"); code(err) != "invalid_verification_token" {
		t.Fatalf("other address: %v", err)
	}
	f.email.EXPECT().ParseEmailVerification("good", f.now).Return(5, "asha@example.com", nil)
	f.users.EXPECT().Update(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.EmailVerifiedAt != nil && u.EmailVerifiedAt.Equal(f.now)
	})).RunAndReturn(func(_ context.Context, got *user.User) error { u.EmailVerifiedAt = got.EmailVerifiedAt; return nil }).Once()
	if err := f.panel.VerifyEmail(context.Background(), "good"); err != nil {
		t.Fatal(err)
	}
	// Again: already verified, nothing written (Update was expected once).
	if err := f.panel.VerifyEmail(context.Background(), "good"); err != nil {
		t.Fatal(err)
	}
}

func TestForgotPassword(t *testing.T) {
	f := newAccounts(t)
	blocked := &user.User{ID: 6, Email: "blocked@example.com", Status: user.StatusBlocked}
	f.users.EXPECT().ByEmail(mock.Anything, "nobody@example.com").Return(nil, user.ErrNotFound)
	f.users.EXPECT().ByEmail(mock.Anything, "blocked@example.com").Return(blocked, nil)
	f.users.EXPECT().ByEmail(mock.Anything, "asha@example.com").Return(f.activeUser(t, "x-password-1"), nil)
	var stored user.ResetToken
	f.resets.EXPECT().Put(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, rt user.ResetToken) error { stored = rt; return nil }).Once()
	var sent panel.Message
	f.mailer.EXPECT().Send(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, m panel.Message) error { sent = m; return nil }).Once()

	for _, email := range []string{"nobody@example.com", "blocked@example.com", " ASHA@example.com "} {
		if err := f.panel.ForgotPassword(context.Background(), email); err != nil {
			t.Fatalf("%s: %v", email, err)
		}
	}
	if err := f.panel.ForgotPassword(context.Background(), "not an email"); fields(err)["email"] == nil {
		t.Fatalf("bad email: %v", err)
	}
	f.panel.Wait()
	if sent.To != "asha@example.com" || stored.Email != "asha@example.com" || !stored.CreatedAt.Equal(f.now) {
		t.Fatalf("sent %+v stored %+v", sent, stored)
	}
	const prefix = "https://pay.example.com/reset-password?token="
	i := strings.Index(sent.Text, prefix)
	if i < 0 {
		t.Fatalf("no link in %q", sent.Text)
	}
	token, _, _ := strings.Cut(sent.Text[i+len(prefix):], "&")
	if !strings.Contains(sent.Text, "&email=asha%40example.com") || session.Hash(token) != stored.TokenHash || strings.Contains(stored.TokenHash, token) {
		t.Fatalf("token %q, stored %q, text %q", token, stored.TokenHash, sent.Text)
	}
}

func TestResetPassword(t *testing.T) {
	ctx := context.Background()
	t.Run("a bad password is refused before the token is used", func(t *testing.T) {
		f := newAccounts(t)
		err := f.panel.ResetPassword(ctx, "asha@example.com", "pr_x", "short")
		if fields(err)["password"] == nil {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a wrong or expired token changes nothing", func(t *testing.T) {
		f := newAccounts(t)
		f.resets.EXPECT().Take(mock.Anything, "asha@example.com", session.Hash("pr_x"), f.now.Add(-time.Hour)).Return(false, nil)
		if err := f.panel.ResetPassword(ctx, "Asha@example.com", "pr_x", "new-password-1"); code(err) != "invalid_reset_token" || fields(err)["token"] == nil {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("blocked account", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		u.Status = user.StatusBlocked
		f.resets.EXPECT().Take(mock.Anything, mock.Anything, mock.Anything, mock.Anything).Return(true, nil)
		f.users.EXPECT().ByEmail(mock.Anything, "asha@example.com").Return(u, nil)
		f.users.EXPECT().LockByID(mock.Anything, uint64(5)).Return(u, nil)
		if err := f.panel.ResetPassword(ctx, "asha@example.com", "pr_x", "new-password-1"); !errors.Is(err, user.ErrNotActive) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("success sets the password, verifies the email and ends every session", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		f.resets.EXPECT().Take(mock.Anything, mock.Anything, mock.Anything, mock.Anything).Return(true, nil)
		f.users.EXPECT().ByEmail(mock.Anything, "asha@example.com").Return(u, nil)
		f.users.EXPECT().LockByID(mock.Anything, uint64(5)).Return(u, nil)
		f.users.EXPECT().Update(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
			return f.pw.Check(u, "new-password-1") && u.EmailVerifiedAt != nil
		})).Return(nil)
		f.sessions.EXPECT().DeleteByUser(mock.Anything, uint64(5)).Return(nil)
		if err := f.panel.ResetPassword(ctx, "asha@example.com", "pr_x", "new-password-1"); err != nil {
			t.Fatal(err)
		}
	})
}

func TestUpdateMe(t *testing.T) {
	ctx := context.Background()
	str := func(s string) *string { return &s }
	t.Run("validation", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		_, err := f.panel.UpdateMe(ctx, u, 1, panel.MePatch{Name: str(" "), Phone: str("12"),
			WebhookURL:      panel.Nullable[string]{Set: true, Value: str("ftp://x")},
			LowBalanceAlert: panel.Nullable[string]{Set: true, Value: str("-1")}, Password: str("new-password-1")})
		fe := fields(err)
		for _, k := range []string{"name", "phone", "webhook_url", "low_balance_alert", "current_password"} {
			if fe[k] == nil {
				t.Errorf("no error on %s: %v", k, err)
			}
		}
	})
	t.Run("wrong current password", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		_, err := f.panel.UpdateMe(ctx, u, 1, panel.MePatch{Password: str("new-password-1"), CurrentPassword: "nope-nope-1"})
		if !errors.Is(err, panel.ErrWrongCurrentPassword) || fields(err)["current_password"] == nil {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("password changed meanwhile", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		changed := *u
		changed.PasswordHash, _ = f.pw.Hash("other-password-1")
		f.users.EXPECT().LockByID(mock.Anything, uint64(5)).Return(&changed, nil)
		_, err := f.panel.UpdateMe(ctx, u, 1, panel.MePatch{Password: str("new-password-1"), CurrentPassword: "old-password-1"})
		if !errors.Is(err, panel.ErrWrongCurrentPassword) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("new password ends the other sessions; clears and sets", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		u.WebhookURL = str("https://old.example.com")
		locked := *u
		f.users.EXPECT().LockByID(mock.Anything, uint64(5)).Return(&locked, nil)
		f.users.EXPECT().Update(mock.Anything, mock.MatchedBy(func(got *user.User) bool {
			return f.pw.Check(got, "new-password-1") && got.WebhookURL == nil && got.LowBalanceAlert.String() == "12.5" && got.Name == "Asha"
		})).Return(nil)
		f.sessions.EXPECT().DeleteOthers(mock.Anything, uint64(5), uint64(77)).Return(nil)
		f.resets.EXPECT().Delete(mock.Anything, "asha@example.com").Return(nil).Once() // an old reset link dies
		out, err := f.panel.UpdateMe(ctx, u, 77, panel.MePatch{Password: str("new-password-1"), CurrentPassword: "old-password-1",
			WebhookURL: panel.Nullable[string]{Set: true}, LowBalanceAlert: panel.Nullable[string]{Set: true, Value: str("12.50")}})
		if err != nil || out.WebhookURL != nil {
			t.Fatalf("UpdateMe = %+v, %v", out, err)
		}
	})
	t.Run("phone taken", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		f.users.EXPECT().LockByID(mock.Anything, uint64(5)).Return(u, nil)
		f.users.EXPECT().Update(mock.Anything, mock.Anything).Return(user.ErrPhoneTaken)
		_, err := f.panel.UpdateMe(ctx, u, 1, panel.MePatch{Phone: str("9999999999")})
		if fields(err)["phone"][0] != user.TakenMessage {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestRefreshAndAuthenticateFollowTheSession(t *testing.T) {
	ctx := context.Background()
	f := newAccounts(t)
	u := f.activeUser(t, "x-password-1")
	live := &session.Token{ID: 40, UserID: 5, TokenHash: session.Hash("rt_a"), ExpiresAt: f.now.Add(time.Hour)}
	f.sessions.EXPECT().ByHash(mock.Anything, session.Hash("rt_a")).Return(live, nil)
	f.sessions.EXPECT().ByHash(mock.Anything, session.Hash("rt_old")).Return(&session.Token{ID: 41, UserID: 5, ExpiresAt: f.now}, nil)
	f.users.EXPECT().ByID(mock.Anything, uint64(5)).Return(u, nil)

	// Expired: refused before any rotation, and its row removed.
	f.sessions.EXPECT().Delete(mock.Anything, uint64(41)).Return(true, nil).Once()
	if _, err := f.panel.Refresh(ctx, "rt_old"); !errors.Is(err, session.ErrInvalidRefresh) {
		t.Fatalf("expired: %v", err)
	}
	// Lost the race: refused, no access token issued.
	f.sessions.EXPECT().Rotate(mock.Anything, uint64(40), session.Hash("rt_a"), mock.Anything, f.now, f.now.Add(30*24*time.Hour)).Return(false, nil).Once()
	if _, err := f.panel.Refresh(ctx, "rt_a"); !errors.Is(err, session.ErrInvalidRefresh) {
		t.Fatalf("lost rotation: %v", err)
	}
	// Won: the new access token names the same session.
	f.sessions.EXPECT().Rotate(mock.Anything, uint64(40), session.Hash("rt_a"), mock.Anything, f.now, f.now.Add(30*24*time.Hour)).Return(true, nil).Once()
	f.tokens.EXPECT().Issue(uint64(5), uint64(40), user.RoleUser, f.now).Return("jwt", 15*time.Minute, nil)
	l, err := f.panel.Refresh(ctx, "rt_a")
	if err != nil || l.AccessToken != "jwt" || !strings.HasPrefix(l.RefreshToken, "rt_") || l.RefreshToken == "rt_a" {
		t.Fatalf("Refresh = %+v, %v", l, err)
	}

	f.tokens.EXPECT().Parse("ok", f.now).Return(5, 40, nil)
	f.tokens.EXPECT().Parse("gone", f.now).Return(5, 42, nil)
	f.tokens.EXPECT().Parse("theirs", f.now).Return(5, 43, nil)
	f.sessions.EXPECT().ByID(mock.Anything, uint64(40)).Return(live, nil)
	f.sessions.EXPECT().ByID(mock.Anything, uint64(42)).Return(nil, errs.ErrNotFound)
	f.sessions.EXPECT().ByID(mock.Anything, uint64(43)).Return(&session.Token{ID: 43, UserID: 6, ExpiresAt: f.now.Add(time.Hour)}, nil)
	if got, sid, err := f.panel.Authenticate(ctx, "ok"); err != nil || got.ID != 5 || sid != 40 {
		t.Fatalf("Authenticate = %v %d %v", got, sid, err)
	}
	for _, tok := range []string{"gone", "theirs"} {
		if _, _, err := f.panel.Authenticate(ctx, tok); !errors.Is(err, errs.ErrUnauthorized) {
			t.Fatalf("%s: %v", tok, err)
		}
	}
}

func TestRefreshNeverExtendsASessionPastItsMaxAge(t *testing.T) {
	f := newAccounts(t)
	u := f.activeUser(t, "x-password-1")
	signedIn := f.now.Add(-session.MaxAge + 10*24*time.Hour) // 80 days ago
	f.sessions.EXPECT().ByHash(mock.Anything, session.Hash("rt_b")).Return(
		&session.Token{ID: 50, UserID: 5, ExpiresAt: f.now.Add(time.Hour), CreatedAt: signedIn}, nil)
	f.users.EXPECT().ByID(mock.Anything, uint64(5)).Return(u, nil)
	// 30 more days would pass 90 days from sign-in: the new expiry is capped.
	f.sessions.EXPECT().Rotate(mock.Anything, uint64(50), session.Hash("rt_b"), mock.Anything, f.now,
		signedIn.Add(session.MaxAge).UTC()).Return(true, nil).Once()
	f.tokens.EXPECT().Issue(uint64(5), uint64(50), user.RoleUser, f.now).Return("jwt", 15*time.Minute, nil)
	if _, err := f.panel.Refresh(context.Background(), "rt_b"); err != nil {
		t.Fatal(err)
	}
}
