package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi"
	"paygate/adapters/sqlstore"
	"paygate/adapters/token"
	"paygate/core/app"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/export"
	"paygate/internal/testdb"
)

// seedHits writes n successful hits of user: created_at jumps around and
// repeats (groups of ids share one), so the export order (created_at, then
// id, descending) is not the id order and crosses ties at page boundaries.
// It returns the ids in that order.
func seedHits(t *testing.T, s *sqlstore.Store, user uint64, n int, payload string) []uint64 {
	t.Helper()
	base := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	hits := make([]*hitlog.Hit, n)
	for i := range hits {
		resp := payload
		hits[i] = &hitlog.Hit{UserID: user, ServiceID: 1, APIKeyID: 1, RequestID: fmt.Sprintf("req_%010d%016d", user, i),
			RequestPayload: payload, ResponsePayload: &resp, ChargeAmount: decimal.RequireFromString("0.5000"),
			Status: hitlog.StatusSuccess, IPAddress: "203.0.113.7", ResponseTimeMs: i % 900,
			CreatedAt: base.Add(time.Duration((i*7919)%121) * time.Second)}
		hits[i].UpdatedAt = hits[i].CreatedAt
	}
	for from := 0; from < n; from += 500 {
		if err := s.Stores().Hits.InsertMany(context.Background(), hits[from:min(from+500, n)]); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(hits, func(a, b *hitlog.Hit) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return int(b.ID) - int(a.ID)
	})
	ids := make([]uint64, n)
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids
}

// csvIDs reads the first column of a CSV export's rows.
func csvIDs(t *testing.T, r resp, kind string) []uint64 {
	t.Helper()
	rows := readCSV(t, r, kind)
	ids := make([]uint64, 0, len(rows)-1)
	for _, row := range rows[1:] {
		id, err := strconv.ParseUint(row[0], 10, 64)
		if err != nil {
			t.Fatalf("row %v", row)
		}
		ids = append(ids, id)
	}
	return ids
}

// listIDs pages through a JSON history list, 100 rows a page.
func (e *env) listIDs(path, token string) []uint64 {
	e.t.Helper()
	var ids []uint64
	for p := 1; ; p++ {
		rows, _ := e.rows(fmt.Sprintf("%s&per_page=100&page=%d", path, p), token)
		for _, r := range rows {
			ids = append(ids, uint64(r["id"].(float64)))
		}
		if len(rows) < 100 {
			return ids
		}
	}
}

// TestExportsReadKeysetPagesInTheListOrder: with more than 1,000 rows and a
// page of 100 (SetExportPageRows), the CSV exports of hits and of the
// ledger carry every row once, in the order of the JSON lists (hits:
// created_at then id, descending, with ties across page boundaries;
// ledger: id descending), as the one-cursor export did.
func TestExportsReadKeysetPagesInTheListOrder(t *testing.T) {
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		s.SetExportPageRows(100)
		e := newEnv(t, s)
		c := e.newCustomer("user", "starter", "0.00")
		const n = 1_234
		want := seedHits(t, s, c.id, n, `{"q":"`+strings.Repeat("x", 250)+`"}`)

		got := csvIDs(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv", c.token, nil), "hit-logs")
		if !slices.Equal(got, want) {
			t.Fatalf("hit export: %d rows, want %d in created_at, id descending order", len(got), len(want))
		}
		if list := e.listIDs("/api/v1/panel/hit-logs?status=success", c.token); !slices.Equal(got, list) {
			t.Fatalf("hit export (%d rows) and list (%d rows) differ", len(got), len(list))
		}
		// A filter narrows every page, not only the first.
		half := time.Now().Add(-time.Hour).UTC().Truncate(time.Second).Add(60 * time.Second)
		from := url.QueryEscape(half.Format(time.RFC3339))
		narrowed := csvIDs(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv&from="+from, c.token, nil), "hit-logs")
		if list := e.listIDs("/api/v1/panel/hit-logs?from="+from, c.token); len(narrowed) == 0 || len(narrowed) >= n || !slices.Equal(narrowed, list) {
			t.Fatalf("filtered export %d rows, list %d", len(narrowed), len(list))
		}

		entries := make([]*ledger.Entry, n)
		at := time.Now().UTC()
		for i := range entries {
			entries[i] = &ledger.Entry{UserID: c.id, TxnID: ledger.NewTxnID(at), Type: ledger.Credit, Amount: decimal.RequireFromString("1.00"),
				BalanceBefore: decimal.NewFromInt(int64(i)), BalanceAfter: decimal.NewFromInt(int64(i + 1)), ReferenceType: ledger.RefAdjustment,
				Description: fmt.Sprintf("seed %d", i), Status: "completed", CreatedAt: at}
		}
		for from := 0; from < n; from += 500 {
			if err := s.Stores().Ledger.InsertMany(context.Background(), entries[from:min(from+500, n)]); err != nil {
				t.Fatal(err)
			}
		}
		txns := csvIDs(t, e.do("GET", "/api/v1/panel/transactions?format=csv", c.token, nil), "transactions")
		list := e.listIDs("/api/v1/panel/transactions?type=credit", c.token)
		if len(txns) != n || !slices.Equal(txns, list) || !slices.IsSortedFunc(txns, func(a, b uint64) int { return int(b) - int(a) }) {
			t.Fatalf("ledger export %d rows, list %d; want %d, id descending", len(txns), len(list), n)
		}
	})
}

