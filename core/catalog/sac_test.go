package catalog

import (
	"testing"

	"paygate/core/platform/errs"
)

// TestServiceSAC: a service's own SAC is trimmed, "" means none (the
// supplier's default), and anything but 6 digits from 99 is a sac_code
// field error.
func TestServiceSAC(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		in   *string
		want *string
		bad  bool
	}{
		{nil, nil, false},
		{str(" 998314 "), str("998314"), false},
		{str("  "), nil, false},
		{str("123456"), nil, true},
		{str("99831"), nil, true},
		{str("99831x"), nil, true},
	} {
		s := Service{Name: "S", Slug: "s", Category: "c", ProviderURL: "https://example.com", SAC: tc.in}
		err := s.Validate()
		if tc.bad {
			if e, ok := errs.As(err); !ok || len(e.Fields["sac_code"]) == 0 {
				t.Errorf("%q: %v, want a sac_code error", *tc.in, err)
			}
			continue
		}
		if err != nil || (s.SAC == nil) != (tc.want == nil) || s.SAC != nil && *s.SAC != *tc.want {
			t.Errorf("%v: SAC %v, %v; want %v", tc.in, s.SAC, err, tc.want)
		}
	}
}
