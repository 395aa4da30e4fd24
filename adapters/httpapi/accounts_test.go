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

func TestSessionsListRefreshAndRevoke(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		laptop := e.signIn(email, "user-password-1", "Laptop/1.0")
		phone := e.signIn(email, "user-password-1", "Phone/2.0")

		list := func(tok string) []map[string]any {
			r := e.must(e.do("GET", "/api/v1/panel/auth/sessions", tok, nil), 200)
			var out []map[string]any
			for _, s := range r.body["data"].([]any) {
				out = append(out, s.(map[string]any))
			}
			if int(r.body["meta"].(map[string]any)["total"].(float64)) != len(out) {
				t.Fatalf("meta %s", r.raw)
			}
			return out
		}
		byName := func(ss []map[string]any, name string) map[string]any {
			for _, s := range ss {
				if s["name"] == name {
					return s
				}
			}
			t.Fatalf("no session %q in %v", name, ss)
			return nil
		}
		ss := list(laptop.access)
		if len(ss) != 3 {
			t.Fatalf("%d sessions, want 3: %v", len(ss), ss)
		}
		lp, ph := byName(ss, "Laptop/1.0"), byName(ss, "Phone/2.0")
		if lp["current"] != true || ph["current"] != false || lp["last_used_at"] != nil || lp["created_at"] == nil || lp["expires_at"] == nil {
			t.Fatalf("sessions %v", ss)
		}
		if strings.Contains(fmt.Sprint(ss), laptop.refresh) {
			t.Fatal("a refresh token is listed")
		}

		// A refresh keeps the session (its id) and sets last_used_at.
		n := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": phone.refresh}), 200)
		phone = signIn{n.str("access_token"), n.str("refresh_token")}
		ph2 := byName(list(phone.access), "Phone/2.0")
		if ph2["id"] != ph["id"] || ph2["last_used_at"] == nil || ph2["current"] != true {
			t.Fatalf("after refresh %v (before %v)", ph2, ph)
		}

		// Another user's session is not found; so is a bad id.
		e.skew.Store(0) // the other instance's clock
		d := e.newCustomer("user", "starter", "0.00")
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/auth/sessions/%v", ph["id"]), d.token, nil), 404)
		e.must(e.do("DELETE", "/api/v1/panel/auth/sessions/abc", laptop.access, nil), 404)
		e.must(e.do("GET", "/api/v1/panel/auth/me", phone.access, nil), 200)

		// Revoking the phone's session kills its access and refresh tokens at once.
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/auth/sessions/%v", ph["id"]), laptop.access, nil), 204)
		e.must(e.do("GET", "/api/v1/panel/auth/me", phone.access, nil), 401)
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": phone.refresh}), 401)
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/auth/sessions/%v", ph["id"]), laptop.access, nil), 404)
		if len(list(laptop.access)) != 2 {
			t.Fatal("revoked session still listed")
		}
		// Logging out ends the access token too.
		e.must(e.do("POST", "/api/v1/panel/auth/logout", laptop.access, map[string]any{"refresh_token": laptop.refresh}), 204)
		e.must(e.do("GET", "/api/v1/panel/auth/me", laptop.access, nil), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200)
	})
}

func TestBlockedAndDeletedUsersTokensStopAtOnce(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		for _, action := range []string{"block", "delete"} {
			c := e.newCustomer("user", "starter", "0.00")
			email := e.customerEmail(c)
			s := e.signIn(email, "user-password-1")
			e.must(e.do("GET", "/api/v1/panel/auth/me", s.access, nil), 200)
			if action == "block" {
				e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", c.id), e.admin, nil), 200)
			} else {
				e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, nil), 204)
			}
			e.must(e.do("GET", "/api/v1/panel/auth/me", s.access, nil), 401)
			e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 401)
			e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": s.refresh}), 401)
			if action == "block" {
				// Unblocking does not bring the old sessions back.
				e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/activate", c.id), e.admin, nil), 200)
				e.must(e.do("GET", "/api/v1/panel/auth/me", s.access, nil), 401)
				e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": s.refresh}), 401)
			}
		}
	})
}

