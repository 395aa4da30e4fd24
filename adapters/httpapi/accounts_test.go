package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"paygate/core/accounts/panel"
	"paygate/core/accounts/signin"
)

// mailbox is the test's Mailer: it keeps what the app sends, or fails.
type mailbox struct {
	mu   sync.Mutex
	msgs []panel.Message
	fail atomic.Bool
}

func (m *mailbox) Send(_ context.Context, msg panel.Message) error {
	if m.fail.Load() {
		return errors.New("mail server down")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

// sentAbout lists the messages of subject sent to addr so far (an account
// an admin created also got its invitation).
func (e *env) sentAbout(addr, subject string) []panel.Message {
	var out []panel.Message
	for _, m := range e.sentTo(addr) {
		if m.Subject == subject {
			out = append(out, m)
		}
	}
	return out
}

// sentTo lists the messages sent to addr so far, after the mail in flight.
func (e *env) sentTo(addr string) []panel.Message {
	e.app.Wait()
	e.mail.mu.Lock()
	defer e.mail.mu.Unlock()
	var out []panel.Message
	for _, m := range e.mail.msgs {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

var mailLink = regexp.MustCompile(`https?://\S+`)

// link returns the link of the last message to addr, which must start with prefix.
func (e *env) link(addr, prefix string) *url.URL {
	e.t.Helper()
	msgs := e.sentTo(addr)
	if len(msgs) == 0 {
		e.t.Fatalf("no mail to %s", addr)
	}
	raw := mailLink.FindString(msgs[len(msgs)-1].Text)
	if !strings.HasPrefix(raw, prefix) {
		e.t.Fatalf("mail to %s links %q, want %s…", addr, raw, prefix)
	}
	u, err := url.Parse(raw)
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

func fieldErr(r resp, field string) string {
	errs, _ := r.body["errors"].(map[string]any)
	list, _ := errs[field].([]any)
	if len(list) == 0 {
		return ""
	}
	s, _ := list[0].(string)
	return s
}

func (e *env) must422(r resp, fields ...string) resp {
	e.t.Helper()
	e.must(r, 422)
	for _, f := range fields {
		if fieldErr(r, f) == "" {
			e.t.Fatalf("no field error on %s: %s", f, r.raw)
		}
	}
	return r
}

type signIn struct{ access, refresh string }

func (e *env) signIn(email, password string, agent ...string) signIn {
	e.t.Helper()
	var h []string
	if len(agent) > 0 {
		h = []string{"User-Agent", agent[0]}
	}
	r := e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": email, "password": password}, h...), 200)
	return signIn{r.str("access_token"), r.str("refresh_token")}
}

func registration(n int64) map[string]any {
	return map[string]any{"name": "Asha", "email": fmt.Sprintf("asha%d@example.com", n), "phone": fmt.Sprintf("97%08d", n), "password": "asha-password-1"}
}

const verifyPrefix, resetPrefix = "http://localhost:8080/verify-email?token=", "http://localhost:8080/reset-password?token="

func TestRegisterVerifyEmailAndPendingLogin(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		in := registration(seq.Add(1))
		email := in["email"].(string)
		u := e.must(e.do("POST", "/api/v1/panel/auth/register", "", in), 201)
		if u.str("status") != "pending" || u.str("role") != "user" || u.str("plan") != "starter" || u.str("email") != email ||
			u.body["email_verified_at"] != nil || u.num("id") == 0 || strings.Contains(u.raw, "password") {
			t.Fatalf("registered %s", u.raw)
		}
		// A pending account may not sign in yet, with a clear 403 that
		// says what happens next.
		r := e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": email, "password": "asha-password-1"}), 403)
		if r.str("error") != "account_not_active" || !strings.Contains(r.str("message"), "waiting for an administrator's approval") {
			t.Fatalf("pending login %s", r.raw)
		}

		link := e.link(email, verifyPrefix)
		token := link.Query().Get("token")
		e.must422(e.do("POST", "/api/v1/panel/auth/verify-email", "", map[string]any{"token": token + "x"}), "token")
		e.must422(e.do("POST", "/api/v1/panel/auth/verify-email", "", map[string]any{}), "token")
		e.must(e.do("POST", "/api/v1/panel/auth/verify-email", "", map[string]any{"token": token}), 200)
		shown := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/users/%d", u.num("id")), e.admin, nil), 200)
		if shown.body["email_verified_at"] == nil {
			t.Fatalf("not verified: %s", shown.raw)
		}
		// The link again: harmless, still 200.
		e.must(e.do("POST", "/api/v1/panel/auth/verify-email", "", map[string]any{"token": token}), 200)
		// An access token is no verification token.
		e.must422(e.do("POST", "/api/v1/panel/auth/verify-email", "", map[string]any{"token": e.admin}), "token")
		// Past its 48 hours the link is refused.
		in2 := registration(seq.Add(1))
		e.must(e.do("POST", "/api/v1/panel/auth/register", "", in2), 201)
		late := e.link(in2["email"].(string), verifyPrefix).Query().Get("token")
		e.skew.Store(int64(49 * time.Hour))
		e.must422(e.do("POST", "/api/v1/panel/auth/verify-email", "", map[string]any{"token": late}), "token")

		// Once an admin activates the account, its owner is mailed and
		// signs in; activating it again sends nothing more.
		e.skew.Store(0)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/activate", u.num("id")), e.admin, nil), 200)
		if l := e.link(email, "http://"); l.Path != "/login" || e.sentTo(email)[len(e.sentTo(email))-1].Subject != "Your account is active" {
			t.Fatalf("activation mail %v: %+v", l, e.sentTo(email))
		}
		n := len(e.sentTo(email))
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/activate", u.num("id")), e.admin, nil), 200)
		if len(e.sentTo(email)) != n {
			t.Fatalf("a second activation mailed again: %+v", e.sentTo(email))
		}
		e.signIn(email, "asha-password-1")
	})
}

// An account an admin creates is told where to sign in; a pending one is
// told that a mail follows on activation.
func TestAdminCreatedAccountsAreInvited(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		for _, status := range []string{"active", "pending"} {
			in := registration(seq.Add(1))
			in["status"] = status
			e.must(e.do("POST", "/api/v1/panel/users", e.admin, in), 201)
			msgs := e.sentTo(in["email"].(string))
			if len(msgs) != 1 || msgs[0].Subject != "An account was created for you" || !strings.HasSuffix(msgs[0].Link, "/login") {
				t.Fatalf("%s: invite %+v", status, msgs)
			}
			pendingNote := strings.Contains(msgs[0].Text, "waiting for an administrator's approval")
			if pendingNote != (status == "pending") || strings.Contains(msgs[0].Text, in["password"].(string)) {
				t.Fatalf("%s: invite text %q", status, msgs[0].Text)
			}
		}
	})
}

func TestRegisterRefusesBadFieldsAndDuplicates(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.must422(e.do("POST", "/api/v1/panel/auth/register", "", map[string]any{"name": " ", "email": "not-an-email", "phone": "12ab", "password": "short"}),
			"name", "email", "phone", "password")
		e.must422(e.do("POST", "/api/v1/panel/auth/register", "", map[string]any{}), "name", "email", "phone", "password")
		e.must422(e.do("POST", "/api/v1/panel/auth/register", "", map[string]any{"name": "A", "email": "a@example.com", "phone": "9812345678", "password": "long-enough", "role": "admin"}), "role")

		first := registration(seq.Add(1))
		e.must(e.do("POST", "/api/v1/panel/auth/register", "", first), 201)
		other := registration(seq.Add(1))
		// Email (in another case) and phone taken: both named, in one answer.
		dup := map[string]any{"name": "B", "email": strings.ToUpper(first["email"].(string)), "phone": first["phone"], "password": "b-password-1"}
		r := e.must422(e.do("POST", "/api/v1/panel/auth/register", "", dup), "email", "phone")
		if fieldErr(r, "email") != "has already been taken" || fieldErr(r, "phone") != "has already been taken" {
			t.Fatalf("duplicate %s", r.raw)
		}
		dup["phone"] = other["phone"]
		if r := e.must422(e.do("POST", "/api/v1/panel/auth/register", "", dup), "email"); fieldErr(r, "phone") != "" {
			t.Fatalf("free phone reported: %s", r.raw)
		}
		// The same wording for an active, a blocked and a deleted account's email.
		for _, state := range []string{"active", "blocked", "deleted"} {
			c := e.newCustomer("user", "starter", "0.00")
			switch state {
			case "blocked":
				e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", c.id), e.admin, nil), 200)
			case "deleted":
				e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, nil), 204)
			}
			shown := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, nil), 200)
			in := registration(seq.Add(1))
			in["email"] = shown.str("email")
			if r := e.must422(e.do("POST", "/api/v1/panel/auth/register", "", in), "email"); fieldErr(r, "email") != "has already been taken" {
				t.Fatalf("%s account: %s", state, r.raw)
			}
		}
	})
}

