// Package httpapi is the HTTP edge: Echo routes, request/response DTOs and
// the one error handler that maps core errors to statuses and the JSON
// error body. routes.go shows the whole API; api/openapi.yaml is its
// contract, and a test keeps the two listing the same endpoints.
//
// Layout. The handlers live by the product's area, one package each with
// one handler type (gateway has two: Handler and Payouts), named as core's
// areas: accounts, events, metering, gateway, money, billing, catalog and
// resale. Package web holds what they share (the strict JSON bind, lists,
// CSV exports, the caller, the error body). An area package imports web,
// and another area's package only to answer that area's resource as it
// does: ledger entries and hit logs as metering's history lists them (to
// accounts, gateway and resale), a payment as the gateway does (to money),
// a key as accounts does (to resale). None imports this package, which
// builds them (server.go), wires every route to one (routes.go), and keeps
// what belongs to the server as a whole: middleware, headers, compression,
// metrics, the error handler, the API docs page and the panel.
//
// Errors. Every error answers {"success": false, "message", "error",
// "request_id"} (422 adding "errors"); unknown errors are logged once,
// here, with the request id, and answer a generic 500. Every 429 carries
// Retry-After, added by the error handler when the handler did not set it:
// midnight for a key's daily limit, the next month for a plan's limit, the
// limiter's own wait otherwise (60 s by default). Metered answers, once the
// key is known, carry RateLimit-Limit, RateLimit-Remaining and
// RateLimit-Reset (seconds to local midnight), from metering's DailyQuota.
//
// Headers (headers.go). Every HTML page sends a Content-Security-Policy with
// no inline script, frame-ancestors 'none' and base-uri 'none', and a
// Referrer-Policy; every answer sends X-Content-Type-Options: nosniff, and
// Strict-Transport-Security: max-age=31536000 when PUBLIC_BASE_URL is https
// (no includeSubDomains or preload: sibling hosts are the operator's
// choice). The panel allows script-src 'self' (Vite emits no inline
// script) and inline styles (Mantine writes CSS variables at run time). The
// checkout page's one inline script, the status poll, carries a nonce new
// on each answer (a hash would differ per payment, as the script embeds its
// URL). The API docs page has no script. Every answer under /api/v1/
// carries Cache-Control: no-store, errors included.
//
// Compression (compress.go). The panel's build writes a .br (quality 11)
// and a .gz (level 9) copy of each text asset of 1 KiB or more
// (frontend/scripts/compress-dist.mjs); the server sends the best copy the
// client's Accept-Encoding allows (brotli, then gzip, q=0 honoured) with
// the file's own Content-Type, Content-Encoding and Vary: Accept-Encoding,
// else the file itself. Per request, gzip only (Echo's gzip middleware,
// level 6, answers of 1 KiB or more): panel JSON, /api/docs,
// /api/openapi.yaml, the checkout pages, index.html (it carries TIMEZONE,
// so it has no build copy) and /metrics; compressible answers say Vary:
// Accept-Encoding whether compressed or not. Never compressed: metered and
// gateway endpoints (a prefix test skips them, costing nanoseconds and no
// allocation, BenchmarkCompressionSkipOnMeteredCall), CSV exports,
// screenshots, range requests and health checks.
//
// The hosted checkout page (gateway/checkout.go) is server-rendered (html/template),
// polls its status every 3 s, and is no-store and no-referrer; its UPI QR
// is a data URL, a PNG drawn by web/qr.go from yeqown/go-qrcode/v2's modules
// (medium error correction, the 4-module quiet zone readers need), read
// back in a test by zbar's zbarimg (installed by make test; without it the
// test skips, except under CI=true). Expired: a 410 page; unknown: 404.
// The sandbox's Pay/Fail buttons and the UTR form accept same-origin posts
// only (Origin the request's host or PUBLIC_BASE_URL's; without Origin,
// Sec-Fetch-Site same-origin or none), else 403 cross_site_request; a post
// with neither header is refused too.
//
// The panel (spa.go). Client routes get index.html only for a GET that
// accepts text/html at a path without an extension; API paths, hidden
// files and missing assets get the JSON 404. Hashed assets are cached a
// year, index.html is no-cache and carries <meta name="paygate-timezone">.
//
// Tests hold the edge to its contract: every response in the HTTP tests is
// validated against api/openapi.yaml (whose response objects forbid extra
// fields), and every panel route has a row in authz_test.go's table
// (anonymous, user, reseller, admin) or the tests fail. An unknown panel
// path or method is 404 not_found to everyone; admin-only routes answer 403
// to other roles before any lookup; owner routes answer 404 for another
// user's resource, to admins too.
package httpapi