func TestPatchMe(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		other := e.newCustomer("user", "starter", "0.00")
		otherPhone := e.must(e.do("GET", "/api/v1/panel/auth/me", other.token, nil), 200).str("phone")
		patch := func(body any) resp { return e.do("PATCH", "/api/v1/panel/auth/me", c.token, body) }

		r := e.must(patch(map[string]any{"name": "  Asha Rao ", "phone": "+919876500001", "webhook_url": "https://hooks.example.com/paygate", "low_balance_alert": "150.5"}), 200)
		if r.str("name") != "Asha Rao" || r.str("phone") != "+919876500001" || r.str("webhook_url") != "https://hooks.example.com/paygate" ||
			r.str("low_balance_alert") != "150.50" || r.str("email") != email || r.str("balance") != "0.00" {
			t.Fatalf("patched %s", r.raw)
		}
		// Absent fields stay; null clears.
		r = e.must(patch(map[string]any{"low_balance_alert": "0"}), 200)
		if r.str("name") != "Asha Rao" || r.str("webhook_url") == "" || r.str("low_balance_alert") != "0.00" {
			t.Fatalf("partial %s", r.raw)
		}
		r = e.must(patch(map[string]any{"webhook_url": nil, "low_balance_alert": nil}), 200)
		if r.body["webhook_url"] != nil || r.body["low_balance_alert"] != nil || r.str("phone") != "+919876500001" {
			t.Fatalf("cleared %s", r.raw)
		}
		if me := e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200); me.raw != r.raw {
			t.Fatalf("GET me %s differs from the PATCH answer %s", me.raw, r.raw)
		}
		e.must(patch(map[string]any{}), 200)

		e.must422(patch(map[string]any{"name": " "}), "name")
		e.must422(patch(map[string]any{"phone": "12345"}), "phone")
		if r := e.must422(patch(map[string]any{"phone": otherPhone}), "phone"); fieldErr(r, "phone") != "has already been taken" {
			t.Fatalf("duplicate phone %s", r.raw)
		}
		for _, bad := range []any{"ftp://example.com/x", "/relative", "https://", "https://user:pw@example.com/x", "https://example.com/" + strings.Repeat("a", 250), 42} {
			e.must422(patch(map[string]any{"webhook_url": bad}), "webhook_url")
		}
		for _, bad := range []any{"-1", "1.234", "abc", 12.5, "10000000000.00"} {
			e.must422(patch(map[string]any{"low_balance_alert": bad}), "low_balance_alert")
		}
		e.must422(patch(map[string]any{"email": "new@example.com"}), "email") // not changeable here
		e.must422(patch(map[string]any{"password": "new-password-1"}), "current_password")
		e.must422(patch(map[string]any{"current_password": "user-password-1"}), "password")
		e.must422(patch(map[string]any{"password": "short", "current_password": "user-password-1"}), "password")
		r = e.must422(patch(map[string]any{"password": "new-password-1", "current_password": "wrong-password"}), "current_password")
		if r.str("error") != "current_password_incorrect" {
			t.Fatalf("wrong current %s", r.raw)
		}
		// Nothing of a refused patch was written.
		me := e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200)
		if me.str("name") != "Asha Rao" || me.str("phone") != "+919876500001" {
			t.Fatalf("after refusals %s", me.raw)
		}

		// A new password ends the other sessions and keeps this one.
		second := e.signIn(email, "user-password-1")
		e.must(patch(map[string]any{"password": "new-password-1", "current_password": "user-password-1"}), 200)
		e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200)
		e.must(e.do("GET", "/api/v1/panel/auth/me", second.access, nil), 401)
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": second.refresh}), 401)
		e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": email, "password": "user-password-1"}), 401)
		e.signIn(email, "new-password-1")
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", "", map[string]any{"name": "x"}), 401)
	})
}

func TestExpiredSessionIsRefusedAndRemoved(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		s := e.signIn(e.customerEmail(c), "user-password-1")
		e.skew.Store(int64(31 * 24 * time.Hour)) // past the 30-day refresh lifetime
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": s.refresh}), 401)
		e.skew.Store(0)
		// The session is gone, so its still-young access token is refused too.
		e.must(e.do("GET", "/api/v1/panel/auth/me", s.access, nil), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200)
	})
}

// TestAccountMailNeverLocksTheOwnerOut: seven reset requests for one email
// from another address (on another instance) spend only that address's
// limit; the owner, asking from elsewhere with any spelling of the email,
// gets the same 200 as an unknown email. The account got one mail, whose
// link still works: requests within signin.MailEvery send nothing and
// replace nothing, on every instance (the counter is in the database).
// After it, a request mails a new link. Verification mail follows the same
// rule.
func TestAccountMailNeverLocksTheOwnerOut(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		other, otherApp := e.instanceApp(false)
		forgot := func(base, ip, email string) resp {
			return e.at(base, ip, "POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email})
		}
		for i := range 7 {
			r := forgot(other, "127.0.0.3", email)
			if want := map[bool]int{true: 200, false: 429}[i < 5]; r.status != want {
				t.Fatalf("attacker's request %d: %d, want %d", i+1, r.status, want)
			}
		}
		owner := e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": " " + strings.ToUpper(email) + " "}), 200)
		again := e.must(forgot(other, "127.0.0.4", email), 200)
		unknown := e.must(forgot(other, "127.0.0.4", "nobody-here@example.com"), 200)
		if owner.raw != unknown.raw || again.raw != unknown.raw {
			t.Fatalf("answers differ: %s / %s / %s", owner.raw, again.raw, unknown.raw)
		}
		otherApp.Wait()
		if n := len(e.sentAbout(email, "Reset your password")); n != 1 {
			t.Fatalf("%d reset mails within %s, want 1", n, signin.MailEvery)
		}
		link := e.link(email, resetPrefix)
		e.must(e.do("POST", "/api/v1/panel/auth/reset-password", "", map[string]any{
			"email": email, "token": link.Query().Get("token"), "password": "new-password-1"}), 200)

		e.skew.Add(int64(signin.MailEvery))
		e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": email}), 200)
		if msgs := e.sentAbout(email, "Reset your password"); len(msgs) != 2 || e.link(email, resetPrefix).Query().Get("token") == link.Query().Get("token") {
			t.Fatalf("after %s: %d mails, want a second with a new link", signin.MailEvery, len(msgs))
		}

		// Verification: requests of another session of the account, from
		// elsewhere, are never refused and send one mail; the owner is
		// answered alike, mail or not.
		e.skew.Store(0) // the other instance's clock
		d := e.newCustomer("user", "starter", "0.00")
		email = e.customerEmail(d)
		s := e.signIn(email, "user-password-1")
		for range 7 {
			e.must(e.at(other, "127.0.0.5", "POST", "/api/v1/panel/auth/resend-verification", s.access, nil), 200)
		}
		otherApp.Wait()
		verifications := func() int { return len(e.sentAbout(email, "Verify your email address")) }
		mine := e.must(e.do("POST", "/api/v1/panel/auth/resend-verification", d.token, nil), 200)
		if verifications() != 1 || mine.str("message") == "" {
			t.Fatalf("%d verification mails, want 1: %s", verifications(), mine.raw)
		}
		e.skew.Store(int64(signin.MailEvery))
		if r := e.must(e.do("POST", "/api/v1/panel/auth/resend-verification", d.token, nil), 200); r.raw != mine.raw || verifications() != 2 {
			t.Fatalf("after %s: %d verification mails, want 2; %s", signin.MailEvery, verifications(), r.raw)
		}
	})
}