func TestRegisterRaceEndsAs422(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		in := registration(seq.Add(1))
		codes := hammer(6, func() int { return e.do("POST", "/api/v1/panel/auth/register", "", in).status })
		if codes[201] != 1 || codes[422] != 5 {
			t.Fatalf("statuses %v", codes)
		}
	})
}

func TestRegistrationsAreLimitedPerAddress(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		for i := 0; i < 10; i++ {
			e.must422(e.do("POST", "/api/v1/panel/auth/register", "", map[string]any{"name": "x", "email": "x", "phone": "x", "password": "x"}))
		}
		if r := e.do("POST", "/api/v1/panel/auth/register", "", registration(seq.Add(1))); r.status != 429 || r.str("error") != "too_many_requests" {
			t.Fatalf("11th registration: %d %s", r.status, r.raw)
		}
	})
}

func TestMailFailureChangesNoAnswer(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.mail.fail.Store(true)
		in := registration(seq.Add(1))
		e.must(e.do("POST", "/api/v1/panel/auth/register", "", in), 201)
		e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": in["email"]}), 200)
		if len(e.sentTo(in["email"].(string))) != 0 {
			t.Fatal("mail recorded although the mailer failed")
		}
	})
}

func TestResendVerification(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200).str("email")
		e.must(e.do("POST", "/api/v1/panel/auth/resend-verification", "", nil), 401)
		r := e.must(e.do("POST", "/api/v1/panel/auth/resend-verification", c.token, nil), 200)
		if r.str("message") == "" {
			t.Fatalf("resend %s", r.raw)
		}
		token := e.link(email, verifyPrefix).Query().Get("token")
		e.must(e.do("POST", "/api/v1/panel/auth/verify-email", "", map[string]any{"token": token}), 200)
		if e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200).body["email_verified_at"] == nil {
			t.Fatal("not verified")
		}
		if r := e.do("POST", "/api/v1/panel/auth/resend-verification", c.token, nil); r.status != 409 || r.str("error") != "email_already_verified" {
			t.Fatalf("resend when verified: %d %s", r.status, r.raw)
		}
	})
}

