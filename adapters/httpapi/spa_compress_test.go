package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestSPAServesPrecompressedAssets: a file with the build's .br and .gz
// copies is sent as the best copy the client accepts, with its own
// Content-Type, Content-Encoding and Vary; without Accept-Encoding it is
// the file itself. index.html is gzipped per request (it carries the time
// zone); a file without copies is sent as is.
func TestSPAServesPrecompressedAssets(t *testing.T) {
	js := []byte(strings.Repeat("console.log('panel');\n", 200))
	index := "<!doctype html><html><head><title>panel</title></head><body>" + strings.Repeat("<div></div>", 200) + "</body></html>"
	assets := fstest.MapFS{
		"index.html":              {Data: []byte(index)},
		"assets/app-AbC123.js":    {Data: js},
		"assets/app-AbC123.js.gz": {Data: gz(t, js)},
		"assets/app-AbC123.js.br": {Data: []byte("brotli-bytes")},
		"assets/small-1.css":      {Data: []byte("body{}")},
	}
	h := spaServer(t, assets)
	get := func(path, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	cases := []struct {
		name, path, accept, encoding string
		body                         []byte
	}{
		{"brotli first", "/assets/app-AbC123.js", "gzip, deflate, br", "br", []byte("brotli-bytes")},
		{"gzip when brotli is not accepted", "/assets/app-AbC123.js", "gzip", "gzip", gz(t, js)},
		{"brotli refused", "/assets/app-AbC123.js", "br;q=0, gzip", "gzip", gz(t, js)},
		{"identity", "/assets/app-AbC123.js", "", "", js},
		{"identity when nothing known is accepted", "/assets/app-AbC123.js", "zstd", "", js},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := get(tc.path, tc.accept)
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != tc.encoding || !bytes.Equal(rec.Body.Bytes(), tc.body) {
				t.Fatalf("%d %q %.40q", rec.Code, rec.Header().Get("Content-Encoding"), rec.Body.Bytes())
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
				t.Fatalf("Content-Type %q", ct)
			}
			if rec.Header().Get("Vary") != "Accept-Encoding" || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Fatalf("headers %v", rec.Header())
			}
		})
	}
	if rec := get("/assets/app-AbC123.js", "gzip"); !bytes.Equal(gunzipBytes(t, rec.Body.Bytes()), js) {
		t.Fatal("the gzip copy does not decode to the file")
	}
	if rec := get("/assets/small-1.css", "gzip, br"); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "body{}" {
		t.Fatalf("a file without copies: %q %q", rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
	// index.html: gzipped per request, the time zone in it.
	rec := get("/", "gzip")
	if rec.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
		t.Fatalf("index headers %v", rec.Header())
	}
	if page := gunzipBytes(t, rec.Body.Bytes()); !bytes.Contains(page, []byte(`content="Asia/Kolkata"`)) {
		t.Fatalf("index %s", page)
	}
	if rec := get("/", ""); rec.Header().Get("Content-Encoding") != "" || !strings.Contains(rec.Body.String(), "Asia/Kolkata") {
		t.Fatalf("identity index %v", rec.Header())
	}
}

func gunzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWhatIsCompressed(t *testing.T) {
	cases := map[string]bool{
		"/api/v1/panel/hit-logs":                      true,
		"/api/v1/panel/hit-logs?format=csv":           false,
		"/api/v1/panel/balance-requests/4/screenshot": false,
		"/api/v1/sms":                     false, // metered
		"/api/v1/payout/transfer":         false, // gateway
		"/api/docs":                       true,
		"/api/openapi.yaml":               true,
		"/healthz":                        false,
		"/metrics":                        true,
		"/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5": true,
		"/":                               true,
		"/admin/users/7":                  true,
		"/assets/index-AbC.js":            false, // precompressed by the build
		"/favicon.svg":                    false,
	}
	for target, want := range cases {
		if got := compresses(httptest.NewRequest("GET", target, nil)); got != want {
			t.Errorf("compresses(%s) = %v, want %v", target, got, want)
		}
	}
	ranged := httptest.NewRequest("GET", "/", nil)
	ranged.Header.Set("Range", "bytes=0-10")
	if compresses(ranged) {
		t.Error("a range request is compressed")
	}
	for accept, want := range map[string]bool{"gzip": true, "GZIP;q=0.5": true, "gzip;q=0": false, "*": true, "*;q=0": false,
		"br": false, "gzip;q=0, *": false, "*;q=0, gzip": true, "": false, "deflate, gzip ; q = 0.3": true} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", accept)
		if got := acceptsEncoding(r, "gzip"); got != want {
			t.Errorf("acceptsEncoding(%q, gzip) = %v, want %v", accept, got, want)
		}
	}
}

// BenchmarkCompressionSkipOnMeteredCall is what the compression middleware
// adds to a metered call: the test that skips it.
func BenchmarkCompressionSkipOnMeteredCall(b *testing.B) {
	r := httptest.NewRequest("POST", "/api/v1/sms?x=1", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	b.ReportAllocs()
	for b.Loop() {
		if compresses(r) {
			b.Fatal("a metered call is compressed")
		}
	}
}
