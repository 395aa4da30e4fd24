package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"paygate/adapters/httpapi"
	"paygate/adapters/sandbox"
	"paygate/adapters/token"
	"paygate/adapters/upstream"
	"paygate/core/app"
)

// pageServer serves e's app with the panel's files, as the binary does; with
// an https PUBLIC_BASE_URL when https is set.
func pageServer(t *testing.T, e *env, https bool) string {
	t.Helper()
	a := e.app
	if https {
		tokens, err := token.NewJWT([]byte(strings.Repeat("s", 32)))
		if err != nil {
			t.Fatal(err)
		}
		a = app.New(app.Deps{Tx: e.store, Stores: e.store.Stores(), Names: e.store.Names(), Exports: e.store.Exports(), Tokens: tokens, EmailTokens: tokens,
			Upstream: upstream.New(upstream.Options{AllowPrivate: true, DefaultTimeout: 2 * time.Second}),
			Config:   app.Config{PublicBaseURL: "https://pay.example.com", PasswordCost: 4},
			Verifier: sandbox.Verifier{}, Recharger: sandbox.Recharger{}, Payments: sandbox.Payments{}})
		t.Cleanup(a.Wait)
	}
	assets := fstest.MapFS{
		"index.html":          {Data: []byte(`<!doctype html><html><head><script type="module" src="/assets/index-a1.js"></script></head><body><div id="root"></div></body></html>`)},
		"assets/index-a1.js":  {Data: []byte("console.log(1)")},
		"assets/index-a1.css": {Data: []byte("body{}")},
	}
	srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: a, Log: slog.New(slog.DiscardHandler), Ready: e.store.Ping, Assets: assets}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func get(t *testing.T, url, bearer string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// directives splits a Content-Security-Policy into its directives.
func directives(csp string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

var nonceAttr = regexp.MustCompile(`<script nonce="([^"]+)">`)

// TestEveryHTMLPageSendsTheSecurityHeaders: the panel (its index and a
// client route), the hosted checkout page (found, not found) and the API
// docs each send a CSP that allows no inline script and no framing,
// nosniff and a Referrer-Policy; the checkout's one inline script runs by a
// nonce that is new on every answer. HSTS comes only with an https
// PUBLIC_BASE_URL.
func TestEveryHTMLPageSendsTheSecurityHeaders(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.must(e.gw(c, "POST", "/api/v1/payment/create",
			map[string]any{"amount": "10", "currency": "INR", "customer_id": "c1", "callback_url": "https://shop.example/cb"}), 201).str("payment_id")

		for _, https := range []bool{false, true} {
			base := pageServer(t, e, https)
			nonces := map[string]bool{}
			for _, path := range []string{"/", "/api-keys", "/" + id, "/" + id, "/pay_01JUNKNOWNPAYMENT0000000000", "/api/docs"} {
				res, body := get(t, base+path, "")
				h := res.Header
				if !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
					t.Fatalf("%s: %d %s", path, res.StatusCode, h.Get("Content-Type"))
				}
				csp := directives(h.Get("Content-Security-Policy"))
				script := csp["script-src"]
				if script == "" {
					script = csp["default-src"]
				}
				if csp["frame-ancestors"] != "'none'" || script == "" || strings.Contains(script, "unsafe-inline") ||
					strings.Contains(script, "unsafe-eval") || csp["base-uri"] != "'none'" {
					t.Fatalf("%s: CSP %q", path, h.Get("Content-Security-Policy"))
				}
				if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
					t.Fatalf("%s: nosniff %q, Referrer-Policy %q", path, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
				}
				if hsts := h.Get("Strict-Transport-Security"); (hsts != "") != https || https && !strings.HasPrefix(hsts, "max-age=31536000") {
					t.Fatalf("%s with https=%v: Strict-Transport-Security %q", path, https, hsts)
				}
				// Every inline script carries the answer's nonce.
				inline := strings.Count(body, "<script>") + len(nonceAttr.FindAllString(body, -1))
				m := nonceAttr.FindStringSubmatch(body)
				switch {
				case path == "/"+id:
					if inline != 1 || m == nil || !strings.Contains(script, "'nonce-"+m[1]+"'") || nonces[m[1]] {
						t.Fatalf("checkout: script-src %q, nonce %v (seen: %v)\n%s", script, m, nonces, body)
					}
					nonces[m[1]] = true
					if csp["img-src"] != "data:" || csp["connect-src"] != "'self'" || csp["form-action"] != "'self'" {
						t.Fatalf("checkout CSP %q", h.Get("Content-Security-Policy"))
					}
				case inline != 0:
					t.Fatalf("%s has an inline script:\n%s", path, body)
				case path == "/" || path == "/api-keys":
					if script != "'self'" || csp["connect-src"] != "'self'" {
						t.Fatalf("panel CSP %q", h.Get("Content-Security-Policy"))
					}
				}
			}
			// The API's answers carry nosniff (and HSTS) too, errors included.
			res, _ := get(t, base+"/api/v1/panel/nothing-here", "")
			if res.StatusCode != 404 || res.Header.Get("X-Content-Type-Options") != "nosniff" ||
				(res.Header.Get("Strict-Transport-Security") != "") != https {
				t.Fatalf("API 404: %d %v", res.StatusCode, res.Header)
			}
		}
	})
}

// TestAuthenticatedJSONIsNotStored: every answer under /api/v1 carries
// Cache-Control: no-store: the panel's (a JWT's, and login's, which hands
// out tokens), the gateway's and the metered calls' (credentials), errors
// included.
func TestAuthenticatedJSONIsNotStored(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "5.00")
		e.newService("nostore", "0.5000")
		cases := []struct {
			name string
			r    resp
		}{
			{"login", e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": adminEmail, "password": adminPassword})},
			{"me", e.do("GET", "/api/v1/panel/auth/me", c.token, nil)},
			{"keys", e.do("GET", "/api/v1/panel/api-keys", c.token, nil)},
			{"admin users", e.do("GET", "/api/v1/panel/users", e.admin, nil)},
			{"dashboard", e.do("GET", "/api/v1/panel/dashboard", c.token, nil)},
			{"unauthenticated", e.do("GET", "/api/v1/panel/auth/me", "", nil)},
			{"gateway", e.gw(c, "GET", "/api/v1/transaction/list", nil)},
			{"metered call", e.call(c, "nostore", map[string]any{})},
			{"csv export", e.do("GET", "/api/v1/panel/transactions?format=csv", c.token, nil)},
		}
		for _, tc := range cases {
			if tc.r.status >= 500 || !strings.Contains(tc.r.header.Get("Cache-Control"), "no-store") {
				t.Errorf("%s: %d, Cache-Control %q", tc.name, tc.r.status, tc.r.header.Get("Cache-Control"))
			}
		}
	})
}
