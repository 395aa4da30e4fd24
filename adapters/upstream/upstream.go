// Package upstream calls providers over HTTP for the metering use case: it
// implements metering.Upstream with a per-call timeout, a response size cap, a
// same-host redirect policy and an SSRF guard that checks every address at
// dial time. URLs with the sandbox scheme are served in-process.
package upstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"paygate/core/metering"
	"strings"
	"syscall"
	"time"
)

var _ metering.Upstream = (*Client)(nil)

// Errors returned by Do. Their text is short and safe to show to callers;
// the underlying cause, when there is one, is reachable with errors.Unwrap.
var (
	ErrInvalidURL     = errors.New("upstream URL is invalid")
	ErrScheme         = errors.New("upstream URL scheme not allowed")
	ErrAddress        = errors.New("upstream address not allowed")
	ErrTimeout        = errors.New("upstream timed out")
	ErrTooLarge       = errors.New("upstream response too large")
	ErrRedirect       = errors.New("upstream redirect refused")
	ErrConnection     = errors.New("connection failed")
	ErrCanceled       = errors.New("upstream call canceled")
	ErrNoSandbox      = errors.New("sandbox upstream not configured")
	ErrSandboxFailure = errors.New("sandbox upstream failed")
	errRedirectLimit  = errors.New("too many redirects")
	errOtherHost      = errors.New("redirect to another host")
)

// Defaults used when Options leaves a field zero.
const (
	DefaultTimeout = 15 * time.Second
	DefaultMaxBody = 1 << 20 // 1 MiB
	maxRedirects   = 3
)

// Options configure a Client.
type Options struct {
	// AllowPrivate permits loopback, private, link-local and other
	// non-public addresses (tests and demos only).
	AllowPrivate bool
	// DefaultTimeout applies when a request has no Timeout (15s if zero).
	DefaultTimeout time.Duration
	// MaxBody caps the response body; a longer one is an error (1 MiB if zero).
	MaxBody int64
	// Sandbox serves sandbox://<name>/<path> URLs in-process as
	// /<name>/<path>; nil refuses them.
	Sandbox http.Handler
}

// Client performs provider calls. It is safe for concurrent use and keeps
// one shared connection pool.
type Client struct {
	opts Options
	http *http.Client
}

// New returns a Client with a tuned, shared transport.
func New(opts Options) *Client {
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = DefaultTimeout
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	return &Client{
		opts: opts,
		http: &http.Client{Transport: NewTransport(opts.AllowPrivate), CheckRedirect: sameHostRedirects},
	}
}

// NewTransport returns the transport the Client uses: keep-alives, a pool
// big enough for hundreds of concurrent callers to one provider, no
// environment proxy (a proxy would hide the real destination from the
// address check), and unless allowPrivate the dial-time address check.
func NewTransport(allowPrivate bool) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = refusePrivate
	}
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          1024,
		MaxIdleConnsPerHost:   256,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// refusePrivate runs after DNS resolution, on the very address about to be
// connected to, so a name that resolves (or re-resolves) to an internal
// address is refused too.
func refusePrivate(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return ErrAddress
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !Public(ip) {
		return ErrAddress
	}
	return nil
}

// sameHostRedirects follows at most 3 redirects, and only to the same
// scheme and host[:port] as the original request: another host could be
// internal, and a provider has no reason to send us elsewhere.
func sameHostRedirects(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return errRedirectLimit
	}
	first := via[0].URL
	if req.URL.Scheme != first.Scheme || !strings.EqualFold(req.URL.Host, first.Host) {
		return errOtherHost
	}
	return nil
}

