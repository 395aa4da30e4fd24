package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi"
	"paygate/adapters/invoicepdf"
	"paygate/adapters/metrics"
	"paygate/adapters/sandbox"
	"paygate/adapters/sqlstore"
	"paygate/adapters/storage"
	"paygate/adapters/token"
	"paygate/adapters/upstream"
	webhookadapter "paygate/adapters/webhook"
	"paygate/core/app"
	"paygate/internal/testdb"
)

// env is one running service on loopback, on one database, with a fake
// upstream whose behaviour a test can change.
type env struct {
	t        *testing.T
	url      string
	app      *app.App
	store    *sqlstore.Store
	upstream *httptest.Server
	upHits   atomic.Int64
	handler  atomic.Value // func(w, r)
	admin    string       // admin access token
	logs     *lockedWriter
	client   *http.Client // checks every response against api/openapi.yaml
	mail     *mailbox     // mail the app sent (accounts_test.go)
	skew     atomic.Int64 // nanoseconds added to the app's clock
	uploads  string       // the file storage's folder
	metrics  *metrics.Registry
	strict   atomic.Bool // webhook URLs follow the SSRF rules (loopback refused); off by default
	net      *fakeNet    // brand domains' DNS and routing, as a test sets them (brand_test.go)
}

// envTargets is the webhook address policy of an env: AllowPrivate (the
// receivers run on loopback) unless the test made it strict.
type envTargets struct{ e *env }

func (p envTargets) CheckURL(raw string) error {
	return upstream.Policy{AllowPrivate: !p.e.strict.Load()}.CheckURL(raw)
}

const adminEmail, adminPassword = "admin@example.com", "admin-password-1"

const metricsToken = "metrics-token-for-tests" // GET /metrics (metrics_test.go)

// envOption changes the app's dependencies before newEnv builds the app
// (signedinvoices_test.go signs PDFs).
type envOption func(*app.Deps)

