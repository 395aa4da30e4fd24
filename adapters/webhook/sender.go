// Package webhook posts signed events to users' webhook and callback URLs:
// it implements webhook.Sender over net/http with the upstream package's
// transport, whose dial-time check refuses internal addresses (the SSRF
// rules of provider calls, DNS rebinding included).
package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"

	"paygate/adapters/upstream"
	"paygate/core/events/webhook"
)

var _ webhook.Sender = (*Sender)(nil)

// Sender posts events. It follows no redirect: a 3xx is an answer like any
// other non-2xx (a redirect could lead to an internal address, and a
// receiver has no reason to move).
type Sender struct{ http *http.Client }

// New returns a Sender; allowPrivate (UPSTREAM_ALLOW_PRIVATE) permits
// loopback and private addresses (tests and demos only).
func New(allowPrivate bool) *Sender {
	t := upstream.NewTransport(allowPrivate)
	t.MaxIdleConnsPerHost = 8
	return &Sender{http: &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Send posts r within ctx's deadline and reads at most
// webhook.SnippetBytes of the answer.
func (s *Sender) Send(ctx context.Context, r webhook.Request) (webhook.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return webhook.Response{}, upstream.ErrInvalidURL
	}
	req.Header = r.Header.Clone()
	res, err := s.http.Do(req)
	if err != nil {
		return webhook.Response{}, safe(ctx, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, webhook.SnippetBytes))
	// The rest is drained (a little) so the connection can be reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	return webhook.Response{Status: res.StatusCode, Body: body}, nil
}

// safe is an error text fit for the delivery log: no internal detail.
func safe(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, upstream.ErrAddress):
		return errors.New("address not allowed")
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return errors.New("timed out")
	case ctx.Err() != nil:
		return errors.New("canceled")
	}
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	switch {
	case errors.As(err, &dns):
		return errors.New("host name not resolved")
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused")
	case errors.As(err, &cert):
		return errors.New("TLS certificate not valid")
	}
	return errors.New("connection failed")
}
