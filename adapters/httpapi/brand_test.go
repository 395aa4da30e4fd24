package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
)

// fakeNet is the Internet of a test's brand domains (brand.Prober): TXT
// records as the test publishes them, and a request to a routed host
// reaches this env's server with that Host, as a domain pointed at the
// platform would.
type fakeNet struct {
	e      *env
	mu     sync.Mutex
	txt    map[string][]string
	routed map[string]bool
}

func newFakeNet(e *env) *fakeNet {
	return &fakeNet{e: e, txt: map[string][]string{}, routed: map[string]bool{}}
}

var _ brand.Prober = (*fakeNet)(nil)

func (n *fakeNet) TXT(_ context.Context, name string) ([]string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if r, ok := n.txt[name]; ok {
		return r, nil
	}
	return nil, errs.ErrNotFound
}

func (n *fakeNet) Get(ctx context.Context, raw string) (int, []byte, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return 0, nil, err
	}
	n.mu.Lock()
	routed := n.routed[u.Hostname()]
	n.mu.Unlock()
	if !routed {
		return 0, nil, fmt.Errorf("dial %s: connection refused", u.Host)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.e.url+u.RequestURI(), nil)
	if err != nil {
		return 0, nil, err
	}
	req.Host = u.Host
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<10))
	return res.StatusCode, body, err
}

// publish adds a TXT record value at _paygate-verify.<host>.
func (n *fakeNet) publish(host, value string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.txt[brand.TXTName(host)] = append(n.txt[brand.TXTName(host)], value)
}

// route points host at this env's server.
func (n *fakeNet) route(host string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.routed[host] = true
}

// prove publishes a claim's token and points its host here.
func (n *fakeNet) prove(host, token string) {
	n.publish(host, token)
	n.route(host)
}

// domainState is host's entry in a brand answer's domain_states.
func domainState(t *testing.T, b resp, host string) map[string]any {
	t.Helper()
	states, _ := b.body["domain_states"].([]any)
	for _, s := range states {
		if m, _ := s.(map[string]any); m["host"] == host {
			return m
		}
	}
	t.Fatalf("no state of %s in %s", host, b.raw)
	return nil
}

