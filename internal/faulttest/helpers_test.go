package faulttest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
)

// The server binary, built once per test binary.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func serverBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "paygate-faulttest-"); buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "server")
		cmd := exec.Command("go", "build", "-o", binPath, "paygate/cmd/server")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

const adminEmail, adminPassword = "root@example.com", "root-password-1"

// baseEnv is the configuration every instance of one test shares: short
// upstream timeout and recovery grace so a crash is settled in seconds.
func baseEnv(t *testing.T, databaseURL string) []string {
	return []string{
		"DATABASE_URL=" + databaseURL, "ADMIN_EMAIL=" + adminEmail, "ADMIN_PASSWORD=" + adminPassword,
		"JWT_SECRET=" + strings.Repeat("j", 40), "UPSTREAM_ALLOW_PRIVATE=true", "STORAGE_DIR=" + t.TempDir(),
		"UPSTREAM_TIMEOUT=2s", "HIT_RECOVERY_AFTER=4s", "SHUTDOWN_TIMEOUT=20s", "DEMO_DATA=false",
	}
}

// proc is one server process.
type proc struct {
	cmd    *exec.Cmd
	base   string
	log    *bytes.Buffer
	logMu  *sync.Mutex
	exited chan struct{}
	err    error
}

type lockedBuffer struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (l lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (p *proc) logs() string {
	p.logMu.Lock()
	defer p.logMu.Unlock()
	return p.log.String()
}

// startServer runs the binary on a free port and waits for /readyz. The
// process is killed when the test ends, if still running.
func startServer(t *testing.T, env []string) *proc {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := &proc{log: &bytes.Buffer{}, logMu: &sync.Mutex{}, base: "http://" + addr, exited: make(chan struct{})}
	p.cmd = exec.Command(serverBinary(t))
	p.cmd.Env = append(os.Environ(), append(env, "HTTP_ADDR="+addr)...)
	w := lockedBuffer{mu: p.logMu, b: p.log}
	p.cmd.Stdout, p.cmd.Stderr = w, w
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() { p.kill() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		// The port was free when chosen, but another test's server may have
		// taken it since: only our server's readiness answer counts.
		if r, err := http.Get(p.base + "/readyz"); err == nil {
			body, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if r.StatusCode == 200 && strings.Contains(string(body), `"ready"`) && strings.Contains(p.logs(), `"serving"`) {
				return p
			}
		}
		select {
		case <-p.exited:
			if strings.Contains(p.logs(), "address already in use") {
				return startServer(t, env) // lost the port to another test: another one
			}
			t.Fatalf("server exited before it was ready: %v\n%s", p.err, p.logs())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not ready after 60 s\n%s", p.logs())
		}
	}
}

// kill sends SIGKILL: no drain, no settlement, as a crash.
func (p *proc) kill() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// ledgerClean runs `server ledger check` on the database and fails the
// test unless it reports zero discrepancies.
func ledgerClean(t *testing.T, env []string) {
	t.Helper()
	cmd := exec.Command(serverBinary(t), "ledger", "check")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "0 discrepancies") {
		t.Fatalf("ledger check: %v\n%s", err, out)
	}
}

// api is a panel client.
type api struct {
	t     *testing.T
	base  string
	token string
}

func (a *api) do(method, path string, in any, want int) map[string]any {
	a.t.Helper()
	b, _ := json.Marshal(in)
	req, _ := http.NewRequest(method, a.base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	if res.StatusCode != want {
		a.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, raw)
	}
	return m
}

func login(t *testing.T, base, email, password string) *api {
	a := &api{t: t, base: base}
	a.token = a.do("POST", "/api/v1/panel/auth/login", map[string]any{"email": email, "password": password}, 200)["access_token"].(string)
	return a
}

// key is an API key with its secret.
type key struct{ key, secret string }

// setupService registers a POST service at upstreamURL, sold at price to
// every role.
func setupService(admin *api, slug, upstreamURL, price string) {
	svc := admin.do("POST", "/api/v1/panel/services", map[string]any{"name": "Svc " + slug, "slug": slug, "category": "t",
		"provider_url": upstreamURL, "method": "POST"}, 201)
	admin.do("POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", int(svc["id"].(float64))), map[string]any{
		"admin_cost": "0.1000", "user_price": price, "reseller_price": price, "minimum_hit_charge": "0.00"}, 201)
}

var userSeq int

