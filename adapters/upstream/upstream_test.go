package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"paygate/core/metering"
	"runtime"
	"strings"
	"testing"
	"time"
)

// noLeaks fails the test when goroutines started during it are still
// running once its cleanups (servers closed, pools emptied) have run.
// Register it first: cleanups run last-in first-out.
func noLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(3 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("goroutines: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
		}
	})
}

func newClient(t *testing.T, opts Options) *Client {
	t.Helper()
	c := New(opts)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func newServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func TestDoSendsQueryHeadersAndBody(t *testing.T) {
	noLeaks(t)
	type seen struct {
		Method, Path, Query, ContentType, Key string
		Body                                  string
	}
	got := make(chan seen, 1)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("X-Provider-Key"), string(b)}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, `{"ok":true}`)
	})
	c := newClient(t, Options{AllowPrivate: true})

	resp, err := c.Do(context.Background(), metering.UpstreamRequest{
		Method: "POST", URL: srv.URL + "/v1/print?fixed=1",
		Header: http.Header{"X-Provider-Key": {"pk_123"}},
		Query:  url.Values{"upi_id": {"a@b"}},
		Body:   []byte(`{"name":"Asha"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != http.StatusAccepted || string(resp.Body) != `{"ok":true}` {
		t.Fatalf("response %d %s", resp.Status, resp.Body)
	}
	s := <-got
	want := seen{"POST", "/v1/print", "fixed=1&upi_id=a%40b", "application/json", "pk_123", `{"name":"Asha"}`}
	if s != want {
		t.Fatalf("server saw %+v, want %+v", s, want)
	}
}

func TestDoGetSendsNoBody(t *testing.T) {
	noLeaks(t)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "body": string(b), "q": r.URL.Query().Get("x")})
	})
	c := newClient(t, Options{AllowPrivate: true})
	resp, err := c.Do(context.Background(), metering.UpstreamRequest{Method: "GET", URL: srv.URL, Query: url.Values{"x": {"1"}}, Body: []byte("ignored")})
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(resp.Body)) != `{"body":"","method":"GET","q":"1"}` {
		t.Fatalf("body %s", resp.Body)
	}
}

func TestDoErrors(t *testing.T) {
	noLeaks(t)
	slow := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	big := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 2048))
	})
	bigChunked := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		for range 4 {
			w.Write(make([]byte, 512))
			w.(http.Flusher).Flush()
		}
	})
	exact := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 1024))
	})
	reset := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		conn.(*net.TCPConn).SetLinger(0) // RST, not FIN
		conn.Close()
	})
	elsewhere := newServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{}`) })
	redirectOut := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/x", http.StatusFound)
	})
	var loopURL string
	loop := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loopURL+"/again", http.StatusFound)
	})
	loopURL = loop.URL
	// Same server, other host name: "localhost" instead of "127.0.0.1".
	var otherNameURL string
	otherName := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/start" {
			http.Redirect(w, r, otherNameURL+"/end", http.StatusTemporaryRedirect)
			return
		}
		io.WriteString(w, `{}`)
	})
	otherNameURL = strings.Replace(otherName.URL, "127.0.0.1", "localhost", 1)

	private := newClient(t, Options{MaxBody: 1024})
	open := newClient(t, Options{AllowPrivate: true, MaxBody: 1024, DefaultTimeout: 200 * time.Millisecond})

	tests := []struct {
		name   string
		c      *Client
		req    metering.UpstreamRequest
		want   error
		wantOK bool
	}{
		{"timeout (default)", open, metering.UpstreamRequest{Method: "GET", URL: slow.URL}, ErrTimeout, false},
		{"timeout (per request)", open, metering.UpstreamRequest{Method: "GET", URL: slow.URL, Timeout: 50 * time.Millisecond}, ErrTimeout, false},
		{"body over the cap (Content-Length)", open, metering.UpstreamRequest{Method: "GET", URL: big.URL}, ErrTooLarge, false},
		{"body over the cap (chunked)", open, metering.UpstreamRequest{Method: "GET", URL: bigChunked.URL}, ErrTooLarge, false},
		{"body exactly at the cap", open, metering.UpstreamRequest{Method: "GET", URL: exact.URL}, nil, true},
		{"scheme ftp", open, metering.UpstreamRequest{Method: "GET", URL: "ftp://example.com/x"}, ErrScheme, false},
		{"scheme file", open, metering.UpstreamRequest{Method: "GET", URL: "file:///etc/passwd"}, ErrScheme, false},
		{"no host", open, metering.UpstreamRequest{Method: "GET", URL: "http:///x"}, ErrInvalidURL, false},
		{"loopback refused", private, metering.UpstreamRequest{Method: "GET", URL: elsewhere.URL}, ErrAddress, false},
		{"loopback by name refused", private, metering.UpstreamRequest{Method: "GET", URL: strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1)}, ErrAddress, false},
		{"loopback allowed", open, metering.UpstreamRequest{Method: "GET", URL: elsewhere.URL}, nil, true},
		{"redirect to another port", open, metering.UpstreamRequest{Method: "GET", URL: redirectOut.URL}, ErrRedirect, false},
		{"redirect to another host name", open, metering.UpstreamRequest{Method: "POST", URL: strings.Replace(otherName.URL, "localhost", "127.0.0.1", 1) + "/start"}, ErrRedirect, false},
		{"redirect loop", open, metering.UpstreamRequest{Method: "GET", URL: loop.URL}, ErrRedirect, false},
		{"connection reset", open, metering.UpstreamRequest{Method: "GET", URL: reset.URL}, ErrConnection, false},
		{"nothing listening", open, metering.UpstreamRequest{Method: "GET", URL: "http://127.0.0.1:1/"}, ErrConnection, false},
		{"sandbox without handler", open, metering.UpstreamRequest{Method: "GET", URL: "sandbox://sms-gateway"}, ErrNoSandbox, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := tt.c.Do(context.Background(), tt.req)
			if tt.wantOK {
				if err != nil || resp.Status != http.StatusOK {
					t.Fatalf("got %v, status %d", err, resp.Status)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if err.Error() != tt.want.Error() {
				t.Fatalf("error text %q leaks detail; want %q", err, tt.want)
			}
		})
	}
}

