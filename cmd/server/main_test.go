package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/core/gateway"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestServeFirstStartDemoDataAndShutdown starts the real server on a fresh
// SQLite file: the initial admin's generated password is logged once, the
// demo services answer from the sandbox, and cancelling the context (what
// SIGTERM does) shuts it down cleanly.
func TestServeFirstStartDemoDataAndShutdown(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "app.db")
	addr := freeAddr(t)
	uploads := filepath.Join(t.TempDir(), "uploads")
	env := map[string]string{"DATABASE_URL": db, "HTTP_ADDR": addr, "DEMO_DATA": "true", "ADMIN_EMAIL": "root@example.com",
		"STORAGE_DIR": uploads, "BALANCE_REQUEST_MAX": "1000.00", "METRICS_TOKEN": "metrics-token-0123456789"}
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, out) }()

	base := "http://" + addr
	waitReady(t, base, done)
	var password string
	for _, line := range strings.Split(out.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "initial admin created" {
			password, _ = m["password"].(string)
		}
	}
	if len(password) < 16 {
		t.Fatalf("no generated admin password in the log:\n%s", out.String())
	}
	login := post(t, base+"/api/v1/panel/auth/login", "", map[string]any{"email": "root@example.com", "password": password})
	tok := login["access_token"].(string)
	svc := get(t, base+"/api/v1/panel/services", tok)
	if svc["meta"].(map[string]any)["total"].(float64) != float64(4+len(gateway.Services())) { // the demo services and the built-in gateway ones
		t.Fatalf("demo services: %v", svc)
	}
	// The admin funds themself and calls a demo service end to end.
	me := get(t, base+"/api/v1/panel/auth/me", tok)
	id := int(me["id"].(float64))
	post(t, base+"/api/v1/panel/users/"+itoa(id)+"/balance-adjustments", tok, map[string]any{"type": "credit", "amount": "10.00", "description": "demo"})
	key := post(t, base+"/api/v1/panel/api-keys", tok, map[string]any{"name": "demo"})
	req, _ := http.NewRequest("POST", base+"/api/v1/sms-gateway-api", strings.NewReader(`{"phone":"9876543210","message":"hello","template_id":"T1"}`))
	req.Header.Set("X-API-Key", key["key"].(string))
	req.Header.Set("X-API-Secret", key["secret"].(string))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var env2 map[string]any
	_ = json.NewDecoder(res.Body).Decode(&env2)
	res.Body.Close()
	if res.StatusCode != 200 || env2["success"] != true {
		t.Fatalf("demo call %d %v", res.StatusCode, env2)
	}
	// METRICS_TOKEN opens /metrics: the call is there, and the database pool.
	metrics := getText(t, base+"/metrics", "metrics-token-0123456789")
	for _, want := range []string{`paygate_upstream_duration_seconds_count{outcome="ok",service="sms-gateway-api"} 1`,
		`paygate_http_requests_total{method="POST",route="/api/v1/:slug",status="200"} 1`, "paygate_db_connections_open "} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("no %q in /metrics:\n%s", want, metrics)
		}
	}
	// A balance request's screenshot lands in STORAGE_DIR; BALANCE_REQUEST_MAX applies.
	if code := upload(t, base, tok, "1000.01", "412345678901"); code != 422 {
		t.Fatalf("a request over BALANCE_REQUEST_MAX answered %d", code)
	}
	if code := upload(t, base, tok, "1000.00", "412345678901"); code != 201 {
		t.Fatalf("balance request answered %d", code)
	}
	if files, _ := filepath.Glob(filepath.Join(uploads, "*.pdf")); len(files) != 1 {
		t.Fatalf("STORAGE_DIR holds %v, want one PDF", files)
	}
	// The panel (or, before npm ran, the page saying to build it) is served
	// at / and a browser's client routes fall back to it, with TIMEZONE.
	for _, p := range []string{"/", "/dashboard"} {
		req, _ := http.NewRequest("GET", base+p, nil)
		req.Header.Set("Accept", "text/html,*/*;q=0.8")
		r, err := http.DefaultClient.Do(req)
		if err != nil || r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s: %v %v", p, err, r)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if !strings.Contains(string(b), `<meta name="paygate-timezone" content="Asia/Kolkata">`) {
			t.Errorf("GET %s: no time zone in the page", p)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop")
	}
	if strings.Contains(out.String(), key["secret"].(string)) {
		t.Fatal("key secret in the log")
	}

	// Second start: no new admin, no duplicate demo data; ledger check clean.
	out2 := &syncBuffer{}
	if err := run(context.Background(), []string{"ledger", "check"}, func(k string) string { return env[k] }, out2); err != nil {
		t.Fatalf("ledger check: %v\n%s", err, out2.String())
	}
	if !strings.Contains(out2.String(), "0 discrepancies") {
		t.Fatalf("ledger check output: %s", out2.String())
	}
}

