package accounts_test

import (
	"context"
	"errors"
	"paygate/core/accounts"
	"paygate/core/platform/store"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/panel"
	panelmocks "paygate/core/accounts/panel/mocks"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"
)

// accountWorld is the account use cases' world: the in-memory store, with
// mocks for the outward ports (token signers, mail).
type accountWorld struct {
	db     *storetest.DB
	tokens *panelmocks.MockAccessTokens
	email  *panelmocks.MockEmailTokens
	mailer *panelmocks.MockMailer
	panel  *accounts.Accounts
	now    time.Time
	pw     *user.Passwords
}

// accountsNow is the accounts' clock.
var accountsNow = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func newAccounts(t *testing.T) *accountWorld {
	f := &accountWorld{
		db: storetest.New(), tokens: panelmocks.NewMockAccessTokens(t), email: panelmocks.NewMockEmailTokens(t),
		mailer: panelmocks.NewMockMailer(t), now: accountsNow, pw: user.NewPasswords(4),
	}
	f.panel = accounts.New(accounts.Deps{Tx: store.Narrow(f.db, accounts.TxStoresOf), Stores: accountStores(f.db), Tokens: f.tokens, EmailTokens: f.email, Mailer: f.mailer,
		Now: func() time.Time { return f.now }, Config: accounts.Config{PasswordCost: 4, PublicBaseURL: "https://pay.example.com"}})
	t.Cleanup(f.panel.Wait)
	return f
}

// accountStores are the in-memory store's repositories the accounts read.
func accountStores(db *storetest.DB) accounts.Stores {
	st := db.Stores()
	return accounts.Stores{Users: st.Users, Sessions: st.Sessions, Resets: st.Resets, Logins: st.Logins}
}

