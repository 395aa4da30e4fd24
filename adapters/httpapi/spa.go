package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"html"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
)

// notBuilt is index.html when frontend/dist holds no build (a clean clone
// built with go build alone).
const notBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Paygate</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>Paygate</h1>
<p>The web panel is not built into this binary: run <code>make build</code> (it runs <code>npm ci</code> and <code>npm run build</code> in <code>frontend/</code>).</p>
<p>The API is live: <a href="/api/docs">/api/docs</a> · <a href="/healthz">/healthz</a></p>
</body></html>
`

// spa serves the panel: its built files, and index.html for the client
// routes (history fallback). The fallback answers only a GET that accepts
// HTML at a path that looks like a page; the API (/api/...), the operator
// endpoints, the payment pages (/pay_...), hidden files and missing assets
// (/assets/..., any name with an extension) answer the JSON 404 instead.
// Hashed files under assets/ are cached for a year; index.html is
// revalidated every time (no-cache, with an ETag). A file with a .br or .gz
// copy from the build (frontend/scripts/compress-dist.mjs) is sent as that
// copy to a client that accepts it.
func (s *server) spa(assets fs.FS) echo.HandlerFunc {
	index := spaIndex(assets, s.timeZone)
	etag := `"` + hex.EncodeToString(func() []byte { h := sha256.Sum256(index); return h[:8] }()) + `"`
	files := http.FileServer(http.FS(assets))
	serveIndex := func(c echo.Context) error {
		web.PageHeaders(c, cspSPA, "same-origin")
		h := c.Response().Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", etag)
		h.Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(c.Response(), c.Request(), "index.html", time.Time{}, bytes.NewReader(index))
		return nil
	}
	return func(c echo.Context) error {
		p := c.Param("*")
		switch {
		case p == "" || p == "index.html":
			return serveIndex(c)
		case !spaMayServe(p):
			return echo.ErrNotFound
		case p == "favicon.ico":
			// Pages without a <link rel="icon"> (the API reference, the
			// checkout page) still get the panel's icon, not a 404.
			if icon, err := fs.ReadFile(assets, "favicon.svg"); err == nil {
				c.Response().Header().Set("Cache-Control", "public, max-age=86400")
				return c.Blob(http.StatusOK, "image/svg+xml", icon)
			}
		}
		if st, err := fs.Stat(assets, p); err == nil && !st.IsDir() {
			if strings.HasPrefix(p, "assets/") {
				c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			} else {
				c.Response().Header().Set("Cache-Control", "no-cache")
			}
			if !servePrecompressed(c, assets, p) {
				files.ServeHTTP(c.Response(), c.Request())
			}
			return nil
		}
		if strings.HasPrefix(p, "assets/") || strings.Contains(path.Base(p), ".") || !acceptsHTML(c.Request()) {
			return echo.ErrNotFound
		}
		return serveIndex(c)
	}
}

// spaMayServe is false for the paths the panel never answers: the API, the
// operator endpoints and the payment pages (their unknown sub-paths), and
// hidden files (dist/.vite/manifest.json, dist/.gitkeep).
func spaMayServe(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	switch {
	case first == "api", first == "healthz", first == "readyz", first == "metrics", strings.HasPrefix(first, "pay_"):
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return false
		}
	}
	return true
}

// acceptsHTML is true for a browser's navigation (Accept: text/html, ...);
// fetch() and curl send */* and get a 404 for an unknown path, not a page.
func acceptsHTML(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		if strings.Contains(v, "text/html") || strings.Contains(v, "application/xhtml+xml") {
			return true
		}
	}
	return false
}

// spaIndex is dist/index.html with the time zone written into its head, or
// the "not built" page.
func spaIndex(assets fs.FS, tz string) []byte {
	b, err := fs.ReadFile(assets, "index.html")
	if err != nil {
		b = []byte(notBuilt)
	}
	if tz == "" {
		return b
	}
	meta := `<meta name="paygate-timezone" content="` + html.EscapeString(tz) + `">`
	if i := bytes.Index(b, []byte("</head>")); i >= 0 {
		return append(append(append([]byte{}, b[:i]...), meta...), b[i:]...)
	}
	return append([]byte(meta), b...)
}

// precodings are the build's precompressed copies of a file, best first.
var precodings = []struct{ coding, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// servePrecompressed answers with file p's .br or .gz copy when the client
// accepts that coding, and reports whether it did. A file with a copy is
// marked Vary: Accept-Encoding whichever form it is sent in.
func servePrecompressed(c echo.Context, assets fs.FS, p string) bool {
	r, h := c.Request(), c.Response().Header()
	varies := false
	for _, pc := range precodings {
		f, err := assets.Open(p + pc.ext)
		if err != nil {
			continue
		}
		if !varies {
			h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
			varies = true
		}
		body, ok := f.(io.ReadSeeker)
		if !ok || !acceptsEncoding(r, pc.coding) {
			f.Close()
			continue
		}
		defer f.Close()
		typ := mime.TypeByExtension(path.Ext(p))
		if typ == "" {
			typ = "application/octet-stream"
		}
		h.Set(echo.HeaderContentType, typ)
		h.Set(echo.HeaderContentEncoding, pc.coding)
		http.ServeContent(c.Response(), r, p, time.Time{}, body)
		return true
	}
	return false
}
