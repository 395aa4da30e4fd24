package faulttest

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/metering/hitlog"
	"paygate/internal/testdb"
)

// TestStalledExportsDoNotStallOthers runs the real binary on SQLite (a pool
// of 8 connections) with 16,000 hits (~9 MB of CSV) and opens 10 exports
// whose clients never read, two for each of five admins. Meanwhile another
// user's /auth/me, their hit log and /readyz answer promptly, a third
// export of an admin with two running is 429 with Retry-After, and the
// stalled exports end after the stall timeout (EXPORT_STALL_TIMEOUT=3s),
// freeing their slots, so the next export runs to its end.
func TestStalledExportsDoNotStallOthers(t *testing.T) {
	const stall, hits, stalled = 3 * time.Second, 16_000, 10
	dbURL := testdb.SQLiteURL(t)
	s := openStore(t, dbURL)
	ctx := context.Background()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	payload := `{"q":"` + strings.Repeat("z", 300) + `"}`
	batch := make([]*hitlog.Hit, 0, 500)
	at := time.Now().Add(-time.Hour).UTC()
	for i := range hits {
		resp := payload
		batch = append(batch, &hitlog.Hit{UserID: 1, ServiceID: 1, APIKeyID: 1, RequestID: fmt.Sprintf("req_%026d", i),
			RequestPayload: payload, ResponsePayload: &resp, ChargeAmount: decimal.RequireFromString("0.5000"),
			Status: hitlog.StatusSuccess, IPAddress: "203.0.113.7", CreatedAt: at.Add(time.Duration(i) * time.Millisecond), UpdatedAt: at})
		if len(batch) == cap(batch) {
			if err := s.Stores().Hits.InsertMany(ctx, batch); err != nil {
				t.Fatal(err)
			}
			batch = batch[:0]
		}
	}

	p := startServer(t, append(baseEnv(t, dbURL), fmt.Sprintf("EXPORT_STALL_TIMEOUT=%s", stall)))
	root := login(t, p.base, adminEmail, adminPassword)
	admins := []*api{root}
	for i := range 4 {
		email := fmt.Sprintf("admin%d@example.com", i)
		root.do("POST", "/api/v1/panel/users", map[string]any{"name": "Admin", "email": email, "phone": fmt.Sprintf("97%08d", i),
			"password": "admin-password-1", "role": "admin", "status": "active"}, 201)
		admins = append(admins, login(t, p.base, email, "admin-password-1"))
	}
	root.do("POST", "/api/v1/panel/users", map[string]any{"name": "Other", "email": "other@example.com", "phone": "9600000001",
		"password": "other-password-1", "role": "user", "status": "active"}, 201)
	other := login(t, p.base, "other@example.com", "other-password-1")

	leases := func() int64 {
		var n int64
		if err := s.DB().Raw("SELECT COUNT(*) FROM export_leases").Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	start := time.Now()
	for i := range stalled {
		stalledExport(t, p.base, "/api/v1/panel/hit-logs?format=csv", admins[i/2].token)
	}
	if !waitFor(10*time.Second, func() bool { return leases() == stalled }) {
		t.Fatalf("%d exports running, want %d\n%s", leases(), stalled, p.logs())
	}

	// While they stall: others are answered at once, the database included.
	var slowest time.Duration
	for range 10 {
		for _, path := range []string{"/api/v1/panel/auth/me", "/api/v1/panel/hit-logs", "/readyz"} {
			t0 := time.Now()
			other.do("GET", path, nil, 200)
			slowest = max(slowest, time.Since(t0))
		}
	}
	if slowest > time.Second {
		t.Fatalf("the slowest answer beside %d stalled exports took %s", stalled, slowest)
	}
	t.Logf("slowest of 30 answers beside %d stalled exports: %s", stalled, slowest)
	if time.Since(start) < stall && leases() != stalled {
		t.Fatalf("exports ended before the stall timeout: %d left", leases())
	}
	req, _ := http.NewRequest("GET", p.base+"/api/v1/panel/transactions?format=csv", nil)
	req.Header.Set("Authorization", "Bearer "+root.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), `"too_many_exports"`) {
		t.Fatalf("a third export: %d %v %s", res.StatusCode, res.Header, body)
	}

	// The stalled exports end after the stall timeout, and free their slots.
	if !waitFor(stall+15*time.Second, func() bool { return leases() == 0 }) {
		t.Fatalf("%d stalled exports still run %s after they started\n%s", leases(), time.Since(start), p.logs())
	}
	if took := time.Since(start); took < stall {
		t.Fatalf("the stalled exports ended after %s, before the stall timeout", took)
	}
	if n := strings.Count(p.logs(), "its client read nothing for the stall timeout"); n != stalled {
		t.Fatalf("%d exports logged as stalled, want %d\n%s", n, stalled, p.logs())
	}
	req, _ = http.NewRequest("GET", p.base+"/api/v1/panel/hit-logs?format=csv", nil)
	req.Header.Set("Authorization", "Bearer "+root.token)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	rows, err := csv.NewReader(res.Body).ReadAll()
	if res.StatusCode != 200 || err != nil || len(rows) != 1+hits {
		t.Fatalf("an export after the stalled ones: %d, %d rows, %v", res.StatusCode, len(rows), err)
	}
}

// stalledExport sends an export request on a connection whose client never
// reads: with a small receive buffer, the server's writes block once the
// kernel's buffers are full.
func stalledExport(t *testing.T, base, path, token string) {
	t.Helper()
	u, _ := url.Parse(base)
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		if err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) }); err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", path, u.Host, token)
}