// newCustomer creates an active enterprise user with balance and a key
// with dailyLimit; it returns the user's id and key.
func newCustomer(admin *api, balance string, dailyLimit int) (uint64, key) {
	userSeq++
	email := fmt.Sprintf("c%d@example.com", userSeq)
	u := admin.do("POST", "/api/v1/panel/users", map[string]any{"name": "C", "email": email, "phone": fmt.Sprintf("97%08d", userSeq),
		"password": "customer-password-1", "role": "user", "status": "active", "plan": "enterprise"}, 201)
	id := uint64(u["id"].(float64))
	admin.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", id), map[string]any{
		"type": "credit", "amount": balance, "description": "funding"}, 201)
	c := login(admin.t, admin.base, email, "customer-password-1")
	k := c.do("POST", "/api/v1/panel/api-keys", map[string]any{"name": "k", "daily_limit": dailyLimit}, 201)
	return id, key{k["key"].(string), k["secret"].(string)}
}

// callResult is one metered call's answer (status 0: no answer at all).
type callResult struct {
	status    int
	code      string // the error body's "error"
	requestID string // a 200's request_id
	body      string
}

var callClient = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

func call(base string, k key, slug string) callResult {
	req, _ := http.NewRequest("POST", base+"/api/v1/"+slug, strings.NewReader(`{"q":"x"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-Key", k.key)
	req.Header.Set("X-API-Secret", k.secret)
	res, err := callClient.Do(req)
	if err != nil {
		return callResult{body: err.Error()}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m struct {
		Error     string `json:"error"`
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(raw, &m)
	return callResult{status: res.StatusCode, code: m.Error, requestID: m.RequestID, body: string(raw)}
}

// slowUpstream answers {"ok":true} after delay.
func slowUpstream(t *testing.T, delay time.Duration) string {
	t.Helper()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/echo"
}

// openStore opens the database for assertions the API does not show.
func openStore(t *testing.T, databaseURL string) *sqlstore.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := sqlstore.Open(ctx, databaseURL, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// countHits counts hit log rows by status.
func countHits(t *testing.T, s *sqlstore.Store) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for st, ids := range hitsByStatus(t, s) {
		if st == "interrupted" {
			st = "failed"
		}
		out[st] += int64(len(ids))
	}
	return out
}

// waitFor polls cond until it holds or timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return cond()
}

// countInterrupted counts the failed hits whose response says the call was
// interrupted (crash recovery's answer).
func countInterrupted(t *testing.T, s *sqlstore.Store) int64 {
	t.Helper()
	return int64(len(hitsByStatus(t, s)["interrupted"]))
}

// hitsByStatus is the request ids of the hit log rows, by status
// ("interrupted": failed hits crash recovery refunded).
func hitsByStatus(t *testing.T, s *sqlstore.Store) map[string]map[string]bool {
	t.Helper()
	var rows []struct {
		RequestID   string
		Status      string
		Interrupted bool
	}
	err := s.DB().Raw("SELECT h.request_id, h.status, COALESCE(p.response_payload LIKE '%interrupted%', FALSE) AS interrupted " +
		"FROM api_hit_logs h LEFT JOIN hit_payloads p ON p.hit_id = h.id").Scan(&rows).Error
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	for _, r := range rows {
		st := r.Status
		if st == "failed" && r.Interrupted {
			st = "interrupted"
		}
		if out[st] == nil {
			out[st] = map[string]bool{}
		}
		out[st][r.RequestID] = true
	}
	return out
}

// chargedExactly checks the hit log against the calls answered 200 (their
// request ids): every answered call is a successful hit, or one of the
// states allowed (a crash's: "interrupted", refunded by recovery; "none",
// no hit at all when a SIGKILL came before its capture was written); no
// call is successful that was not answered, but for at most unreceived
// calls whose answer the kill cut off. It returns how many answered calls
// were in each allowed state.
func chargedExactly(t *testing.T, hits map[string]map[string]bool, answered []string, unreceived int, allowed ...string) map[string]int {
	t.Helper()
	seen := map[string]bool{}
	states := map[string]int{}
	for _, id := range answered {
		seen[id] = true
		if hits["success"][id] {
			continue
		}
		state := "none"
		for st, ids := range hits {
			if ids[id] {
				state = st
			}
		}
		if !slices.Contains(allowed, state) {
			t.Fatalf("call %s answered 200 is not charged: its hit is %q", id, state)
		}
		states[state]++
	}
	extra := 0
	for id := range hits["success"] {
		if !seen[id] {
			extra++
		}
	}
	if extra > unreceived {
		t.Fatalf("%d successful hits whose call was never answered 200 (at most %d answers were cut off)", extra, unreceived)
	}
	return states
}
