package dburl

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"mysql://bench:s3cret@db:3306/paygate": "mysql://bench:xxxxx@db:3306/paygate",
		"mysql://root@127.0.0.1:3306/":         "mysql://root@127.0.0.1:3306/",
		"sqlite://data/paygate.db":             "sqlite://data/paygate.db",
		"mysql://u:s3cret@[db:3306/":           "(invalid URL)",
	} {
		if got := Redact(in); got != want || strings.Contains(got, "s3cret") {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