// activeUser is user 5, stored, with password.
func (f *accountWorld) activeUser(t *testing.T, password string) *user.User {
	h, err := f.pw.Hash(password)
	if err != nil {
		t.Fatal(err)
	}
	u := user.User{ID: 5, Name: "Asha", Email: "asha@example.com", Phone: "9876543210", PasswordHash: h,
		Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter}
	f.db.Put(u)
	return &u
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

// sessionIDs are the ids of the stored sessions.
func sessionIDs(db *storetest.DB) []uint64 {
	var ids []uint64
	for _, s := range db.Sessions() {
		ids = append(ids, s.ID)
	}
	return ids
}

func TestRegisterCreatesPendingUserAndMailsLink(t *testing.T) {
	f := newAccounts(t)
	f.db.Put(user.User{ID: 8, Email: "someone@example.com", Phone: "9000000000", Status: user.StatusActive})
	f.email.EXPECT().IssueEmailVerification(uint64(9), "asha@example.com", f.now.Add(user.VerificationTTL)).Return("tok.en", nil)
	f.mailer.EXPECT().Send(mock.Anything, mock.MatchedBy(func(m panel.Message) bool {
		return m.To == "asha@example.com" && strings.Contains(m.Text, "https://pay.example.com/verify-email?token=tok.en\n")
	})).Return(errors.New("mail server down")) // logged, never returned

	u, err := f.panel.Register(context.Background(), profile(), "203.0.113.7")
	if err != nil || u.ID != 9 {
		t.Fatalf("Register = %+v, %v", u, err)
	}
	got := f.db.User(9)
	if got.Status != user.StatusPending || got.Role != user.RoleUser || got.Plan != user.PlanStarter || got.Email != "asha@example.com" ||
		got.IPAddress == nil || *got.IPAddress != "203.0.113.7" || !f.pw.Check(&got, "asha-password-1") {
		t.Fatalf("stored %+v", got)
	}
}

// On a reseller's domain the same registration makes that reseller's
// customer: pending, role user, parent_id the reseller.
func TestRegisterCustomerIsTheResellersPendingCustomer(t *testing.T) {
	f := newAccounts(t)
	f.db.Put(user.User{ID: 8, Email: "shop@example.com", Phone: "9000000000", Role: user.RoleReseller, Status: user.StatusActive})
	f.email.EXPECT().IssueEmailVerification(uint64(9), "asha@example.com", f.now.Add(user.VerificationTTL)).Return("tok.en", nil)
	f.mailer.EXPECT().Send(mock.Anything, mock.Anything).Return(nil)

	u, err := f.panel.RegisterCustomer(context.Background(), 8, profile(), "")
	if err != nil || u.ID != 9 {
		t.Fatalf("RegisterCustomer = %+v, %v", u, err)
	}
	got := f.db.User(9)
	if got.Status != user.StatusPending || got.Role != user.RoleUser || got.ParentID == nil || *got.ParentID != 8 {
		t.Fatalf("stored %+v", got)
	}
}

func TestRegisterDuplicatesAreFieldErrors(t *testing.T) {
	t.Run("both taken, found before the insert", func(t *testing.T) {
		f := newAccounts(t)
		f.db.Put(user.User{ID: 1, Email: "asha@example.com", Phone: "9000000001", DeletedAt: &f.now},
			user.User{ID: 2, Email: "other@example.com", Phone: "9876543210", Status: user.StatusBlocked})
		_, err := f.panel.Register(context.Background(), profile(), "")
		fe := fields(err)
		if fe["email"][0] != user.TakenMessage || fe["phone"][0] != user.TakenMessage {
			t.Fatalf("err = %v", err)
		}
		if f.db.Calls("Users.Create") != 0 {
			t.Fatal("inserted after finding both taken")
		}
	})
	t.Run("taken by a concurrent registration", func(t *testing.T) {
		f := newAccounts(t)
		var once sync.Once
		f.db.OnCall("Users.Create", func() error { // another registration commits between the check and the insert
			once.Do(func() {
				f.db.Put(user.User{ID: 3, Email: "ravi@example.com", Phone: "9876543210", Status: user.StatusPending})
			})
			return nil
		})
		_, err := f.panel.Register(context.Background(), profile(), "")
		if fe := fields(err); len(fe) != 1 || fe["phone"][0] != user.TakenMessage {
			t.Fatalf("err = %v", err)
		}
		if _, err := f.db.Stores().Users.ByEmail(context.Background(), "asha@example.com"); errs.KindOf(err) != errs.NotFound {
			t.Fatalf("a user was stored: %v", err)
		}
	})
	t.Run("invalid fields are not looked up", func(t *testing.T) {
		f := newAccounts(t)
		_, err := f.panel.Register(context.Background(), user.Profile{Name: "A", Email: "bad", Phone: "1", Password: "short"}, "")
		if fe := fields(err); len(fe) != 3 {
			t.Fatalf("err = %v", err)
		}
		if f.db.Calls("Users.ByEmail")+f.db.Calls("Users.ByPhone")+f.db.Calls("Users.Create") != 0 {
			t.Fatal("invalid fields were looked up")
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
	f.activeUser(t, "x-password-1")
	f.email.EXPECT().ParseEmailVerification("old", f.now).Return(5, "previous@example.com", nil)
	if err := f.panel.VerifyEmail(context.Background(), "old"); code(err) != "invalid_verification_token" {
		t.Fatalf("other address: %v", err)
	}
	if u := f.db.User(5); u.EmailVerifiedAt != nil {
		t.Fatalf("verified by a token for another address: %+v", u)
	}
	f.email.EXPECT().ParseEmailVerification("good", f.now).Return(5, "asha@example.com", nil)
	if err := f.panel.VerifyEmail(context.Background(), "good"); err != nil {
		t.Fatal(err)
	}
	if u := f.db.User(5); u.EmailVerifiedAt == nil || !u.EmailVerifiedAt.Equal(f.now) {
		t.Fatalf("not verified: %+v", u)
	}
	// Again: already verified, nothing written.
	if err := f.panel.VerifyEmail(context.Background(), "good"); err != nil {
		t.Fatal(err)
	}
	if n := f.db.Calls("Users.Update"); n != 1 {
		t.Fatalf("%d updates, want 1", n)
	}
}

func TestForgotPassword(t *testing.T) {
	f := newAccounts(t)
	f.db.Put(user.User{ID: 6, Email: "blocked@example.com", Phone: "9000000006", Status: user.StatusBlocked})
	f.activeUser(t, "x-password-1")
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
	resets := f.db.ResetTokens()
	stored := resets["asha@example.com"]
	if len(resets) != 1 || sent.To != "asha@example.com" || stored.Email != "asha@example.com" || !stored.CreatedAt.Equal(f.now) {
		t.Fatalf("sent %+v stored %+v", sent, resets)
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
	// withReset is a world with user 5, a reset token pr_x made at made,
	// and sessions 1 and 2 of user 5 and 3 of user 6.
	withReset := func(t *testing.T, made time.Time) (*accountWorld, *user.User) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		f.db.Put(user.ResetToken{Email: "asha@example.com", TokenHash: session.Hash("pr_x"), CreatedAt: made})
		later := f.now.Add(time.Hour)
		f.db.Put(session.Token{ID: 1, UserID: 5, ExpiresAt: later}, session.Token{ID: 2, UserID: 5, ExpiresAt: later},
			session.Token{ID: 3, UserID: 6, ExpiresAt: later})
		return f, u
	}
	unchanged := func(t *testing.T, f *accountWorld, u *user.User) {
		t.Helper()
		got := f.db.User(5)
		if got.PasswordHash != u.PasswordHash || got.EmailVerifiedAt != nil || len(f.db.Sessions()) != 3 {
			t.Fatalf("changed: %+v, sessions %v", got, sessionIDs(f.db))
		}
	}
	t.Run("a bad password is refused before the token is used", func(t *testing.T) {
		f, u := withReset(t, accountsNow)
		err := f.panel.ResetPassword(ctx, "asha@example.com", "pr_x", "short", false)
		if fields(err)["password"] == nil {
			t.Fatalf("err = %v", err)
		}
		if _, ok := f.db.ResetTokens()["asha@example.com"]; !ok || f.db.Calls("Resets.Take") != 0 {
			t.Fatal("the token was used")
		}
		unchanged(t, f, u)
	})
	t.Run("a wrong or expired token changes nothing", func(t *testing.T) {
		f, u := withReset(t, accountsNow)
		if err := f.panel.ResetPassword(ctx, "Asha@example.com", "pr_y", "new-password-1", false); code(err) != "invalid_reset_token" || fields(err)["token"] == nil {
			t.Fatalf("wrong token: %v", err)
		}
		unchanged(t, f, u)
		f, u = withReset(t, accountsNow.Add(-user.ResetTTL-time.Second))
		if err := f.panel.ResetPassword(ctx, "Asha@example.com", "pr_x", "new-password-1", false); code(err) != "invalid_reset_token" {
			t.Fatalf("expired token: %v", err)
		}
		unchanged(t, f, u)
	})
	t.Run("blocked account", func(t *testing.T) {
		f, u := withReset(t, accountsNow)
		u.Status = user.StatusBlocked
		f.db.Put(*u)
		if err := f.panel.ResetPassword(ctx, "asha@example.com", "pr_x", "new-password-1", false); !errors.Is(err, user.ErrNotActive) {
			t.Fatalf("err = %v", err)
		}
		unchanged(t, f, u)
		if _, ok := f.db.ResetTokens()["asha@example.com"]; !ok {
			t.Fatal("the refused reset used up the token")
		}
	})
	t.Run("success sets the password, verifies the email and ends every session", func(t *testing.T) {
		f, _ := withReset(t, accountsNow)
		if err := f.panel.ResetPassword(ctx, "Asha@Example.com", "pr_x", "new-password-1", false); err != nil {
			t.Fatal(err)
		}
		got := f.db.User(5)
		if !f.pw.Check(&got, "new-password-1") || got.EmailVerifiedAt == nil {
			t.Fatalf("user %+v", got)
		}
		if ids := sessionIDs(f.db); len(ids) != 1 || ids[0] != 3 {
			t.Fatalf("sessions left %v, want only the other user's", ids)
		}
		if len(f.db.ResetTokens()) != 0 {
			t.Fatal("the token works again")
		}
		// Once only.
		if err := f.panel.ResetPassword(ctx, "asha@example.com", "pr_x", "other-password-1", false); code(err) != "invalid_reset_token" {
			t.Fatalf("second use: %v", err)
		}
	})
}

func TestUpdateMe(t *testing.T) {
	ctx := context.Background()
	str := func(s string) *string { return &s }
	t.Run("validation", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		_, err := f.panel.UpdateMe(ctx, u, 1, accounts.MePatch{Name: str(" "), Phone: str("12"),
			WebhookURL:      panel.Nullable[string]{Set: true, Value: str("ftp://x")},
			LowBalanceAlert: panel.Nullable[string]{Set: true, Value: str("-1")}, Password: str("new-password-1")})
		fe := fields(err)
		for _, k := range []string{"name", "phone", "webhook_url", "low_balance_alert", "current_password"} {
			if fe[k] == nil {
				t.Errorf("no error on %s: %v", k, err)
			}
		}
		if f.db.Calls("WithinTx") != 0 {
			t.Fatal("an invalid patch reached the store")
		}
	})
	t.Run("wrong current password", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		_, err := f.panel.UpdateMe(ctx, u, 1, accounts.MePatch{Password: str("new-password-1"), CurrentPassword: "nope-nope-1"})
		if !errors.Is(err, accounts.ErrWrongCurrentPassword) || fields(err)["current_password"] == nil {
			t.Fatalf("err = %v", err)
		}
		if f.db.Calls("WithinTx") != 0 {
			t.Fatal("a wrong password reached the store")
		}
	})
	t.Run("password changed meanwhile", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		changed := *u
		changed.PasswordHash, _ = f.pw.Hash("other-password-1")
		f.db.Put(changed)
		_, err := f.panel.UpdateMe(ctx, u, 1, accounts.MePatch{Password: str("new-password-1"), CurrentPassword: "old-password-1"})
		if !errors.Is(err, accounts.ErrWrongCurrentPassword) {
			t.Fatalf("err = %v", err)
		}
		if got := f.db.User(5); got.PasswordHash != changed.PasswordHash {
			t.Fatal("overwrote the password changed meanwhile")
		}
	})
	t.Run("new password ends the other sessions; clears and sets", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		u.WebhookURL = str("https://old.example.com")
		f.db.Put(*u)
		later := f.now.Add(time.Hour)
		f.db.Put(session.Token{ID: 77, UserID: 5, ExpiresAt: later}, session.Token{ID: 78, UserID: 5, ExpiresAt: later},
			session.Token{ID: 79, UserID: 6, ExpiresAt: later})
		f.db.Put(user.ResetToken{Email: "asha@example.com", TokenHash: session.Hash("pr_x"), CreatedAt: f.now})
		out, err := f.panel.UpdateMe(ctx, u, 77, accounts.MePatch{Password: str("new-password-1"), CurrentPassword: "old-password-1",
			WebhookURL: panel.Nullable[string]{Set: true}, LowBalanceAlert: panel.Nullable[string]{Set: true, Value: str("12.50")}})
		if err != nil || out.WebhookURL != nil {
			t.Fatalf("UpdateMe = %+v, %v", out, err)
		}
		got := f.db.User(5)
		if !f.pw.Check(&got, "new-password-1") || got.WebhookURL != nil || got.LowBalanceAlert.String() != "12.5" || got.Name != "Asha" {
			t.Fatalf("stored %+v", got)
		}
		if ids := sessionIDs(f.db); len(ids) != 2 || ids[0] != 77 || ids[1] != 79 {
			t.Fatalf("sessions left %v, want this one and the other user's", ids)
		}
		if len(f.db.ResetTokens()) != 0 {
			t.Fatal("an old reset link still works") // an old reset link dies
		}
	})
	t.Run("phone taken", func(t *testing.T) {
		f := newAccounts(t)
		u := f.activeUser(t, "old-password-1")
		f.db.Put(user.User{ID: 6, Email: "ravi@example.com", Phone: "9999999999", Status: user.StatusActive})
		_, err := f.panel.UpdateMe(ctx, u, 1, accounts.MePatch{Phone: str("9999999999")})
		if fields(err)["phone"][0] != user.TakenMessage {
			t.Fatalf("err = %v", err)
		}
		if got := f.db.User(5); got.Phone != "9876543210" {
			t.Fatalf("phone changed to %s", got.Phone)
		}
	})
}

