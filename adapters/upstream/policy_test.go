package upstream_test

import (
	"errors"
	"testing"

	"paygate/adapters/upstream"
)

func TestPolicyCheckURL(t *testing.T) {
	strict, open := upstream.Policy{}, upstream.Policy{AllowPrivate: true}
	for _, c := range []struct {
		url          string
		strict, open error
	}{
		{"https://hooks.example/x", nil, nil},
		{"https://8.8.8.8/x", nil, nil},
		{"http://127.0.0.1/x", upstream.ErrAddress, nil},
		{"http://[::1]:9/x", upstream.ErrAddress, nil},
		{"http://10.0.0.5/x", upstream.ErrAddress, nil},
		{"http://169.254.169.254/latest", upstream.ErrAddress, nil},
		{"http://[::ffff:192.168.0.1]/x", upstream.ErrAddress, nil},
		{"http://LOCALHOST/x", upstream.ErrAddress, nil},
		{"http://a.localhost./x", upstream.ErrAddress, nil},
		{"ftp://hooks.example/x", upstream.ErrScheme, upstream.ErrScheme},
		{"not a url", upstream.ErrInvalidURL, upstream.ErrInvalidURL},
	} {
		if err := strict.CheckURL(c.url); !errors.Is(err, c.strict) || (c.strict == nil) != (err == nil) {
			t.Errorf("strict %s: %v, want %v", c.url, err, c.strict)
		}
		if err := open.CheckURL(c.url); (c.open == nil) != (err == nil) || (c.open != nil && !errors.Is(err, c.open)) {
			t.Errorf("allow-private %s: %v, want %v", c.url, err, c.open)
		}
	}
}
