package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	hundred := make([]time.Duration, 100) // 1ms … 100ms
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	ten := hundred[:10]
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one value", []time.Duration{7}, 99, 7},
		{"p50 of 100", hundred, 50, 50 * time.Millisecond},
		{"p99 of 100", hundred, 99, 99 * time.Millisecond},
		{"p100 of 100", hundred, 100, 100 * time.Millisecond},
		{"p1 of 100", hundred, 1, time.Millisecond},
		{"p50 of 10", ten, 50, 5 * time.Millisecond},
		{"p99 of 10 is the largest", ten, 99, 10 * time.Millisecond},
		{"p90 of 10", ten, 90, 9 * time.Millisecond},
		{"p91 of 10 rounds up", ten, 91, 10 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := percentile(tt.sorted, tt.p); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestRunLoadPercentiles: one connection, every 10th request is held
// 50ms, so the median is fast and the 99th percentile is slow.
func TestRunLoadPercentiles(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%10 == 0 {
			time.Sleep(50 * time.Millisecond)
		}
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	client := newLoadClient(1)
	defer client.CloseIdleConnections()

	r := runLoad(context.Background(), client, Load{Method: "GET", URL: srv.URL, Conns: 1, Duration: 600 * time.Millisecond})
	if r.Errors != 0 || r.Non2xx != 0 || int64(r.OK) != n.Load() || len(r.Latencies) != r.OK {
		t.Fatalf("ok %d non2xx %d errors %d latencies %d, server saw %d", r.OK, r.Non2xx, r.Errors, len(r.Latencies), n.Load())
	}
	if r.OK < 10 {
		t.Fatalf("only %d calls", r.OK)
	}
	if p50, p99 := r.Percentile(50), r.Percentile(99); p50 >= 50*time.Millisecond || p99 < 50*time.Millisecond {
		t.Fatalf("p50 %v (want < 50ms), p99 %v (want ≥ 50ms)", p50, p99)
	}
	if rate := r.Rate(); rate <= 0 || rate > float64(r.OK)/0.6 {
		t.Fatalf("rate %.1f for %d calls in %v", rate, r.OK, r.Elapsed)
	}
}

// TestRunLoadCounts: non-2xx answers are counted apart, by status, and
// kept out of the latencies; every request the server saw is counted once.
func TestRunLoadCounts(t *testing.T) {
	var n atomic.Int64
	var body atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body.Store(r.Method + " " + r.Header.Get("X-Api-Key") + " " + string(b))
		if n.Add(1)%4 == 0 {
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	client := newLoadClient(8)
	defer client.CloseIdleConnections()

	r := runLoad(context.Background(), client, Load{
		Method: "POST", URL: srv.URL, Conns: 8, Duration: 300 * time.Millisecond,
		Header: http.Header{"X-Api-Key": {"k"}}, Body: []byte(`{}`),
	})
	if got := body.Load(); got != "POST k {}" {
		t.Fatalf("server saw %q", got)
	}
	if int64(r.OK+r.Non2xx) != n.Load() || r.Errors != 0 {
		t.Fatalf("ok %d + non2xx %d != %d served (errors %d)", r.OK, r.Non2xx, n.Load(), r.Errors)
	}
	if r.Non2xx != r.Statuses[http.StatusTooManyRequests] || r.Non2xx < r.OK/4 || len(r.Latencies) != r.OK {
		t.Fatalf("non2xx %d statuses %v ok %d latencies %d", r.Non2xx, r.Statuses, r.OK, len(r.Latencies))
	}
}

func TestRunLoadErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	}))
	defer srv.Close()
	client := newLoadClient(2)
	defer client.CloseIdleConnections()

	r := runLoad(context.Background(), client, Load{Method: "GET", URL: srv.URL, Conns: 2, Duration: 100 * time.Millisecond})
	if r.OK != 0 || r.Errors == 0 || r.FirstError == "" || r.Percentile(99) != 0 {
		t.Fatalf("ok %d errors %d first %q", r.OK, r.Errors, r.FirstError)
	}
}

func TestProxyEchoes(t *testing.T) {
	up, upURL, err := startUpstream()
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	proxy, proxyURL, err := startProxy(upURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	for _, tt := range []struct{ body, want string }{
		{`{}`, `{"ok":true,"echo":{}}`},
		{`{"a":[1,2]}`, `{"ok":true,"echo":{"a":[1,2]}}`},
		{`not json`, `{"ok":true,"echo":null}`},
	} {
		resp, err := http.Post(proxyURL+"/echo", "application/json", strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != tt.want || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s → %d %s", tt.body, resp.StatusCode, b)
		}
	}
}

func TestFlags(t *testing.T) {
	o, err := parseFlags(nil, io.Discard)
	if err != nil || o.conns != 64 || o.duration != 10*time.Second || o.server != "./bin/server" || o.db != "mysql" || o.mysql != "private" {
		t.Fatalf("defaults %+v %v", o, err)
	}
	if o, err := parseFlags([]string{"-mysql", "mysql://root:pw@127.0.0.1:3306/"}, io.Discard); err != nil || o.mysql != "mysql://root:pw@127.0.0.1:3306/" {
		t.Fatalf("-mysql URL: %+v %v", o, err)
	}
	for _, bad := range []string{"", "shared", "postgres://x/", "127.0.0.1:3306"} {
		if _, err := parseFlags([]string{"-mysql", bad}, io.Discard); err == nil {
			t.Fatalf("-mysql %q accepted", bad)
		}
	}
	if _, err := parseFlags([]string{"-c", "0"}, io.Discard); err == nil {
		t.Fatal("-c 0 accepted")
	}
	if o, err := parseFlags([]string{"-ab", "./other"}, io.Discard); err != nil || o.ab != "./other" || o.slice != time.Second || o.dbPID != -1 {
		t.Fatalf("-ab: %+v %v", o, err)
	}
	for _, bad := range [][]string{{"-ab", "x", "-slice", "0"}, {"-ab", "x", "-json"}, {"-ab", "x", "-only-bare"}} {
		if _, err := parseFlags(bad, io.Discard); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
}
