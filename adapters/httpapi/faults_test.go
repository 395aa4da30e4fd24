package httpapi_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestUpstreamFaultsAreRefundedWithoutLeaks: every way an upstream can
// fail (docs/decisions.md, "Order of checks and the error body") — timeout, connection reset before or
// in the middle of the body, a body that trickles past the timeout,
// invalid JSON, a body over the size cap — answers 500 upstream_error with
// a safe message, refunds the reserved charge, logs the hit failed with
// charge 0 and the error in response_payload, keeps the ledger exact, and
// leaves no goroutine behind once the test's servers are closed.
func TestUpstreamFaultsAreRefundedWithoutLeaks(t *testing.T) {
	// Registered first, so it runs last: after every server and pool of
	// the subtests is closed. Goroutines alive before the test (other
	// packages' pools, the test runner) are not this test's.
	t.Cleanup(func() { goleak.VerifyNone(t, goleak.IgnoreCurrent()) })
	rst := func(w http.ResponseWriter) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		buf.Flush()
		conn.(*net.TCPConn).SetLinger(0) // RST, not FIN
		conn.Close()
	}
	cases := []struct {
		name    string
		handler func(w http.ResponseWriter, r *http.Request)
		message string
	}{
		{"timeout", func(w http.ResponseWriter, r *http.Request) {
			select { // the harness's upstream timeout is 2 s
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, "Service error: upstream timed out"},
		{"reset before an answer", func(w http.ResponseWriter, r *http.Request) { rst(w) }, "Service error: connection failed"},
		{"reset in the middle of the body", func(w http.ResponseWriter, r *http.Request) {
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"partial\":")
			buf.Flush()
			conn.(*net.TCPConn).SetLinger(0)
			conn.Close()
		}, "Service error: connection failed"},
		{"body trickling past the timeout", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"slow":"`)
			for range 50 {
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
				io.WriteString(w, "x")
			}
			io.WriteString(w, `"}`)
		}, "Service error: upstream timed out"},
		{"invalid json", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"truncated": `)
		}, "Service error: upstream answered invalid JSON"},
		{"body over the cap", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"blob":"`+strings.Repeat("a", 2<<20)+`"}`) // the cap is 1 MiB
		}, "Service error: upstream response too large"},
		{"body over the cap, chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"blob":"`)
			for range 40 {
				io.WriteString(w, strings.Repeat("b", 64<<10))
				w.(http.Flusher).Flush()
			}
			io.WriteString(w, `"}`)
		}, "Service error: upstream response too large"},
	}
	each(t, func(t *testing.T, e *env) {
		e.newService("faulty", "1.5000")
		c := e.newCustomer("user", "enterprise", "10.00")
		for _, tc := range cases {
			e.setUpstream(tc.handler)
			start := time.Now()
			r := e.call(c, "faulty", map[string]any{"n": 1})
			if r.status != 500 || r.str("error") != "upstream_error" || r.str("message") != tc.message || r.str("request_id") == "" {
				t.Fatalf("%s: %d %s", tc.name, r.status, r.raw)
			}
			if d := time.Since(start); d > 4*time.Second {
				t.Fatalf("%s: the call took %s; the upstream timeout is 2 s", tc.name, d)
			}
			hit := e.must(e.do("GET", "/api/v1/panel/hit-logs?per_page=1", c.token, nil), 200).body["data"].([]any)[0].(map[string]any)
			payload, _ := hit["response_payload"].(map[string]any)
			if hit["status"] != "failed" || hit["charge_amount"] != "0.0000" || payload["message"] != tc.message || payload["error"] != "upstream_error" {
				t.Fatalf("%s: hit %v", tc.name, hit)
			}
			if b := e.balance(c); b != "10.00" {
				t.Fatalf("%s: balance %s after the refund", tc.name, b)
			}
		}
		tx := e.must(e.do("GET", "/api/v1/panel/transactions?type=refund", c.token, nil), 200)
		if got := tx.body["meta"].(map[string]any)["total"].(float64); got != float64(len(cases)) {
			t.Fatalf("refunds %v, want %d", got, len(cases))
		}
		e.ledgerClean()
		// The same faults still leave the next call working.
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"ok":true}`) })
		if r := e.call(c, "faulty", map[string]any{}); r.status != 200 {
			t.Fatalf("call after the faults: %d %s", r.status, r.raw)
		}
	})
}
