package apikey

import (
	"regexp"
	"strings"
	"testing"
)

func TestCredentialsFormatAndHash(t *testing.T) {
	k, s := NewCredentials()
	if !regexp.MustCompile(`^rk_live_[0-9A-Za-z]{32}$`).MatchString(k) {
		t.Fatalf("key %q", k)
	}
	if !regexp.MustCompile(`^rs_[0-9A-Za-z]{48}$`).MatchString(s) {
		t.Fatalf("secret %q", s)
	}
	k2, s2 := NewCredentials()
	if k == k2 || s == s2 {
		t.Fatal("credentials repeat")
	}
	key := Key{SecretHash: HashSecret(s)}
	if !key.SecretMatches(s) || key.SecretMatches(s2) || key.SecretMatches("") {
		t.Fatal("secret comparison wrong")
	}
	if len(key.SecretHash) != 64 || key.SecretHash == s {
		t.Fatal("secret must be stored as a SHA-256 hex hash")
	}
}

func TestAllowList(t *testing.T) {
	cases := []struct {
		list, ip string
		want     bool
	}{
		{"", "203.0.113.7", true},
		{"203.0.113.7", "203.0.113.7", true},
		{"203.0.113.7", "203.0.113.8", false},
		{"203.0.113.7, 10.0.0.0/8", "10.200.3.4", true},
		{"10.0.0.0/8", "11.0.0.1", false},
		{"2001:db8::/32", "2001:db8:1::5", true},
		{"2001:db8::/32", "2001:db9::5", false},
		{"203.0.113.7", "::ffff:203.0.113.7", true},
		{"127.0.0.1", "not-an-ip", false},
	}
	for _, c := range cases {
		k := Key{AllowedIPs: c.list}
		if got := k.AllowsIP(c.ip); got != c.want {
			t.Errorf("list %q ip %q = %v, want %v", c.list, c.ip, got, c.want)
		}
	}
}

func TestNormalizeAllowList(t *testing.T) {
	got, err := NormalizeAllowList(" 203.0.113.7 ,10.1.2.3/8,, 2001:db8::/32")
	if err != nil || got != "203.0.113.7,10.0.0.0/8,2001:db8::/32" {
		t.Fatalf("got %q %v", got, err)
	}
	for _, bad := range []string{"300.1.1.1", "10.0.0.0/33", "example.com", "fe80::1%eth0"} {
		if _, err := NormalizeAllowList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Found by FuzzAllowList: an IPv4-mapped IPv6 range is its IPv4 range, so
// it matches IPv4 callers and its normal form is a fixed point.
func TestAllowListMappedRanges(t *testing.T) {
	for in, want := range map[string]string{"::ffff:1.2.3.4/128": "1.2.3.4", "::ffff:10.0.0.0/104": "10.0.0.0/8", "::ffff:1.2.3.4": "1.2.3.4"} {
		got, err := NormalizeAllowList(in)
		if err != nil || got != want {
			t.Errorf("NormalizeAllowList(%q) = %q, %v; want %q", in, got, err, want)
		}
		k := Key{AllowedIPs: in}
		if !k.AllowsIP(strings.Split(want, "/")[0]) || k.AllowsIP("11.0.0.1") {
			t.Errorf("%q: AllowsIP wrong", in)
		}
	}
}

func TestRestrictionsAndServices(t *testing.T) {
	r := Restrictions{Name: "", DailyLimit: 0, AllowedIPs: "nope"}
	if err := r.Validate(); err == nil {
		t.Fatal("invalid restrictions accepted")
	}
	k := Key{AllowedServices: []uint64{3, 5}}
	if !k.AllowsService(5) || k.AllowsService(4) {
		t.Fatal("allowed services wrong")
	}
	if !(&Key{}).AllowsService(99) {
		t.Fatal("empty list must allow every service")
	}
}
