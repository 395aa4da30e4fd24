package storefront

import (
	"context"
	"net"
	"strings"

	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/resale/brand"
)

// Mailer brands every mail the service sends, in one place: a message to a
// reseller's customer goes out under the reseller's brand name, and its
// links point at the reseller's first verified domain instead of
// PUBLIC_BASE_URL's host (its scheme and port kept: the service answers the
// domain there); without a verified domain they stay on PUBLIC_BASE_URL.
// Links are only ever built on PUBLIC_BASE_URL, never on a request's Host.
// Any other message, an Unbranded one (an owner's claim of its address),
// or one whose brand cannot be read, passes unchanged.
func (b *Brands) Mailer(next panel.Mailer) panel.Mailer {
	if next == nil {
		return nil
	}
	return brandedMailer{b: b, next: next}
}

type brandedMailer struct {
	b    *Brands
	next panel.Mailer
}

func (m brandedMailer) Send(ctx context.Context, msg panel.Message) error {
	if br, ok := m.b.brandOf(ctx, msg.To); ok && !msg.Unbranded {
		msg.FromName = br.Name
		if host, ok := br.FirstVerified(); ok && m.b.cfg.PublicBaseURL != "" {
			base, own := m.b.cfg.PublicBaseURL, m.b.ownBase(host)
			msg.Link = rebase(msg.Link, base, own)
			msg.Text = strings.ReplaceAll(msg.Text, base+"/", own+"/")
		}
	}
	return m.next.Send(ctx, msg)
}

func rebase(link, base, own string) string {
	if rest, ok := strings.CutPrefix(link, base+"/"); ok {
		return own + "/" + rest
	}
	return link
}

// brandOf is the brand of the reseller of the account at email, if it is a
// customer whose reseller named its brand.
func (b *Brands) brandOf(ctx context.Context, email string) (brand.Brand, bool) {
	u, err := b.users.ByEmail(ctx, user.NormalizeEmail(email))
	if err != nil || u.ParentID == nil {
		return brand.Brand{}, false
	}
	br, err := b.store.Get(ctx, *u.ParentID)
	if err != nil || br.Name == "" {
		return brand.Brand{}, false
	}
	return br, true
}

// ownBase is PUBLIC_BASE_URL with its host replaced by a reseller's domain.
func (b *Brands) ownBase(domain string) string {
	scheme, rest, _ := strings.Cut(b.cfg.PublicBaseURL, "://")
	hostport, _, _ := strings.Cut(rest, "/")
	if _, port, err := net.SplitHostPort(hostport); err == nil {
		domain = net.JoinHostPort(domain, port)
	}
	return scheme + "://" + domain
}