func TestMigrateAndBadConfig(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "m.db")
	out := &syncBuffer{}
	if err := run(context.Background(), []string{"migrate"}, func(k string) string {
		return map[string]string{"DATABASE_URL": db}[k]
	}, out); err != nil {
		t.Fatal(err)
	}
	for _, env := range []map[string]string{
		{"DATABASE_URL": db, "TIMEZONE": "Mars/Olympus"},
		{"DATABASE_URL": db, "DEMO_DATA": "maybe"},
		{"DATABASE_URL": db, "JWT_SECRET": "short"},
		{"DATABASE_URL": db, "METRICS_TOKEN": "short"},
		{"DATABASE_URL": db, "PPROF_ADDR": "0.0.0.0:6060"}, // profiles only on loopback
		{"DATABASE_URL": db, "PPROF_ADDR": "127.0.0.1"},
		{"DATABASE_URL": db, "BALANCE_REQUEST_MAX": "0"},
		{"DATABASE_URL": db, "BALANCE_REQUEST_MAX": "-5"},
		{"DATABASE_URL": db, "BALANCE_REQUEST_MAX": "1e6"},
		{"DATABASE_URL": db, "BALANCE_REQUEST_MAX": "10.001"},
		{"DATABASE_URL": db, "BALANCE_REQUEST_MAX": "10000000000.00"},
		{"DATABASE_URL": db, "COLLECTION_FEE_PERCENT": "100.01"},
		{"DATABASE_URL": db, "COLLECTION_FEE_PERCENT": "-1"},
		{"DATABASE_URL": db, "COLLECTION_FEE_PERCENT": "2%"},
		{"DATABASE_URL": db, "GST_RATE": "18%"},
		{"DATABASE_URL": db, "GST_RATE": "100.5"},
		{"DATABASE_URL": db, "GST_RATE": "-1"},
		{"DATABASE_URL": db, "DEFAULT_PLAN": "Gold Plan"},
		{"DATABASE_URL": db, "HIT_RECOVERY_AFTER": "10s"}, // not longer than UPSTREAM_TIMEOUT (15s)
		{"DATABASE_URL": db, "UPSTREAM_TIMEOUT": "2s", "HIT_RECOVERY_AFTER": "soon"},
		{"DATABASE_URL": db, "METERING_HOLDS": "0s"},
		{"DATABASE_URL": db, "METERING_HOLDS": "11s"},
		{"DATABASE_URL": db, "METERING_HOLDS": "no"},
		{"DATABASE_URL": "postgres://x"},
		{"DATABASE_URL": "mysql://root@127.0.0.1:1/none"},
	} {
		if err := run(context.Background(), []string{"migrate"}, func(k string) string { return env[k] }, out); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
	if err := run(context.Background(), []string{"frobnicate"}, func(k string) string {
		return map[string]string{"DATABASE_URL": db}[k]
	}, out); err == nil {
		t.Error("unknown command accepted")
	}
}

// getText is a GET with a bearer token that must answer 200; it returns the body.
func getText(t *testing.T, url, bearer string) string {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+bearer)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, b)
	}
	return string(b)
}

func waitReady(t *testing.T, base string, done chan error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("server exited: %v", err)
		default:
		}
		if r, err := http.Get(base + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal(errors.New("server not ready"))
}

