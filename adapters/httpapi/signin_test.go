package httpapi_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"paygate/adapters/httpapi"
	"paygate/adapters/token"
	"paygate/core/app"
	"paygate/internal/testdb"
)

// instance starts another instance of the service on e's database: its own
// app (no memory shared with e's) and HTTP server. It believes
// X-Forwarded-For from loopback, so a test picks each request's client
// address. It returns the instance's base URL.
// With https, its PUBLIC_BASE_URL is https (the refresh cookie is Secure).
func (e *env) instance(https bool) string {
	e.t.Helper()
	base, _ := e.instanceApp(https)
	return base
}

// instanceApp is instance, with the instance's app (its Wait awaits the
// mail it sends after its answers).
func (e *env) instanceApp(https bool) (string, *app.App) {
	e.t.Helper()
	tokens, err := token.NewJWT([]byte(strings.Repeat("s", 32)))
	if err != nil {
		e.t.Fatal(err)
	}
	base := "http://localhost:8080"
	if https {
		base = "https://panel.example.com"
	}
	a := app.New(app.Deps{Tx: e.store, Stores: e.store.Stores(), Names: e.store.Names(), Exports: e.store.Exports(), Tokens: tokens, EmailTokens: tokens, Mailer: e.mail,
		Config: app.Config{PasswordCost: 4, PublicBaseURL: base}})
	e.t.Cleanup(a.Wait)
	srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: a, Log: slog.New(slog.DiscardHandler), Ready: e.store.Ping,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}))
	e.t.Cleanup(srv.Close)
	return srv.URL, a
}

// at sends one request to the instance at base (see instance), from the
// client address ip, through the contract-checking client.
func (e *env) at(base, ip, method, path, bearer string, body any, headers ...string) resp {
	e.t.Helper()
	own := e.url
	e.url = base
	defer func() { e.url = own }()
	return e.do(method, path, bearer, body, append(headers, "X-Forwarded-For", ip)...)
}

func loginBody(email, password string) map[string]any {
	return map[string]any{"email": email, "password": password}
}

// retryAfter checks a 429 sign-in backoff and returns its Retry-After.
func retryAfter(t *testing.T, r resp) int {
	t.Helper()
	if r.status != 429 || r.str("error") != "too_many_login_attempts" || r.body["success"] != false {
		t.Fatalf("want 429 too_many_login_attempts: %d %s", r.status, r.raw)
	}
	n, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || n < 1 || n > 900 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	return n
}

// TestLoginBudgetIsSharedByInstances: two instances on one database count
// one address's failures on one account together.
func TestLoginBudgetIsSharedByInstances(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		a, b := e.instance(false), e.instance(false)
		const ip = "198.51.100.7"
		for i, base := range []string{a, b, a, b, a} {
			e.must(e.at(base, ip, "POST", "/api/v1/panel/auth/login", "", loginBody(adminEmail, "wrong-password-"+strconv.Itoa(i))), 401)
		}
		// The sixth attempt waits on either instance, even with the right password.
		for _, base := range []string{a, b} {
			if n := retryAfter(t, e.at(base, ip, "POST", "/api/v1/panel/auth/login", "", loginBody(adminEmail, adminPassword))); n > 60 {
				t.Fatalf("first backoff %d s, want at most 60", n)
			}
		}
		// Unknown emails are limited the same way, on the same message.
		for i, base := range []string{b, a, b, a, b} {
			r := e.must(e.at(base, ip, "POST", "/api/v1/panel/auth/login", "", loginBody("ghost@example.com", "x-password")), 401)
			if i == 0 && r.str("message") != "Invalid email or password" {
				t.Fatalf("unknown email: %s", r.raw)
			}
		}
		retryAfter(t, e.at(a, ip, "POST", "/api/v1/panel/auth/login", "", loginBody(" GHOST@example.com", "x-password")))
	})
}