func TestSameHostRedirectFollowed(t *testing.T) {
	noLeaks(t)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/0":
			http.Redirect(w, r, "/1", http.StatusFound)
		case "/1":
			http.Redirect(w, r, "/2", http.StatusFound)
		case "/2":
			http.Redirect(w, r, "/3", http.StatusFound)
		case "/3":
			http.Redirect(w, r, "/done", http.StatusFound)
		default:
			io.WriteString(w, `{"at":"done"}`)
		}
	})
	c := newClient(t, Options{AllowPrivate: true})
	resp, err := c.Do(context.Background(), metering.UpstreamRequest{Method: "GET", URL: srv.URL + "/1"})
	if err != nil || string(resp.Body) != `{"at":"done"}` {
		t.Fatalf("3 same-host redirects: %v %s", err, resp.Body)
	}
	_, err = c.Do(context.Background(), metering.UpstreamRequest{Method: "GET", URL: srv.URL + "/0"}) // 4 redirects
	if !errors.Is(err, ErrRedirect) {
		t.Fatalf("4 redirects: got %v", err)
	}
}

func TestCanceledByCaller(t *testing.T) {
	noLeaks(t)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c := newClient(t, Options{AllowPrivate: true})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := c.Do(ctx, metering.UpstreamRequest{Method: "GET", URL: srv.URL})
	if !errors.Is(err, ErrCanceled) {
		t.Fatalf("got %v", err)
	}
}

func TestSandboxRouting(t *testing.T) {
	noLeaks(t)
	type seen struct{ Method, Path, Query, ContentType, Body string }
	var s seen
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s = seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), string(b)}
		if r.URL.Path == "/big" {
			w.Write(make([]byte, 2000))
			return
		}
		if r.URL.Path == "/panic" {
			panic("boom")
		}
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"ok":true}`)
	})
	c := newClient(t, Options{Sandbox: h, MaxBody: 1024}) // no private access needed

	resp, err := c.Do(context.Background(), metering.UpstreamRequest{Method: "POST", URL: "sandbox://sms-gateway", Body: []byte(`{"a":1}`)})
	if err != nil || resp.Status != http.StatusCreated || string(resp.Body) != `{"ok":true}` {
		t.Fatalf("got %v %d %s", err, resp.Status, resp.Body)
	}
	if want := (seen{"POST", "/sms-gateway", "", "application/json", `{"a":1}`}); s != want {
		t.Fatalf("handler saw %+v, want %+v", s, want)
	}
	if _, err := c.Do(context.Background(), metering.UpstreamRequest{Method: "GET", URL: "sandbox://upi-verification/v2?x=1", Query: url.Values{"upi_id": {"a@okaxis"}}}); err != nil {
		t.Fatal(err)
	}
	if want := (seen{"GET", "/upi-verification/v2", "x=1&upi_id=a%40okaxis", "", ""}); s != want {
		t.Fatalf("handler saw %+v, want %+v", s, want)
	}
	if _, err := c.Do(context.Background(), metering.UpstreamRequest{Method: "GET", URL: "sandbox://big"}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("big: %v", err)
	}
	if _, err := c.Do(context.Background(), metering.UpstreamRequest{Method: "GET", URL: "sandbox://panic"}); !errors.Is(err, ErrSandboxFailure) {
		t.Fatalf("panic: %v", err)
	}
}

func TestPublic(t *testing.T) {
	tests := map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700:4700::1111": true, "100.63.255.255": true, "100.128.0.0": true,
		"172.15.255.255": true, "172.32.0.0": true, "64:ff9b::808:808": true,
		"127.0.0.1": false, "127.8.9.10": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false,
		"172.31.255.255": false, "192.168.1.1": false, "fc00::1": false, "fd12:3456::1": false,
		"169.254.169.254": false, "fe80::1": false, "0.0.0.0": false, "::": false, "100.64.0.1": false,
		"100.127.255.255": false, "224.0.0.1": false, "239.255.255.250": false, "ff02::1": false,
		"255.255.255.255": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::a00:1": false,
		"0.1.2.3": false,
		// 6to4 carries an IPv4 address in bits 16-48, which must be public;
		// Teredo (2001::/32) tunnels to an address we cannot see: refused.
		"2002:808:808::1": true, "2002:7f00:1::1": false, "2002:a9fe:a9fe::": false, "2002:c0a8:101::1": false,
		"2001:0:4136:e378:8000:63bf:3fff:fdd2": false,
	}
	for s, want := range tests {
		if got := Public(netip.MustParseAddr(s)); got != want {
			t.Errorf("Public(%s) = %v, want %v", s, got, want)
		}
	}
}
