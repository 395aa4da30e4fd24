package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestShutdownDrainsInFlightCalls: a metered call is waiting on a slow
// upstream when the server is told to stop. The call still completes and
// is settled (charged, hit log success) before the server exits, and the
// ledger check is clean afterwards.
func TestShutdownDrainsInFlightCalls(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		io.WriteString(w, `{"done":true}`)
	}))
	defer up.Close()

	db := "sqlite://" + filepath.Join(t.TempDir(), "app.db")
	addr := freeAddr(t)
	env := map[string]string{"DATABASE_URL": db, "HTTP_ADDR": addr, "ADMIN_EMAIL": "root@example.com",
		"ADMIN_PASSWORD": "root-password-1", "UPSTREAM_ALLOW_PRIVATE": "true", "STORAGE_DIR": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, getenv, &syncBuffer{}) }()
	base := "http://" + addr
	waitReady(t, base, done)

	tok := post(t, base+"/api/v1/panel/auth/login", "", map[string]any{"email": "root@example.com", "password": "root-password-1"})["access_token"].(string)
	svc := post(t, base+"/api/v1/panel/services", tok, map[string]any{"name": "Slow", "slug": "slow", "category": "t", "provider_url": up.URL, "method": "POST"})
	post(t, base+"/api/v1/panel/services/"+itoa(int(svc["id"].(float64)))+"/pricing", tok, map[string]any{"admin_cost": "1.0000"})
	me := get(t, base+"/api/v1/panel/auth/me", tok)
	post(t, base+"/api/v1/panel/users/"+itoa(int(me["id"].(float64)))+"/balance-adjustments", tok, map[string]any{"type": "credit", "amount": "5.00", "description": "x"})
	key := post(t, base+"/api/v1/panel/api-keys", tok, map[string]any{"name": "k"})

	type result struct {
		status int
		body   string
		err    error
	}
	res := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest("POST", base+"/api/v1/slow", strings.NewReader(`{}`))
		req.Header.Set("X-API-Key", key["key"].(string))
		req.Header.Set("X-API-Secret", key["secret"].(string))
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			res <- result{err: err}
			return
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		res <- result{status: r.StatusCode, body: string(b)}
	}()
	<-entered // the call is reserved and waiting on the upstream
	cancel()  // what SIGTERM does
	select {
	case err := <-done:
		t.Fatalf("server stopped with a call in flight: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	r := <-res
	if r.err != nil || r.status != 200 || !strings.Contains(r.body, `"charged":"1.0000"`) {
		t.Fatalf("in-flight call: %+v", r)
	}
	if err := <-done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	out := &syncBuffer{}
	if err := run(context.Background(), []string{"ledger", "check"}, getenv, out); err != nil {
		t.Fatalf("ledger check after shutdown: %v\n%s", err, out.String())
	}
}

// TestAccessLogIsOutAfterShutdown: the log is buffered, and a request
// answered just before SIGTERM still has its access line in the output
// once run has returned, whole, before the "stopped" line.
func TestAccessLogIsOutAfterShutdown(t *testing.T) {
	addr := freeAddr(t)
	env := map[string]string{"DATABASE_URL": "sqlite://" + filepath.Join(t.TempDir(), "app.db"), "HTTP_ADDR": addr,
		"ADMIN_PASSWORD": "root-password-1", "STORAGE_DIR": t.TempDir()}
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, out) }()
	base := "http://" + addr
	waitReady(t, base, done)

	res, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	id := res.Header.Get("X-Request-ID")
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}

	var access, stopped int
	for i, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d is not a whole JSON line: %q", i+1, line)
		}
		switch {
		case m["msg"] == "request" && m["request_id"] == id:
			if m["path"] != "/healthz" || m["status"] != float64(200) || m["ip"] != "127.0.0.1" {
				t.Fatalf("access line %v", m)
			}
			access = i + 1
		case m["msg"] == "stopped":
			stopped = i + 1
		}
	}
	if access == 0 || stopped < access {
		t.Fatalf("access line of %s at line %d, stopped at %d:\n%s", id, access, stopped, out.String())
	}
}