// TestThirdExportIsRefusedWhileTwoRun: a user's two slots held (here by
// another instance's exports, written as leases in the database) make a
// third export 429 with Retry-After and the error body; other users export
// as before; a freed slot, or a lease that lapsed (its instance died), lets
// the next export run, and a finished export frees its slot.
func TestThirdExportIsRefusedWhileTwoRun(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		other := e.newCustomer("user", "starter", "0.00")
		ctx := context.Background()
		leases := e.store.Exports()
		now := time.Now()
		held := []export.Lease{{UserID: c.id, Slot: 0, Holder: "other-instance-a"}, {UserID: c.id, Slot: 1, Holder: "other-instance-b"}}
		for _, l := range held {
			if ok, err := leases.Claim(ctx, l, now, now.Add(time.Minute)); err != nil || !ok {
				t.Fatalf("claim %+v: %v %v", l, ok, err)
			}
		}
		for _, path := range []string{"/api/v1/panel/hit-logs?format=csv", "/api/v1/panel/transactions?format=csv"} {
			r := e.do("GET", path, c.token, nil)
			if r.status != 429 || r.str("error") != "too_many_exports" || r.header.Get("Retry-After") != "10" ||
				r.header.Get("Content-Type") != "application/json" || r.body["success"] != false || r.str("request_id") == "" {
				t.Fatalf("%s with two exports running: %d %v %s", path, r.status, r.header, r.raw)
			}
		}
		// The JSON list is no export; another user is not limited by c's.
		e.must(e.do("GET", "/api/v1/panel/hit-logs", c.token, nil), 200)
		readCSV(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv", other.token, nil), "hit-logs")

		if err := leases.Release(ctx, held[1]); err != nil {
			t.Fatal(err)
		}
		readCSV(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv", c.token, nil), "hit-logs")
		// A lease whose instance stopped renewing it lapses and is taken over.
		lapsed := export.Lease{UserID: c.id, Slot: 1, Holder: "dead-instance"}
		if ok, err := leases.Claim(ctx, lapsed, now.Add(-time.Hour), now.Add(-time.Second)); err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
		readCSV(t, e.do("GET", "/api/v1/panel/transactions?format=csv", c.token, nil), "transactions")
		var rows []struct {
			Slot   int
			Holder string
		}
		if err := e.store.DB().Raw("SELECT slot, holder FROM export_leases WHERE user_id = ?", c.id).Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].Holder != "other-instance-a" {
			t.Fatalf("leases after the exports ended: %+v (each export frees its slot; the held one stays)", rows)
		}
		// The holder of a lease alone renews or frees it.
		if ok, _ := leases.Renew(ctx, export.Lease{UserID: c.id, Slot: 0, Holder: "someone-else"}, now.Add(time.Hour)); ok {
			t.Fatal("a lease renewed by a stranger")
		}
	})
}