// fullwidth writes s's ASCII letters, digits, @ and dot in their fullwidth
// forms (U+FF01..U+FF5E), which NFKC maps back.
func fullwidth(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r > ' ' && r < 0x7f {
			r += 0xFEE0
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestEmailsAreNormalisedWhereverTheyEnter: an email is stored and looked
// up in NFKC and lower case, so a look-alike with a fullwidth letter is the
// same address on both databases: registration and admin creation refuse
// it as taken, and sign-in and password reset find the account with it.
func TestEmailsAreNormalisedWhereverTheyEnter(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		n := seq.Add(1)
		in := registration(n)
		plain := in["email"].(string)
		e.must(e.do("POST", "/api/v1/panel/auth/register", "", in), 201)
		local, domain, _ := strings.Cut(plain, "@")
		for _, lookalike := range []string{
			local + "@example.coｍ",                // one fullwidth m
			fullwidth(strings.ToUpper(plain)),     // all of it, upper case
			" " + local + "＠" + domain + "\u3000", // fullwidth @, ideographic space
		} {
			again := registration(seq.Add(1))
			again["email"] = lookalike
			if r := e.must422(e.do("POST", "/api/v1/panel/auth/register", "", again), "email"); fieldErr(r, "email") != "has already been taken" {
				t.Fatalf("register %q beside %q: %s", lookalike, plain, r.raw)
			}
			r := e.do("POST", "/api/v1/panel/users", e.admin, map[string]any{"name": "U", "email": lookalike,
				"phone": fmt.Sprintf("96%08d", seq.Add(1)), "password": "user-password-1", "role": "user", "status": "active"})
			if r.status != 409 || r.str("error") != "email_taken" {
				t.Fatalf("admin creates %q beside %q: %s", lookalike, plain, r.raw)
			}
		}
		// Admin creation stores the normal form; sign-in and reset find it
		// by any spelling.
		wide := fullwidth(fmt.Sprintf("Wide%d@Example.com", n))
		u := e.must(e.do("POST", "/api/v1/panel/users", e.admin, map[string]any{"name": "W", "email": wide,
			"phone": fmt.Sprintf("96%08d", seq.Add(1)), "password": "user-password-1", "role": "user", "status": "active"}), 201)
		stored := fmt.Sprintf("wide%d@example.com", n)
		if u.str("email") != stored {
			t.Fatalf("stored %q, want %q", u.str("email"), stored)
		}
		for _, spelling := range []string{stored, wide, strings.ToUpper(stored)} {
			s := e.signIn(spelling, "user-password-1")
			if me := e.must(e.do("GET", "/api/v1/panel/auth/me", s.access, nil), 200); me.num("id") != u.num("id") {
				t.Fatalf("sign-in as %q: %s", spelling, me.raw)
			}
		}
		e.must(e.do("POST", "/api/v1/panel/auth/forgot-password", "", map[string]any{"email": wide}), 200)
		link := e.link(stored, resetPrefix)
		e.must(e.do("POST", "/api/v1/panel/auth/reset-password", "", map[string]any{
			"email": wide, "token": link.Query().Get("token"), "password": "new-password-1"}), 200)
		e.signIn(stored, "new-password-1")
		var count int64
		e.store.DB().Raw("SELECT COUNT(*) FROM users WHERE email LIKE ?", "%"+local+"%").Scan(&count)
		if count != 1 {
			t.Fatalf("%d accounts for %s", count, plain)
		}
	})
}
