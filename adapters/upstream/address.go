package upstream

import (
	"net/netip"
	"net/url"
	"strings"
)

// blocked are the non-public ranges the netip predicates do not cover.
var blocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated)
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // deprecated site-local
	netip.MustParsePrefix("::ffff:0:0:0/96"), // IPv4-translated (SIIT)
	netip.MustParsePrefix("2001::/32"),       // Teredo: tunnels to an IPv4 address not visible here
}

// sixToFour is the 6to4 prefix: bits 16-48 are an IPv4 address, which
// must itself be public (a relay would forward to it).
var sixToFour = netip.MustParsePrefix("2002::/16")

// nat64 is the well-known NAT64 prefix: its last 32 bits are an IPv4
// address, which must itself be public.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Public reports whether ip is a public unicast address a provider may
// have: not loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7),
// link-local, unspecified, multicast, CGNAT (100.64/10) or reserved.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap() // ::ffff:10.0.0.1 is 10.0.0.1
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() ||
		ip.IsMulticast() {
		return false
	}
	if ip.Zone() != "" {
		return false
	}
	for _, p := range blocked {
		if p.Contains(ip) {
			return false
		}
	}
	if nat64.Contains(ip) {
		b := ip.As16()
		return Public(netip.AddrFrom4([4]byte(b[12:16])))
	}
	if sixToFour.Contains(ip) {
		b := ip.As16()
		return Public(netip.AddrFrom4([4]byte(b[2:6])))
	}
	return true
}

// Policy applies the rules of provider addresses to other outgoing URLs
// (webhook and payment callback URLs, webhook.TargetPolicy) when they are
// saved and again before each delivery: a literal address must be public
// and a "localhost" name is refused, unless AllowPrivate
// (UPSTREAM_ALLOW_PRIVATE). Names are resolved only when dialling, where
// NewTransport checks every address (DNS rebinding included).
type Policy struct{ AllowPrivate bool }

// CheckURL refuses raw when it is not an http(s) URL or names an internal
// address.
func (p Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return ErrInvalidURL
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return ErrScheme
	}
	if p.AllowPrivate {
		return nil
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return ErrAddress
	}
	if ip, err := netip.ParseAddr(host); err == nil && !Public(ip) {
		return ErrAddress
	}
	return nil
}
