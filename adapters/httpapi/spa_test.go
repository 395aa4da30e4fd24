package httpapi

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func spaServer(t *testing.T, assets fstest.MapFS) http.Handler {
	t.Helper()
	return NewServer(Deps{
		Log:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		Assets:   assets,
		TimeZone: "Asia/Kolkata",
	})
}

var spaAssets = fstest.MapFS{
	"index.html":              {Data: []byte("<!doctype html><html><head><title>panel</title></head><body><div id=root></div></body></html>")},
	"assets/index-AbC123.js":  {Data: []byte("console.log('panel')")},
	"assets/index-AbC123.css": {Data: []byte("body{}")},
	"favicon.svg":             {Data: []byte("<svg/>")},
	".vite/manifest.json":     {Data: []byte(`{"index.html":{}}`)},
	".gitkeep":                {Data: []byte("")},
}

// TestSPAHistoryFallback: client routes get index.html (a reload of
// /api-keys works); the API, the operator endpoints, the payment pages,
// hidden files and missing assets are never swallowed.
func TestSPAHistoryFallback(t *testing.T) {
	h := spaServer(t, spaAssets)
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	cases := []struct {
		name, path, accept string
		status             int
		want               string // "index", "json404", or a body
		cache              string
	}{
		{"root", "/", browser, 200, "index", "no-cache"},
		{"root without Accept", "/", "", 200, "index", "no-cache"},
		{"index.html", "/index.html", "", 200, "index", "no-cache"},
		{"client route", "/api-keys", browser, 200, "index", "no-cache"},
		{"nested client route with query", "/admin/users/7?tab=keys", browser, 200, "index", "no-cache"},
		{"mailed link", "/reset-password?token=pr_x&email=a@b.c", browser, 200, "index", "no-cache"},
		{"client route from fetch", "/api-keys", "*/*", 404, "json404", ""},
		{"client route from curl", "/api-keys", "", 404, "json404", ""},
		{"hashed asset", "/assets/index-AbC123.js", "*/*", 200, "console.log('panel')", "public, max-age=31536000, immutable"},
		{"hashed css", "/assets/index-AbC123.css", "text/css,*/*;q=0.1", 200, "body{}", "public, max-age=31536000, immutable"},
		{"unhashed file", "/favicon.svg", "*/*", 200, "<svg/>", "no-cache"},
		{"favicon.ico is the svg icon", "/favicon.ico", "*/*", 200, "<svg/>", "public, max-age=86400"},
		{"missing asset", "/assets/index-OLD999.js", browser, 404, "json404", ""},
		{"missing asset dir", "/assets/", browser, 404, "json404", ""},
		{"missing file with an extension", "/robots.txt", browser, 404, "json404", ""},
		{"unknown API path", "/api/v1/panel/nowhere", browser, 404, "json404", "no-store"}, // every /api/v1 answer
		{"unknown API root", "/api", browser, 404, "json404", ""},
		{"unknown metered path", "/api/v2/sms", browser, 404, "json404", ""},
		{"under healthz", "/healthz/deep", browser, 404, "json404", ""},
		{"under metrics", "/metrics/x", browser, 404, "json404", ""},
		{"unknown payment page path", "/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5/receipt", browser, 404, "json404", ""},
		{"vite manifest", "/.vite/manifest.json", browser, 404, "json404", ""},
		{"gitkeep", "/.gitkeep", browser, 404, "json404", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := rec.Body.String()
			if rec.Code != tc.status {
				t.Fatalf("GET %s: status %d, want %d; body %.200s", tc.path, rec.Code, tc.status, body)
			}
			switch tc.want {
			case "index":
				if !strings.Contains(body, `<div id=root>`) || !strings.Contains(body, `<meta name="paygate-timezone" content="Asia/Kolkata"></head>`) {
					t.Errorf("GET %s: not index.html with the time zone: %s", tc.path, body)
				}
				if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
					t.Errorf("GET %s: Content-Type %q", tc.path, ct)
				}
			case "json404":
				if !strings.Contains(body, `"error":"not_found"`) {
					t.Errorf("GET %s: want the JSON 404 body, got %.200s", tc.path, body)
				}
			default:
				if body != tc.want {
					t.Errorf("GET %s: body %q, want %q", tc.path, body, tc.want)
				}
			}
			if got := rec.Header().Get("Cache-Control"); got != tc.cache {
				t.Errorf("GET %s: Cache-Control %q, want %q", tc.path, got, tc.cache)
			}
		})
	}
}

// TestSPARoutesStillServed: the registered routes the fallback must not
// shadow answer as themselves.
func TestSPARoutesStillServed(t *testing.T) {
	h := spaServer(t, spaAssets)
	for _, p := range []string{"/healthz", "/api/openapi.yaml"} {
		req := httptest.NewRequest("GET", p, nil)
		req.Header.Set("Accept", "text/html")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 || strings.Contains(rec.Body.String(), "<div id=root>") {
			t.Errorf("GET %s: %d %.100s", p, rec.Code, rec.Body.String())
		}
	}
}

func TestSPAIndexRevalidates(t *testing.T) {
	h := spaServer(t, spaAssets)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	etag := rec.Header().Get("ETag")
	if etag == "" {
		t.Fatal("index.html has no ETag")
	}
	req := httptest.NewRequest("GET", "/dashboard", nil)
	req.Header.Set("Accept", "text/html")
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match with the ETag: status %d, want 304", rec.Code)
	}
}

// TestSPANotBuilt: a binary built before npm (only dist/.gitkeep) serves a
// page that says how to build the panel.
func TestSPANotBuilt(t *testing.T) {
	h := spaServer(t, fstest.MapFS{".gitkeep": {Data: nil}})
	req := httptest.NewRequest("GET", "/login", nil)
	req.Header.Set("Accept", "text/html")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "make build") {
		t.Errorf("GET /login without a build: %d %.200s", rec.Code, rec.Body.String())
	}
}