// customerEmail is the email of a customer made by newCustomer.
func (e *env) customerEmail(c customer) string {
	return e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200).str("email")
}

func TestForgotAndResetPassword(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		other := e.signIn(email, "user-password-1")

		known := e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": strings.ToUpper(email)}), 200)
		unknown := e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": "nobody-here@example.com"}), 200)
		if known.raw != unknown.raw || known.str("message") == "" {
			t.Fatalf("answers differ: %s / %s", known.raw, unknown.raw)
		}
		if len(e.sentTo("nobody-here@example.com")) != 0 {
			t.Fatal("mail sent to an unknown address")
		}
		e.must422(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": "nope"}), "email")

		first := e.link(email, resetPrefix)
		if first.Query().Get("email") != email {
			t.Fatalf("link %s", first)
		}
		// A second request, once a mail may go again, replaces the first token.
		e.skew.Add(int64(signin.MailEvery))
		e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email}), 200)
		link := e.link(email, resetPrefix)
		token := link.Query().Get("token")
		if token == first.Query().Get("token") {
			t.Fatal("the same token twice")
		}
		reset := func(token, password string) resp {
			return e.do("POST", "/api/v1/panel/auth/reset-password", "", map[string]any{"email": email, "token": token, "password": password})
		}
		e.must422(reset(first.Query().Get("token"), "new-password-1"), "token")
		e.must422(reset(token+"x", "new-password-1"), "token")
		e.must422(reset(token, "short"), "password") // the token survives a refused password
		r := e.do("POST", "/api/v1/panel/auth/reset-password", "", map[string]any{"email": "someone@example.com", "token": token, "password": "new-password-1"})
		e.must422(r, "token")

		e.must(reset(token, "new-password-1"), 200)
		e.must422(reset(token, "new-password-2"), "token") // used
		// Every session ended, access and refresh tokens alike.
		e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", other.access, nil), 401)
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": other.refresh}), 401)
		e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": email, "password": "user-password-1"}), 401)
		s := e.signIn(email, "new-password-1")
		if e.must(e.do("GET", "/api/v1/panel/auth/me", s.access, nil), 200).body["email_verified_at"] == nil {
			t.Fatal("a reset through the mailed link does not count as a verified email")
		}
		var stored int64
		e.store.DB().Raw("SELECT COUNT(*) FROM password_reset_tokens WHERE token = ?", token).Scan(&stored)
		if stored != 0 || strings.Contains(e.logs.String(), token) {
			t.Fatal("the raw reset token is stored or logged")
		}
	})
}

