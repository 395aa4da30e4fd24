package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"paygate/core/accounts/signin"
)

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
