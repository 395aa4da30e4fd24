package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
)

// rawGet GETs path from the test server without the transport's own gzip
// handling, so the test sees the answer's bytes and headers as sent.
func (e *env) rawGet(path, bearer, acceptEncoding string) (*http.Response, []byte) {
	e.t.Helper()
	return e.rawDo("GET", path, bearer, acceptEncoding, nil)
}

func (e *env) rawDo(method, path, bearer, acceptEncoding string, body []byte) (*http.Response, []byte) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	res, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return res, b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("bad gzip: %v", err)
	}
	return out
}

// TestPanelJSONIsGzipped: a panel list asked with Accept-Encoding: gzip
// comes gzipped and decodes to the identity answer's bytes; without it (or
// with gzip;q=0) it is identity; both say Vary: Accept-Encoding. Metered
// calls and CSV exports are never compressed.
func TestPanelJSONIsGzipped(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		const list = "/api/v1/panel/services?per_page=100"
		plain, plainBody := e.rawGet(list, e.admin, "")
		if plain.StatusCode != 200 || plain.Header.Get("Content-Encoding") != "" || len(plainBody) < 1024 {
			t.Fatalf("identity answer: %d %q, %d bytes", plain.StatusCode, plain.Header.Get("Content-Encoding"), len(plainBody))
		}
		if !strings.Contains(plain.Header.Get("Vary"), "Accept-Encoding") {
			t.Fatalf("identity answer without Vary: %v", plain.Header)
		}
		zipped, zippedBody := e.rawGet(list, e.admin, "br;q=1.0, gzip;q=0.8")
		if zipped.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(zipped.Header.Get("Vary"), "Accept-Encoding") {
			t.Fatalf("gzip answer headers: %v", zipped.Header)
		}
		if got := gunzip(t, zippedBody); !bytes.Equal(got, plainBody) {
			t.Fatalf("gzip answer decodes to %d bytes, want the identity answer's %d", len(got), len(plainBody))
		}
		if len(zippedBody) >= len(plainBody) {
			t.Fatalf("gzip answer %d bytes, identity %d", len(zippedBody), len(plainBody))
		}
		if refused, _ := e.rawGet(list, e.admin, "gzip;q=0, identity"); refused.Header.Get("Content-Encoding") != "" {
			t.Fatalf("gzip;q=0 got %q", refused.Header.Get("Content-Encoding"))
		}
		// Small answers stay identity (below 1 KiB).
		if small, _ := e.rawGet("/api/v1/panel/auth/me", e.admin, "gzip"); small.Header.Get("Content-Encoding") != "" {
			t.Fatal("a small answer was compressed")
		}

		// A metered call's answer (here over 1 KiB) is passed through as is.
		c := e.newCustomer("user", "starter", "10.00")
		e.newService("zip-svc", "0.5000")
		big := `{"items":"` + strings.Repeat("abcdefgh", 400) + `"}`
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, big)
		})
		req, _ := http.NewRequest("POST", e.url+"/api/v1/zip-svc", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", c.key)
		req.Header.Set("X-API-Secret", c.secret)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		metered, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "" || !strings.Contains(string(metered), "abcdefgh") {
			t.Fatalf("metered answer %d %q: %.80s", res.StatusCode, res.Header.Get("Content-Encoding"), metered)
		}

		// A CSV export streams uncompressed (its stall deadline is per write).
		exp, body := e.rawGet("/api/v1/panel/hit-logs?format=csv", e.admin, "gzip")
		if exp.StatusCode != 200 || exp.Header.Get("Content-Encoding") != "" || !strings.HasPrefix(string(body), `"id"`) {
			t.Fatalf("export %d %q: %.80s", exp.StatusCode, exp.Header.Get("Content-Encoding"), body)
		}
	})
}
