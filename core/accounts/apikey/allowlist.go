package apikey

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// AllowList is a parsed allowed_ips value.
type AllowList []netip.Prefix

// ParseAllowList reads comma-separated IPv4/IPv6 addresses and CIDR ranges.
// An empty string is an empty list, which allows any address.
func ParseAllowList(s string) (AllowList, error) {
	var out AllowList
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		var p netip.Prefix
		if strings.Contains(part, "/") {
			pp, err := netip.ParsePrefix(part)
			if err != nil {
				return nil, fmt.Errorf("%q is not an IP address or CIDR range", part)
			}
			// An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) is the IPv4
			// range it maps: Allows unmaps the caller's address, so the
			// mapped form would never match (and would not normalise to a
			// fixed point). Found by FuzzAllowList.
			if a := pp.Addr(); a.Is4In6() && pp.Bits() >= 96 {
				pp = netip.PrefixFrom(a.Unmap(), pp.Bits()-96)
			}
			p = pp.Masked()
		} else {
			a, err := netip.ParseAddr(part)
			if err != nil || a.Zone() != "" {
				return nil, fmt.Errorf("%q is not an IP address or CIDR range", part)
			}
			a = a.Unmap()
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p)
	}
	if len(out) > 100 {
		return nil, errors.New("at most 100 entries")
	}
	return out, nil
}

// NormalizeAllowList parses and rewrites the list in canonical form.
func NormalizeAllowList(s string) (string, error) {
	l, err := ParseAllowList(s)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(l))
	for i, p := range l {
		if p.Bits() == p.Addr().BitLen() {
			parts[i] = p.Addr().String()
		} else {
			parts[i] = p.String()
		}
	}
	return strings.Join(parts, ","), nil
}

// Allows reports whether addr is allowed; an empty list allows everything.
func (l AllowList) Allows(addr netip.Addr) bool {
	if len(l) == 0 {
		return true
	}
	addr = addr.Unmap()
	for _, p := range l {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// AllowsIP checks a textual address against the key's list. An unparsable
// stored list or address allows nothing.
func (k *Key) AllowsIP(ip string) bool {
	if strings.TrimSpace(k.AllowedIPs) == "" {
		return true
	}
	l, err := ParseAllowList(k.AllowedIPs)
	if err != nil {
		return false
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	return l.Allows(a)
}