// TestWrongPasswordsFromOneAddressDoNotLockOutTheOwner: an attacker's
// failures slow the attacker's address only.
func TestWrongPasswordsFromOneAddressDoNotLockOutTheOwner(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		srv := e.instance(false)
		const attacker, owner = "198.51.100.66", "203.0.113.9"
		c := e.newCustomer("user", "starter", "0.00")
		codes := map[int]int{}
		for i := 0; i < 8; i++ {
			codes[e.at(srv, attacker, "POST", "/api/v1/panel/auth/login", "", loginBody(c.email, "guess-"+strconv.Itoa(i))).status]++
		}
		if codes[401] != 5 || codes[429] != 3 {
			t.Fatalf("attacker's statuses %v, want 5×401 then 429", codes)
		}
		// The owner, from another address, signs in at once; a typo first
		// changes nothing.
		e.must(e.at(srv, owner, "POST", "/api/v1/panel/auth/login", "", loginBody(c.email, "typo-password")), 401)
		r := e.must(e.at(srv, owner, "POST", "/api/v1/panel/auth/login", "", loginBody(c.email, "user-password-1")), 200)
		e.must(e.do("GET", "/api/v1/panel/auth/me", r.str("access_token"), nil), 200)
		// The attacker still waits, right password or not.
		retryAfter(t, e.at(srv, attacker, "POST", "/api/v1/panel/auth/login", "", loginBody(c.email, "user-password-1")))

		// The current password of PATCH me is guarded by the same counters:
		// the attacker's address waits there too, a third one gets 5 tries.
		tok := r.str("access_token")
		retryAfter(t, e.at(srv, attacker, "PATCH", "/api/v1/panel/auth/me", tok, map[string]any{"password": "new-password-1", "current_password": "x-password"}))
		const third = "192.0.2.50"
		for i := 0; i < 5; i++ {
			e.must(e.at(srv, third, "PATCH", "/api/v1/panel/auth/me", tok, map[string]any{"password": "new-password-1", "current_password": "nope-" + strconv.Itoa(i)}), 422)
		}
		retryAfter(t, e.at(srv, third, "PATCH", "/api/v1/panel/auth/me", tok, map[string]any{"password": "new-password-1", "current_password": "user-password-1"}))
	})
}

// TestLoginVariantEmailsShareOneBudget: on MariaDB the email column's
// collation matches case and accent variants to one account; they spend
// that account's budget, not a fresh one each.
func TestLoginVariantEmailsShareOneBudget(t *testing.T) {
	e := newEnv(t, testdb.OpenMySQL(t))
	srv := e.instance(false)
	const ip = "198.51.100.8"
	for _, v := range []string{"ADMIN@example.com", "Ádmin@example.com", "admín@example.com", "ÀDMÏN@EXAMPLE.COM", " admin@Example.com"} {
		e.must(e.at(srv, ip, "POST", "/api/v1/panel/auth/login", "", loginBody(v, "wrong-password")), 401)
	}
	retryAfter(t, e.at(srv, ip, "POST", "/api/v1/panel/auth/login", "", loginBody(adminEmail, adminPassword)))
	// A variant resolves to the account: it signs in from another address.
	e.must(e.at(srv, "203.0.113.10", "POST", "/api/v1/panel/auth/login", "", loginBody("Ádmin@example.com", adminPassword)), 200)
}