// Do performs one provider call. The timeout covers the whole call,
// reading the body included.
func (c *Client) Do(ctx context.Context, r metering.UpstreamRequest) (metering.UpstreamResponse, error) {
	u, err := url.Parse(r.URL)
	if err != nil {
		return metering.UpstreamResponse{}, ErrInvalidURL
	}
	switch u.Scheme {
	case "http", "https", "sandbox":
	default:
		return metering.UpstreamResponse{}, ErrScheme
	}
	if u.Host == "" {
		return metering.UpstreamResponse{}, ErrInvalidURL
	}
	if q := r.Query.Encode(); q != "" {
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += q
	}
	method := strings.ToUpper(r.Method)
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if method == http.MethodPost || method == http.MethodPut {
		body = bytes.NewReader(r.Body)
	}

	timeout := r.Timeout
	if timeout <= 0 {
		timeout = c.opts.DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	target := u
	if u.Scheme == "sandbox" {
		// The host names the fake provider: sandbox://sms-gateway/x → /sms-gateway/x.
		target = &url.URL{Path: "/" + u.Host + u.Path, RawQuery: u.RawQuery}
	}
	req, err := http.NewRequestWithContext(ctx, method, target.String(), body)
	if err != nil {
		return metering.UpstreamResponse{}, ErrInvalidURL
	}
	req.Header = r.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "paygate-upstream/1")
	}

	if u.Scheme == "sandbox" {
		return c.serveSandbox(ctx, req)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return metering.UpstreamResponse{}, c.classify(ctx, err)
	}
	defer resp.Body.Close()
	if resp.ContentLength > c.opts.MaxBody {
		return metering.UpstreamResponse{}, ErrTooLarge
	}
	b, err := readBody(resp, c.opts.MaxBody)
	if err != nil {
		return metering.UpstreamResponse{}, c.classify(ctx, err)
	}
	if int64(len(b)) > c.opts.MaxBody {
		return metering.UpstreamResponse{}, ErrTooLarge
	}
	return metering.UpstreamResponse{Status: resp.StatusCode, Body: b}, nil
}

// readBody reads at most max+1 bytes of resp's body: into a buffer of the
// announced length when there is one (the transport stops at it), else
// growing as io.ReadAll does.
func readBody(resp *http.Response, max int64) ([]byte, error) {
	if n := resp.ContentLength; n >= 0 && n <= max {
		b := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, b); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return b, nil
	}
	return io.ReadAll(io.LimitReader(resp.Body, max+1))
}

// CloseIdleConnections closes the pool's idle connections (shutdown, tests).
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// classify maps a transport error to one of the safe errors, keeping the
// cause for logs.
func (c *Client) classify(ctx context.Context, err error) error {
	var safe error
	var nerr net.Error
	switch {
	case errors.Is(err, ErrAddress):
		safe = ErrAddress
	case errors.Is(err, errOtherHost), errors.Is(err, errRedirectLimit):
		safe = ErrRedirect
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &nerr) && nerr.Timeout():
		safe = ErrTimeout
	case ctx.Err() != nil:
		safe = ErrCanceled
	default:
		safe = ErrConnection
	}
	return &causedError{safe: safe, cause: err}
}

// causedError shows only the safe text but keeps the cause for errors.Is/As.
type causedError struct{ safe, cause error }

func (e *causedError) Error() string   { return e.safe.Error() }
func (e *causedError) Unwrap() []error { return []error{e.safe, e.cause} }

// serveSandbox runs the in-process provider, with the same body cap. The
// handler gets the call's context, so it must honour cancellation.
func (c *Client) serveSandbox(ctx context.Context, req *http.Request) (resp metering.UpstreamResponse, err error) {
	if c.opts.Sandbox == nil {
		return metering.UpstreamResponse{}, ErrNoSandbox
	}
	req.RequestURI = req.URL.RequestURI()
	if req.Body == nil {
		req.Body = http.NoBody // as a server's handler would see it
	}
	req.RemoteAddr = "127.0.0.1:0"
	w := &capture{header: http.Header{}, max: c.opts.MaxBody}
	defer func() {
		if p := recover(); p != nil {
			resp, err = metering.UpstreamResponse{}, &causedError{safe: ErrSandboxFailure, cause: fmt.Errorf("panic: %v", p)}
		}
	}()
	c.opts.Sandbox.ServeHTTP(w, req)
	switch {
	case w.over:
		return metering.UpstreamResponse{}, ErrTooLarge
	case ctx.Err() != nil:
		return metering.UpstreamResponse{}, c.classify(ctx, ctx.Err())
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return metering.UpstreamResponse{Status: w.status, Body: w.body.Bytes()}, nil
}

// capture is a ResponseWriter that keeps at most max bytes.
type capture struct {
	header http.Header
	status int
	body   bytes.Buffer
	max    int64
	over   bool
}

func (w *capture) Header() http.Header { return w.header }

func (w *capture) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *capture) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if int64(w.body.Len()+len(p)) > w.max {
		w.over = true
		return 0, ErrTooLarge
	}
	return w.body.Write(p)
}