// stalledExport sends an export request on a connection whose client never
// reads: a small receive buffer, so the server's writes block once the
// kernel's buffers are full.
func stalledExport(t *testing.T, base, path, token string) net.Conn {
	t.Helper()
	u, _ := url.Parse(base)
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		if err != nil {
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
	return conn
}

// TestStalledExportEndsAfterTheStallTimeout: an export whose client stops
// reading is ended after the stall timeout (1 s here): its connection is
// cut, its slot freed and the end logged; while it stalls the database
// answers everyone else. A client that keeps reading gets the whole file
// however long it takes.
func TestStalledExportEndsAfterTheStallTimeout(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		// ~9 MB of CSV: more than the kernel buffers between the two ends.
		seedHits(t, e.store, c.id, 16_000, `{"q":"`+strings.Repeat("y", 300)+`"}`)
		logs := &lockedWriter{w: &bytes.Buffer{}}
		srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: e.app, Log: slog.New(slog.NewJSONHandler(logs, nil)),
			Ready: e.store.Ping, ExportStallTimeout: time.Second}))
		t.Cleanup(srv.Close)

		start := time.Now()
		conn := stalledExport(t, srv.URL, "/api/v1/panel/hit-logs?format=csv", c.token)
		slots := func() int64 {
			var n int64
			e.store.DB().Raw("SELECT COUNT(*) FROM export_leases WHERE user_id = ?", c.id).Scan(&n)
			return n
		}
		if !waitUntil(5*time.Second, func() bool { return slots() == 1 }) {
			t.Fatal("the export never took its slot")
		}
		me, err := http.NewRequest("GET", srv.URL+"/api/v1/panel/auth/me", nil)
		if err != nil {
			t.Fatal(err)
		}
		me.Header.Set("Authorization", "Bearer "+e.admin)
		res, err := http.DefaultClient.Do(me)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("auth/me during a stalled export: %v %v", res, err)
		}
		res.Body.Close()
		if !waitUntil(15*time.Second, func() bool { return slots() == 0 }) {
			t.Fatalf("the stalled export still holds its slot after %s", time.Since(start))
		}
		if took := time.Since(start); took < time.Second {
			t.Fatalf("the export ended after %s, before the stall timeout", took)
		}
		if !waitUntil(5*time.Second, func() bool { return strings.Contains(logs.String(), "its client read nothing for the stall timeout") }) {
			t.Fatalf("no log line for the ended export:\n%s", logs.String())
		}
		// The connection was cut: what arrived is a chunked body without its
		// end.
		_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
		raw, _ := io.ReadAll(bufio.NewReader(conn))
		if !strings.HasPrefix(string(raw), "HTTP/1.1 200") || strings.HasSuffix(string(raw), "\r\n0\r\n\r\n") {
			t.Fatalf("a stalled export's stream ends complete (%d bytes)", len(raw))
		}

		// A client that reads gets the whole file.
		req, _ := http.NewRequest("GET", srv.URL+"/api/v1/panel/hit-logs?format=csv", nil)
		req.Header.Set("Authorization", "Bearer "+c.token)
		res, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		rows, err := csv.NewReader(res.Body).ReadAll()
		if err != nil || len(rows) != 1+16_000 {
			t.Fatalf("full export: %d rows, %v", len(rows), err)
		}
	})
}

func waitUntil(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}

// TestExportCapHoldsWhileWritersWaitLongerThanTheLease: with a slot lease
// of 600 ms and a stall timeout of 5 s, two exports whose clients read
// nothing keep their slots for five leases and more: their writers are
// blocked, yet the leases are renewed, so a third export of the user is
// 429 all along. Once the stall timeout ends them, the third runs.
func TestExportCapHoldsWhileWritersWaitLongerThanTheLease(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		seedHits(t, e.store, c.id, 16_000, `{"q":"`+strings.Repeat("y", 300)+`"}`)
		tokens, err := token.NewJWT([]byte(strings.Repeat("s", 32)))
		if err != nil {
			t.Fatal(err)
		}
		// The stall deadline ends the stalled writers; it must outlast the
		// checks below however slowly a loaded machine serves them.
		const lease, stall = 600 * time.Millisecond, 10 * time.Second
		a := app.New(app.Deps{Tx: e.store, Stores: e.store.Stores(), Names: e.store.Names(), Exports: e.store.Exports(), Tokens: tokens, EmailTokens: tokens,
			Config: app.Config{Location: mustKolkata(t), PasswordCost: 4, ExportLease: lease}})
		t.Cleanup(a.Wait)
		srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: a, Log: slog.New(slog.DiscardHandler),
			Ready: e.store.Ping, ExportStallTimeout: stall}))
		t.Cleanup(srv.Close)
		slots := func() int64 {
			var n int64
			e.store.DB().Raw("SELECT COUNT(*) FROM export_leases WHERE user_id = ?", c.id).Scan(&n)
			return n
		}

		stalledExport(t, srv.URL, "/api/v1/panel/hit-logs?format=csv", c.token)
		stalledExport(t, srv.URL, "/api/v1/panel/hit-logs?format=csv", c.token)
		if !waitUntil(5*time.Second, func() bool { return slots() == 2 }) {
			t.Fatalf("%d slots taken, want 2", slots())
		}
		start := time.Now()
		for time.Since(start) < 5*lease && time.Since(start) < stall-2*time.Second {
			r := e.at(srv.URL, "203.0.113.9", "GET", "/api/v1/panel/hit-logs?format=csv", c.token, nil)
			if r.status != 429 || r.str("error") != "too_many_exports" {
				t.Fatalf("a third export after %s of stalled writers (lease %s): %d", time.Since(start), lease, r.status)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if !waitUntil(stall+15*time.Second, func() bool { return slots() == 0 }) {
			t.Fatal("the stalled exports never freed their slots")
		}
		readCSV(t, e.at(srv.URL, "203.0.113.9", "GET", "/api/v1/panel/transactions?format=csv", c.token, nil), "transactions")
	})
}
