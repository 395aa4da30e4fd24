package apikey

import (
	"net/netip"
	"strings"
	"testing"
)

// FuzzAllowList: parsing never panics; an accepted list normalises to a
// fixed point (normalising again changes nothing) that allows exactly the
// addresses the original allows.
func FuzzAllowList(f *testing.F) {
	for _, s := range []string{"", "1.2.3.4", "10.0.0.0/8, 192.168.1.1", "2001:db8::/32,::1", "::ffff:1.2.3.4", "::ffff:10.0.0.0/104",
		"::ffff:1.2.3.4/128", "1.2.3.4/33", "fe80::1%eth0", "1.2.3.4/24", " , ,", "300.1.1.1", "1.2.3.4/-1", "0.0.0.0/0"} {
		f.Add(s, "1.2.3.4")
		f.Add(s, "::ffff:10.1.2.3")
	}
	f.Fuzz(func(t *testing.T, list, ip string) {
		l, err := ParseAllowList(list)
		if err != nil {
			return
		}
		if len(l) > 100 {
			t.Fatalf("%d entries accepted", len(l))
		}
		norm, err := NormalizeAllowList(list)
		if err != nil {
			t.Fatalf("parsed but not normalised: %v", err)
		}
		again, err := NormalizeAllowList(norm)
		if err != nil || again != norm {
			t.Fatalf("%q → %q → %q (%v)", list, norm, again, err)
		}
		nl, _ := ParseAllowList(norm)
		addr, err := netip.ParseAddr(ip)
		if err != nil {
			return
		}
		if l.Allows(addr) != nl.Allows(addr) {
			t.Fatalf("%q and its normal form %q disagree on %s", list, norm, ip)
		}
		k := &Key{AllowedIPs: list}
		if strings.TrimSpace(list) != "" && k.AllowsIP(ip) != l.Allows(addr) {
			t.Fatalf("AllowsIP(%q) disagrees with the parsed list", ip)
		}
	})
}
