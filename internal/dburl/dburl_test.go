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

func TestOpenServerWantsAMySQLURL(t *testing.T) {
	for _, bad := range []string{"sqlite://data/app.db", "postgres://u:s3cret@db/x", "mysql://u:s3cret@[db:3306/"} {
		db, err := OpenServer(bad)
		if err == nil {
			db.Close()
			t.Errorf("OpenServer(%q): no error", bad)
		} else if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("OpenServer(%q): the error shows the password: %v", bad, err)
		}
	}
	db, err := OpenServer("mysql://root@127.0.0.1:1/ignored")
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}
