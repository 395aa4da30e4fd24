// Package hostprobe is the brand domain check's view of a host from the
// Internet (brand.Prober): its DNS TXT records through net.Resolver, and a
// GET through the host with the upstream calls' address policy
// (upstream.NewTransport: internal addresses refused at dial time unless
// UPSTREAM_ALLOW_PRIVATE), a short timeout, no redirects and a small body.
package hostprobe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"paygate/adapters/upstream"
	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
)

const (
	timeout = 10 * time.Second
	maxBody = 1 << 10 // a token is 36 bytes
	maxTXTs = 64
)

// Prober implements brand.Prober.
type Prober struct {
	resolver *net.Resolver
	policy   upstream.Policy
	http     *http.Client
}

var _ brand.Prober = (*Prober)(nil)

// New is a prober on the system resolver; allowPrivate is
// UPSTREAM_ALLOW_PRIVATE.
func New(allowPrivate bool) *Prober {
	t := upstream.NewTransport(allowPrivate)
	t.MaxIdleConnsPerHost, t.MaxIdleConns = 1, 16
	return &Prober{resolver: net.DefaultResolver, policy: upstream.Policy{AllowPrivate: allowPrivate},
		http: &http.Client{Transport: t, Timeout: timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// TXT lists name's TXT records; a name without any is errs NotFound.
func (p *Prober) TXT(ctx context.Context, name string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	recs, err := p.resolver.LookupTXT(ctx, name)
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return nil, errs.ErrNotFound
	} else if err != nil {
		return nil, fmt.Errorf("look up TXT %s: %w", name, err)
	}
	if len(recs) > maxTXTs {
		recs = recs[:maxTXTs]
	}
	return recs, nil
}

// Get fetches url through its host and reads at most 1 KB of the answer.
func (p *Prober) Get(ctx context.Context, url string) (int, []byte, error) {
	if err := p.policy.CheckURL(url); err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("User-Agent", "paygate-domain-check")
	res, err := p.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("fetch %s: %w", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return 0, nil, fmt.Errorf("read %s: %w", url, err)
	}
	return res.StatusCode, body, nil
}