func post(t *testing.T, url, tok string, body any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	return doJSON(t, req)
}

func get(t *testing.T, url, tok string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	return doJSON(t, req)
}

func doJSON(t *testing.T, req *http.Request) map[string]any {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(res.Body).Decode(&m)
	if res.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %v", req.Method, req.URL.Path, res.StatusCode, m)
	}
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }

// upload files a balance request with a small PDF and returns the status.
func upload(t *testing.T, base, tok, amount, utr string) int {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("amount", amount)
	_ = w.WriteField("utr_number", utr)
	fw, _ := w.CreateFormFile("screenshot", "receipt.pdf")
	_, _ = fw.Write([]byte("%PDF-1.4\n%%EOF\n"))
	_ = w.Close()
	req, _ := http.NewRequest("POST", base+"/api/v1/panel/balance-requests", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestLedgerCheckFailsOnTamperedBalance: a balance changed behind the
// ledger's back makes `server ledger check` list it and exit 1.
func TestLedgerCheckFailsOnTamperedBalance(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "l.db")
	env := map[string]string{"DATABASE_URL": db, "HTTP_ADDR": freeAddr(t), "ADMIN_EMAIL": "root@example.com", "ADMIN_PASSWORD": "root-password-1",
		"STORAGE_DIR": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, getenv, &syncBuffer{}) }()
	base := "http://" + env["HTTP_ADDR"]
	waitReady(t, base, done)
	tok := post(t, base+"/api/v1/panel/auth/login", "", map[string]any{"email": "root@example.com", "password": "root-password-1"})["access_token"].(string)
	id := int(get(t, base+"/api/v1/panel/auth/me", tok)["id"].(float64))
	post(t, base+"/api/v1/panel/users/"+itoa(id)+"/balance-adjustments", tok, map[string]any{"type": "credit", "amount": "10.00", "description": "x"})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	store, err := sqlstore.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.DB().Exec("UPDATE users SET balance = ? WHERE id = ?", "12.00", id).Error; err != nil {
		t.Fatal(err)
	}
	store.Close()

	out := &syncBuffer{}
	err = run(context.Background(), []string{"ledger", "check"}, getenv, out)
	var code exitCode
	if !errors.As(err, &code) || code != 1 {
		t.Fatalf("ledger check returned %v, want exit 1\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "DISCREPANCY user "+itoa(id)+": balance 12.00, last balance_after 10.00") {
		t.Fatalf("output:\n%s", out.String())
	}
}

func TestCreateAdminCommand(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "a.db")
	getenv := func(k string) string { return map[string]string{"DATABASE_URL": db}[k] }
	out := &syncBuffer{}
	if err := run(context.Background(), []string{"create-admin", "ops@example.com"}, getenv, out); err != nil {
		t.Fatal(err)
	}
	_, pw, ok := strings.Cut(strings.TrimSpace(out.String()), "password (shown once): ")
	if !ok || len(pw) != 20 {
		t.Fatalf("output %q", out.String())
	}
	if err := run(context.Background(), []string{"create-admin", "ops@example.com"}, getenv, out); err == nil {
		t.Fatal("a second admin with the same email was created")
	}
	if err := run(context.Background(), []string{"create-admin", "ops2@example.com"}, getenv, out); err != nil {
		t.Fatalf("a second admin: %v", err)
	}
	if err := run(context.Background(), []string{"create-admin", "not-an-email"}, getenv, out); err == nil {
		t.Fatal("an invalid email was accepted")
	}
	// The new admin can log in on a running server.
	env := map[string]string{"DATABASE_URL": db, "HTTP_ADDR": freeAddr(t), "ADMIN_EMAIL": "first@example.com", "STORAGE_DIR": t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, &syncBuffer{}) }()
	base := "http://" + env["HTTP_ADDR"]
	waitReady(t, base, done)
	me := post(t, base+"/api/v1/panel/auth/login", "", map[string]any{"email": "ops@example.com", "password": pw})["user"].(map[string]any)
	if me["role"] != "admin" || me["status"] != "active" {
		t.Fatalf("%v", me)
	}
}