func TestResetTokenIsSingleUseUnderConcurrency(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email}), 200)
		token := e.link(email, resetPrefix).Query().Get("token")
		var n atomic.Int64
		codes := hammer(8, func() int {
			pw := fmt.Sprintf("racing-password-%d", n.Add(1))
			return e.do("POST", "/api/v1/panel/auth/reset-password", "", map[string]any{"email": email, "token": token, "password": pw}).status
		})
		if codes[200] != 1 || codes[422] != 7 {
			t.Fatalf("statuses %v", codes)
		}
	})
}

func TestResetTokenExpiresAfterAnHour(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		newToken := func() string {
			e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email}), 200)
			return e.link(email, resetPrefix).Query().Get("token")
		}
		reset := func(token string) resp {
			return e.do("POST", "/api/v1/panel/auth/reset-password", "", map[string]any{"email": email, "token": token, "password": "new-password-1"})
		}
		token := newToken()
		e.skew.Store(int64(61 * time.Minute)) // the app's clock moves on
		r := e.must422(reset(token), "token")
		if r.str("message") != "Password reset link is invalid or has expired" {
			t.Fatalf("expired %s", r.raw)
		}
		// 59 minutes after it was made, a token still works.
		token = newToken()
		e.skew.Store(int64(120 * time.Minute))
		e.must(reset(token), 200)
	})
}

func TestResetRefusesBlockedAccounts(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email}), 200)
		token := e.link(email, resetPrefix).Query().Get("token")
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", c.id), e.admin, nil), 200)
		r := e.must(e.do("POST", "/api/v1/panel/auth/reset-password", "", map[string]any{"email": email, "token": token, "password": "new-password-1"}), 403)
		if r.str("message") != "Account is not active" {
			t.Fatalf("blocked reset %s", r.raw)
		}
		// Blocked accounts get no reset mail at all.
		before := len(e.sentTo(email))
		e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email}), 200)
		if len(e.sentTo(email)) != before {
			t.Fatal("reset mail sent to a blocked account")
		}
	})
}