// onHost sends a request with the given Host header (a reseller's domain
// pointing at this server).
func (e *env) onHost(host, method, path, token string, body any) resp {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, e.url+path, rd)
	req.Host = host
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := resp{status: res.StatusCode, raw: string(raw), header: res.Header}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// putLogo uploads data as the multipart logo part.
func (e *env) putLogo(token, contentType string, data []byte) resp {
	e.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="logo"; filename="logo.png"`)
	h.Set("Content-Type", contentType)
	pw, _ := w.CreatePart(h)
	pw.Write(data)
	w.Close()
	return e.raw("PUT", "/api/v1/panel/brand/logo", token, w.FormDataContentType(), &body)
}

func smallPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 12, 6))
	for x := range 12 {
		img.Set(x, 3, color.RGBA{200, 40, 40, 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBrandEndToEnd: a reseller sets its brand and logo; its domain shows
// them before sign-in, registration there makes its pending customer, and
// that customer's mail carries the brand.
func TestBrandEndToEnd(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, e *env) {
		res := e.newCustomer("reseller", "starter", "0.00")
		other := e.newCustomer("reseller", "starter", "0.00")
		plain := e.newCustomer("user", "starter", "0.00")
		domain := fmt.Sprintf("brand%d.example", seq.Add(1))

		// Before a brand: empty, and the domain shows the platform.
		b := e.must(e.do("GET", "/api/v1/panel/brand", res.token, nil), 200)
		if b.str("brand_name") != "" || b.body["logo_url"] != nil {
			t.Fatalf("fresh brand %s", b.raw)
		}
		if p := e.must(e.onHost(domain, "GET", "/api/v1/brand", "", nil), 200); p.body["reseller"] != false || p.str("brand_name") != "Paygate" {
			t.Fatalf("unknown host's brand %s", p.raw)
		}

		// Validation and conflicts.
		bad := e.do("PUT", "/api/v1/panel/brand", res.token, map[string]any{"brand_name": strings.Repeat("x", 101),
			"support_email": "nope", "support_phone": "12", "domains": []string{"https://x.example/a"}})
		if bad.status != 422 || len(bad.body["errors"].(map[string]any)) != 4 {
			t.Fatalf("bad brand: %d %s", bad.status, bad.raw)
		}
		b = e.must(e.do("PUT", "/api/v1/panel/brand", res.token, map[string]any{"brand_name": "Acme Recharge",
			"support_email": "help@acme.example", "support_phone": "+919876543210", "domains": []string{strings.ToUpper(domain)}}), 200)
		if d, _ := b.body["domains"].([]any); len(d) != 1 || d[0] != domain {
			t.Fatalf("saved brand %s", b.raw)
		}
		// Proven (brand_test's fake DNS and routing), the domain is the reseller's;
		// another reseller can no longer claim it.
		e.net.prove(domain, domainState(t, b, domain)["txt_value"].(string))
		v := e.must(e.do("POST", "/api/v1/panel/brand/domains/"+domain+"/verify", res.token, nil), 200)
		if st := domainState(t, v, domain); st["state"] != "verified" || st["verified_at"] == nil {
			t.Fatalf("verified brand %s", v.raw)
		}
		taken := e.do("PUT", "/api/v1/panel/brand", other.token, map[string]any{"brand_name": "Other", "domains": []string{domain}})
		if taken.status != 409 || taken.str("error") != "domain_taken" {
			t.Fatalf("taken domain: %d %s", taken.status, taken.raw)
		}
		if r := e.do("GET", "/api/v1/panel/brand", plain.token, nil); r.status != 403 || r.str("error") != "reseller_only" {
			t.Fatalf("a user's brand: %d %s", r.status, r.raw)
		}

		// Logo: an SVG and a PNG with a script after IEND are refused; a PNG is stored re-encoded.
		if r := e.putLogo(res.token, "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)); r.status != 422 {
			t.Fatalf("svg logo: %d %s", r.status, r.raw)
		}
		if r := e.putLogo(res.token, "image/png", append(smallPNG(t), "<script>alert(1)</script>"...)); r.status != 422 {
			t.Fatalf("polyglot logo: %d %s", r.status, r.raw)
		}
		if r := e.putLogo(res.token, "image/png", make([]byte, 600<<10)); r.status != 413 && r.status != 422 {
			t.Fatalf("oversized logo: %d %s", r.status, r.raw)
		}
		up := e.must(e.putLogo(res.token, "text/html", smallPNG(t)), 200)
		if u := up.str("logo_url"); !strings.HasPrefix(u, "/api/v1/panel/brand/logo?v=") {
			t.Fatalf("logo_url %q", u)
		}

		// The domain (any case, with a port) shows the brand and serves the logo.
		p := e.must(e.onHost(strings.ToUpper(domain)+":8443", "GET", "/api/v1/brand", "", nil), 200)
		if p.body["reseller"] != true || p.str("brand_name") != "Acme Recharge" || p.str("support_email") != "help@acme.example" ||
			!strings.HasPrefix(p.str("logo_url"), "/api/v1/brand/logo?v=") {
			t.Fatalf("domain's brand %s", p.raw)
		}
		logo := e.onHost(domain, "GET", "/api/v1/brand/logo", "", nil)
		if logo.status != 200 || logo.header.Get("Content-Type") != "image/png" || logo.header.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(logo.header.Get("Cache-Control"), "max-age") {
			t.Fatalf("logo: %d %v", logo.status, logo.header)
		}
		if _, err := png.Decode(strings.NewReader(logo.raw)); err != nil {
			t.Fatalf("served logo does not decode: %v", err)
		}
		if r := e.onHost("localhost", "GET", "/api/v1/brand/logo", "", nil); r.status != 404 {
			t.Fatalf("platform host's logo: %d", r.status)
		}

		// Registration on the domain: a pending customer of the reseller, whose mail carries the brand.
		n := seq.Add(1)
		email := fmt.Sprintf("shopper%d@example.com", n)
		reg := e.must(e.onHost(domain, "POST", "/api/v1/panel/auth/register", "", map[string]any{"name": "Shopper",
			"email": email, "phone": fmt.Sprintf("96%08d", n), "password": "shopper-password-1"}), 201)
		if reg.str("status") != "pending" || reg.str("role") != "user" {
			t.Fatalf("registered %s", reg.raw)
		}
		u, err := e.store.Stores().Users.ByID(t.Context(), reg.num("id"))
		if err != nil || u.ParentID == nil || *u.ParentID != res.id {
			t.Fatalf("customer's parent: %+v, %v", u, err)
		}
		var mails []string
		deadline := time.Now().Add(5 * time.Second)
		for len(mails) == 0 && time.Now().Before(deadline) {
			for _, m := range e.sentTo(email) {
				mails = append(mails, m.FromName+" | "+m.Link)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(mails) != 1 || !strings.HasPrefix(mails[0], "Acme Recharge | ") || !strings.Contains(mails[0], "://"+domain+":8080/verify-email") {
			t.Fatalf("customer's mail %q", mails)
		}
		// On the platform's host the same form registers an ordinary account.
		n = seq.Add(1)
		reg = e.must(e.do("POST", "/api/v1/panel/auth/register", "", map[string]any{"name": "Walk-in",
			"email": fmt.Sprintf("walkin%d@example.com", n), "phone": fmt.Sprintf("96%08d", n), "password": "walkin-password-1"}), 201)
		if u, _ := e.store.Stores().Users.ByID(t.Context(), reg.num("id")); u.ParentID != nil {
			t.Fatalf("platform registration got a parent %d", *u.ParentID)
		}

		// Removing the logo: the domain has none.
		e.must(e.do("DELETE", "/api/v1/panel/brand/logo", res.token, nil), 204)
		if r := e.onHost(domain, "GET", "/api/v1/brand/logo", "", nil); r.status != 404 {
			t.Fatalf("removed logo: %d", r.status)
		}
	})
}