func cookieOf(r resp, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// TestRefreshCookie: login and refresh set the refresh token as an
// HttpOnly, SameSite=Strict cookie on the auth path; a refresh with the
// cookie leaves the token out of the body; logout clears it.
func TestRefreshCookie(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.must(e.do("POST", "/api/v1/panel/auth/login", "", loginBody(adminEmail, adminPassword)), 200)
		ck := cookieOf(r, "paygate_refresh")
		if ck == nil || ck.Value != r.str("refresh_token") || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode ||
			ck.Path != "/api/v1/panel/auth" || ck.Secure || ck.MaxAge != int(90*24*time.Hour/time.Second) {
			t.Fatalf("login cookie %+v (header %q)", ck, r.header.Values("Set-Cookie"))
		}
		// The page's hint that a session may be there: no secret, readable, on every path.
		if h := cookieOf(r, "paygate_session"); h == nil || h.Value != "1" || h.HttpOnly || h.Path != "/" || h.SameSite != http.SameSiteStrictMode {
			t.Fatalf("session hint cookie %+v", h)
		}
		// The SPA's refresh: no body, the cookie only.
		n := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", nil, "Cookie", "paygate_refresh="+ck.Value), 200)
		next := cookieOf(n, "paygate_refresh")
		if _, inBody := n.body["refresh_token"]; inBody || n.str("access_token") == "" || next == nil || next.Value == ck.Value || !next.HttpOnly {
			t.Fatalf("cookie refresh: %s, cookie %+v", n.raw, next)
		}
		e.must(e.do("GET", "/api/v1/panel/auth/me", n.str("access_token"), nil), 200)
		// An API client's refresh still gets the token in the body.
		j := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": next.Value}), 200)
		if j.str("refresh_token") == "" || cookieOf(j, "paygate_refresh").Value != j.str("refresh_token") {
			t.Fatalf("body refresh: %s", j.raw)
		}
		// Neither body nor cookie: 422.
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", nil), 422)
		// Logout with the cookie ends the session and clears the cookie.
		out := e.must(e.do("POST", "/api/v1/panel/auth/logout", j.str("access_token"), nil, "Cookie", "paygate_refresh="+j.str("refresh_token")), 204)
		if c := cookieOf(out, "paygate_refresh"); c == nil || c.MaxAge >= 0 || c.Value != "" || c.Path != "/api/v1/panel/auth" {
			t.Fatalf("logout cookie %+v", c)
		}
		if h := cookieOf(out, "paygate_session"); h == nil || h.MaxAge >= 0 {
			t.Fatalf("logout leaves the session hint: %+v", h)
		}
		e.must(e.do("GET", "/api/v1/panel/auth/me", j.str("access_token"), nil), 401)
		bad := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", nil, "Cookie", "paygate_refresh="+j.str("refresh_token")), 401)
		if c := cookieOf(bad, "paygate_refresh"); c == nil || c.MaxAge >= 0 {
			t.Fatalf("a refused cookie is not cleared: %+v", c)
		}

		// Under https (PUBLIC_BASE_URL) the cookie is Secure too.
		secure := e.instance(true)
		s := e.must(e.at(secure, "198.51.100.9", "POST", "/api/v1/panel/auth/login", "", loginBody(adminEmail, adminPassword)), 200)
		if c := cookieOf(s, "paygate_refresh"); c == nil || !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
			t.Fatalf("https cookie %+v", c)
		}
	})
}

// TestReusedRefreshTokenEndsTheSession: presenting a rotated refresh token
// answers 401 and revokes its session: the current refresh token and the
// access tokens stop working; other sessions live on.
func TestReusedRefreshTokenEndsTheSession(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		stolen := e.signIn(c.email, "user-password-1", "Victim/1.0")
		other := e.signIn(c.email, "user-password-1", "Laptop/1.0")
		// The thief refreshes first; the owner's copy is now a rotated token.
		thief := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": stolen.refresh}), 200)
		e.must(e.do("GET", "/api/v1/panel/auth/me", thief.str("access_token"), nil), 200)
		r := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", nil, "Cookie", "paygate_refresh="+stolen.refresh), 401)
		if r.str("error") != "invalid_refresh_token" {
			t.Fatalf("reuse: %s", r.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/auth/me", thief.str("access_token"), nil), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", stolen.access, nil), 401)
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": thief.str("refresh_token")}), 401)
		// The user's other session is untouched, and lists only itself.
		ss := e.must(e.do("GET", "/api/v1/panel/auth/sessions", other.access, nil), 200).body["data"].([]any)
		if len(ss) != 2 { // c.token's session (newCustomer) and the laptop
			t.Fatalf("sessions after reuse: %v", ss)
		}
		for _, s := range ss {
			if s.(map[string]any)["name"] == "Victim/1.0" {
				t.Fatal("the reused session is still listed")
			}
		}
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": other.refresh}), 200)
	})
}