func TestRefreshAndAuthenticateFollowTheSession(t *testing.T) {
	ctx := context.Background()
	f := newAccounts(t)
	f.activeUser(t, "x-password-1")
	f.db.Put(session.Token{ID: 40, UserID: 5, TokenHash: session.Hash("rt_a"), ExpiresAt: f.now.Add(time.Hour)},
		session.Token{ID: 41, UserID: 5, TokenHash: session.Hash("rt_old"), ExpiresAt: f.now},
		session.Token{ID: 43, UserID: 6, ExpiresAt: f.now.Add(time.Hour)},
		session.Token{ID: 44, UserID: 5, TokenHash: session.Hash("rt_c"), ExpiresAt: f.now.Add(time.Hour)})

	// Expired: refused before any rotation, and its row removed.
	if _, err := f.panel.Refresh(ctx, "rt_old"); !errors.Is(err, session.ErrInvalidRefresh) {
		t.Fatalf("expired: %v", err)
	}
	if f.db.Calls("Sessions.Rotate") != 0 || len(f.db.Sessions()) != 3 {
		t.Fatalf("expired session: %d rotations, sessions %v", f.db.Calls("Sessions.Rotate"), sessionIDs(f.db))
	}
	// Lost the race (a concurrent refresh rotated rt_c first): refused, no
	// access token issued (the token mock fails on one).
	var once sync.Once
	f.db.OnCall("Sessions.Rotate", func() error {
		once.Do(func() {
			f.db.Put(session.Token{ID: 44, UserID: 5, TokenHash: session.Hash("rt_elsewhere"), ExpiresAt: f.now.Add(time.Hour)})
		})
		return nil
	})
	if _, err := f.panel.Refresh(ctx, "rt_c"); !errors.Is(err, session.ErrInvalidRefresh) {
		t.Fatalf("lost rotation: %v", err)
	}
	// Won: the new access token names the same session, whose row now
	// holds the new refresh token for 30 days.
	f.tokens.EXPECT().Issue(uint64(5), uint64(40), user.RoleUser, f.now).Return("jwt", 15*time.Minute, nil)
	l, err := f.panel.Refresh(ctx, "rt_a")
	if err != nil || l.AccessToken != "jwt" || !strings.HasPrefix(l.RefreshToken, "rt_") || l.RefreshToken == "rt_a" {
		t.Fatalf("Refresh = %+v, %v", l, err)
	}
	for _, s := range f.db.Sessions() {
		if s.ID == 40 && (s.TokenHash != session.Hash(l.RefreshToken) || !s.ExpiresAt.Equal(f.now.Add(30*24*time.Hour)) ||
			s.LastUsedAt == nil || !s.LastUsedAt.Equal(f.now)) {
			t.Fatalf("session after refresh: %+v", s)
		}
	}
	// The rotated token presented again: refused, and its session ended
	// (reuse detection; core/accounts/panel/reuse_test.go).
	if _, err := f.panel.Refresh(ctx, "rt_a"); !errors.Is(err, session.ErrInvalidRefresh) {
		t.Fatalf("the old refresh token still works: %v", err)
	}
	f.db.Put(session.Token{ID: 40, UserID: 5, TokenHash: session.Hash("rt_d"), ExpiresAt: f.now.Add(time.Hour)})

	f.tokens.EXPECT().Parse("ok", f.now).Return(5, 40, nil)
	f.tokens.EXPECT().Parse("gone", f.now).Return(5, 42, nil)
	f.tokens.EXPECT().Parse("theirs", f.now).Return(5, 43, nil)
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
	f.activeUser(t, "x-password-1")
	signedIn := f.now.Add(-session.MaxAge + 10*24*time.Hour) // 80 days ago
	f.db.Put(session.Token{ID: 50, UserID: 5, TokenHash: session.Hash("rt_b"), ExpiresAt: f.now.Add(time.Hour), CreatedAt: signedIn})
	f.tokens.EXPECT().Issue(uint64(5), uint64(50), user.RoleUser, f.now).Return("jwt", 15*time.Minute, nil)
	if _, err := f.panel.Refresh(context.Background(), "rt_b"); err != nil {
		t.Fatal(err)
	}
	// 30 more days would pass 90 days from sign-in: the new expiry is capped.
	if s := f.db.Sessions()[0]; !s.ExpiresAt.Equal(signedIn.Add(session.MaxAge)) {
		t.Fatalf("expires %v, want %v", s.ExpiresAt, signedIn.Add(session.MaxAge))
	}
}
