package web

import "testing"

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.7":            "i:203.0.113.7",
		"::ffff:203.0.113.7":     "i:203.0.113.7",
		"2001:db8:aa:bb:1:2:3:4": "i:2001:db8:aa:bb::/64",
		"not an ip":              "i:not an ip",
	} {
		if got := AddressKey(in); got != want {
			t.Errorf("addressKey(%q) = %q, want %q", in, got, want)
		}
	}
}