// TestConcurrentGuessesOnTwoInstances: 30 wrong passwords at once, half on
// each instance, from one address: each attempt is counted before its
// password is checked, so exactly the 5 free ones are checked (401) and
// the rest wait (429), whatever the interleaving.
func TestConcurrentGuessesOnTwoInstances(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		bases := []string{e.instance(false), e.instance(false)}
		var n atomic.Int64
		codes := hammer(30, func() int {
			i := n.Add(1)
			body := strings.NewReader(`{"email":"` + adminEmail + `","password":"guess-` + strconv.FormatInt(i, 10) + `"}`)
			req, _ := http.NewRequest("POST", bases[i%2]+"/api/v1/panel/auth/login", body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Forwarded-For", "198.51.100.30")
			res, err := e.client.Do(req)
			if err != nil {
				t.Error(err)
				return 0
			}
			res.Body.Close()
			return res.StatusCode
		})
		if codes[401] != 5 || codes[429] != 25 {
			t.Fatalf("statuses %v, want 5×401 and 25×429", codes)
		}
	})
}

// TestLogoutWithoutARefreshToken ends the session of the access token.
func TestLogoutWithoutARefreshToken(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		a := e.signIn(adminEmail, adminPassword)
		b := e.signIn(adminEmail, adminPassword)
		out := e.must(e.do("POST", "/api/v1/panel/auth/logout", a.access, nil), 204)
		if c := cookieOf(out, "paygate_refresh"); c == nil || c.MaxAge >= 0 {
			t.Fatalf("cookie not cleared: %+v", c)
		}
		e.must(e.do("GET", "/api/v1/panel/auth/me", a.access, nil), 401)
		e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": a.refresh}), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", b.access, nil), 200)
	})
}

// TestLogoutAlwaysEndsTheCallersSession: whatever refresh token comes with
// a logout (unknown, another user's, none), the caller's own session ends,
// its access and refresh tokens with it; another user's session stays. A
// refresh token of another of the caller's sessions ends that one too.
func TestLogoutAlwaysEndsTheCallersSession(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		email := e.customerEmail(c)
		victim := e.signIn(adminEmail, adminPassword)
		for _, sent := range []map[string]any{
			{"refresh_token": "rt_unknown-token"},
			{"refresh_token": victim.refresh},
			nil,
		} {
			s := e.signIn(email, "user-password-1")
			e.must(e.do("POST", "/api/v1/panel/auth/logout", s.access, sent), 204)
			if r := e.do("GET", "/api/v1/panel/auth/me", s.access, nil); r.status != 401 {
				t.Fatalf("logout with %v: the caller's access token still works: %d", sent, r.status)
			}
			e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": s.refresh}), 401)
			e.must(e.do("GET", "/api/v1/panel/auth/me", victim.access, nil), 200)
		}
		// The cookie of another user is no better than an unknown token.
		s := e.signIn(email, "user-password-1")
		e.must(e.do("POST", "/api/v1/panel/auth/logout", s.access, nil, "Cookie", "paygate_refresh="+victim.refresh), 204)
		e.must(e.do("GET", "/api/v1/panel/auth/me", s.access, nil), 401)
		n := e.must(e.do("POST", "/api/v1/panel/auth/refresh", "", map[string]any{"refresh_token": victim.refresh}), 200)
		victim = signIn{n.str("access_token"), n.str("refresh_token")}

		// An API client signs out another session of its own as well.
		laptop, phone := e.signIn(email, "user-password-1"), e.signIn(email, "user-password-1")
		e.must(e.do("POST", "/api/v1/panel/auth/logout", laptop.access, map[string]any{"refresh_token": phone.refresh}), 204)
		e.must(e.do("GET", "/api/v1/panel/auth/me", laptop.access, nil), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", phone.access, nil), 401)
		e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200)
		e.must(e.do("GET", "/api/v1/panel/auth/me", victim.access, nil), 200)
	})
}