func newEnv(t *testing.T, store *sqlstore.Store, opts ...envOption) *env {
	t.Helper()
	e := &env{t: t, store: store, logs: &lockedWriter{w: &bytes.Buffer{}}, client: contractClient(t), mail: &mailbox{}}
	t.Cleanup(e.checkOutbox) // after the server and the app stopped, before the database closes (events_contract_test.go)
	e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"message_id":"m1","status":"queued"}`)
	})
	e.upstream = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.upHits.Add(1)
		e.handler.Load().(func(http.ResponseWriter, *http.Request))(w, r)
	}))
	t.Cleanup(e.upstream.Close)

	tokens, err := token.NewJWT([]byte(strings.Repeat("s", 32)))
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	up := upstream.New(upstream.Options{AllowPrivate: true, DefaultTimeout: 2 * time.Second})
	t.Cleanup(up.CloseIdleConnections) // pooled upstream connections are no goroutine leak
	e.uploads = t.TempDir()
	files, err := storage.NewLocal(e.uploads)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	e.metrics = metrics.New()
	e.metrics.AddDBStats(store.Stats)
	log := slog.New(slog.NewJSONHandler(e.logs, nil))
	e.net = newFakeNet(e)
	deps := app.Deps{Log: log, DomainProber: e.net,
		Tx: store, Stores: store.Stores(), Names: store.Names(), Exports: store.Exports(), Upstream: up, Tokens: tokens, Files: files, ResellerReports: store.ResellerReports(), Verifications: store.Verifications(), Beneficiaries: store.Beneficiaries(),
		Config: app.Config{Location: loc, UpstreamTimeout: 2 * time.Second, PasswordCost: 4, GSTRate: decimal.NewFromInt(18)},
		Mailer: e.mail, EmailTokens: tokens, Renderer: invoicepdf.New(),
		Now:      func() time.Time { return time.Now().Add(time.Duration(e.skew.Load())) },
		Verifier: sandbox.Verifier{}, Recharger: sandbox.Recharger{}, Payments: sandbox.Payments{},
		Payouts:  sandbox.Payouts{Now: func() time.Time { return time.Now().Add(time.Duration(e.skew.Load())) }},
		Opener:   sandbox.Opener{Now: func() time.Time { return time.Now().Add(time.Duration(e.skew.Load())) }},
		Metrics:  e.metrics,
		Webhooks: webhookadapter.New(true), Targets: envTargets{e},
	}
	for _, o := range opts {
		o(&deps)
	}
	e.app = app.New(deps)
	t.Cleanup(e.app.Wait) // mail in flight, before the database closes
	if _, _, err := e.app.Accounts.EnsureAdmin(context.Background(), adminEmail, adminPassword); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.EnsureGatewayServices(context.Background()); err != nil {
		t.Fatal(err)
	}
	// X-Forwarded-For from loopback is believed, so a helper that stands
	// for many people (confirmInvite) can give each its own address; a
	// request without it comes from loopback as before.
	srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: e.app, Log: log, Ready: store.Ping,
		Metrics: e.metrics, MetricsToken: metricsToken,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}}))
	t.Cleanup(srv.Close)
	e.url = srv.URL
	e.admin = e.login(adminEmail, adminPassword)
	return e
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

func (e *env) setUpstream(f func(http.ResponseWriter, *http.Request)) { e.handler.Store(f) }

// resp is a decoded JSON answer.
type resp struct {
	status int
	body   map[string]any
	raw    string
	header http.Header
}

func (r resp) str(k string) string { s, _ := r.body[k].(string); return s }
func (r resp) num(k string) uint64 {
	f, _ := r.body[k].(float64)
	return uint64(f)
}

// transport is shared by the envs' clients (see contractClient).
var transport = &http.Transport{MaxIdleConnsPerHost: 256}

// do sends one request through the contract-checking client: a response
// that api/openapi.yaml does not describe fails the test.
func (e *env) do(method, path, bearer string, body any, headers ...string) resp {
	e.t.Helper()
	return e.send(false, method, path, bearer, body, headers...)
}

// doUnknown sends a request to a path or method the API does not have; the
// answer must be 404 or 405 with the common error body.
func (e *env) doUnknown(method, path, bearer string, body any, headers ...string) resp {
	e.t.Helper()
	return e.send(true, method, path, bearer, body, headers...)
}

func (e *env) send(unknown bool, method, path, bearer string, body any, headers ...string) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, e.url+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if unknown {
		req = outsideContract(req)
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

func (e *env) must(r resp, status int) resp {
	e.t.Helper()
	if r.status != status {
		e.t.Fatalf("status %d, want %d: %s", r.status, status, r.raw)
	}
	return r
}

func (e *env) login(email, password string) string {
	e.t.Helper()
	r := e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": email, "password": password}), 200)
	return r.str("access_token")
}

var seq atomic.Int64

// customer makes an active user (of role, with balance) and a key; it
// returns the user's id, token, and the key and secret.
type customer struct {
	id          uint64
	email       string
	token       string
	key, secret string
	keyID       uint64
}

func (e *env) newCustomer(role, plan, balance string) customer {
	e.t.Helper()
	n := seq.Add(1)
	email := fmt.Sprintf("user%d@example.com", n)
	u := e.must(e.do("POST", "/api/v1/panel/users", e.admin, map[string]any{
		"name": "User", "email": email, "phone": fmt.Sprintf("98%08d", n), "password": "user-password-1",
		"role": role, "status": "active", "plan": plan,
	}), 201)
	c := customer{id: u.num("id"), email: email}
	if balance != "0.00" {
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
			map[string]any{"type": "credit", "amount": balance, "description": "top-up"}), 201)
	}
	c.token = e.login(email, "user-password-1")
	k := e.must(e.do("POST", "/api/v1/panel/api-keys", c.token, map[string]any{"name": "test key"}), 201)
	c.key, c.secret, c.keyID = k.str("key"), k.str("secret"), k.num("id")
	return c
}

// newService registers a POST service at the fake upstream with a default
// price; it returns the service id.
func (e *env) newService(slug, userPrice string) uint64 {
	e.t.Helper()
	s := e.must(e.do("POST", "/api/v1/panel/services", e.admin, map[string]any{
		"name": "Service " + slug, "slug": slug, "category": "test", "provider_url": e.upstream.URL + "/" + slug,
		"provider_key": "upstream-secret-value", "method": "POST", "headers": map[string]string{"X-Provider-Key": "{provider_key}"},
	}), 201)
	id := s.num("id")
	e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", id), e.admin, map[string]any{
		"admin_cost": "0.2000", "user_price": userPrice, "reseller_price": userPrice, "minimum_hit_charge": "0.00",
	}), 201)
	return id
}

func (e *env) call(c customer, slug string, body any) resp {
	return e.do("POST", "/api/v1/"+slug, "", body, "X-API-Key", c.key, "X-API-Secret", c.secret)
}

func (e *env) balance(c customer) string {
	e.t.Helper()
	return e.must(e.do("GET", "/api/v1/panel/auth/me", c.token, nil), 200).str("balance")
}

// ledgerClean runs the ledger check and fails the test on any discrepancy.
func (e *env) ledgerClean() {
	e.t.Helper()
	ds, err := e.app.Ledger.Check(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	for _, d := range ds {
		e.t.Error("ledger:", d)
	}
}

func each(t *testing.T, fn func(t *testing.T, e *env), opts ...envOption) {
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) { fn(t, newEnv(t, s, opts...)) })
}
