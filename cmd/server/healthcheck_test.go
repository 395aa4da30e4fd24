package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/internal/testdb"
)

// `server healthcheck` asks the server on HTTP_ADDR for /readyz: ready is
// exit 0, anything else an error (exit 1); it opens no database.
func TestHealthcheckCommandAsksReadyz(t *testing.T) {
	var status atomic.Int32
	status.Store(http.StatusOK)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	env := map[string]string{"HTTP_ADDR": ":" + port, "DATABASE_URL": "mysql://nobody@db.invalid:3306/none"}
	getenv := func(k string) string { return env[k] }
	var out bytes.Buffer
	if err := run(context.Background(), []string{"healthcheck"}, getenv, &out); err != nil || !strings.Contains(out.String(), "ready") {
		t.Fatalf("ready server: %v %q", err, out.String())
	}
	status.Store(http.StatusServiceUnavailable)
	if err := run(context.Background(), []string{"healthcheck"}, getenv, &out); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("unready server: %v", err)
	}
	srv.Close()
	if err := run(context.Background(), []string{"healthcheck"}, getenv, &out); err == nil {
		t.Fatal("no server: nil error")
	}
}

// DATABASE_PASSWORD (or its file) goes into DATABASE_URL percent-encoded,
// so any character MariaDB takes survives the URL.
func TestDatabasePasswordReplacesTheURLs(t *testing.T) {
	for _, pw := range []string{"plain", "p/a@s#s?w%rd", "a:b@c/d?e#f%25g h", `"'$&+,;=[]`, "ünïcødé"} {
		got, err := withDatabasePassword("mysql://paygate@db:3306/paygate?charset=utf8mb4", pw, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		if p, _ := u.User.Password(); p != pw || u.User.Username() != "paygate" || u.Host != "db:3306" || u.Path != "/paygate" ||
			u.Query().Get("charset") != "utf8mb4" {
			t.Errorf("password %q: URL %s reads back %q", pw, got, p)
		}
	}
	// From a file (a Docker secret), its trailing newline dropped; it
	// replaces a password the URL had.
	read := func(name string) ([]byte, error) {
		if name == "/run/secrets/db" {
			return []byte("s3cr/t@#\n"), nil
		}
		return nil, errors.New("no such file")
	}
	got, err := withDatabasePassword("mysql://paygate:old@db:3306/paygate", "", "/run/secrets/db", read)
	if u, _ := url.Parse(got); err != nil || u == nil {
		t.Fatalf("%s %v", got, err)
	} else if p, _ := u.User.Password(); p != "s3cr/t@#" {
		t.Fatalf("password from file %q", p)
	}
	if got, err := withDatabasePassword("sqlite://./data/app.db", "", "", nil); err != nil || got != "sqlite://./data/app.db" {
		t.Fatalf("nothing set: %s %v", got, err)
	}
	for _, bad := range []struct{ url, pw, file string }{
		{"sqlite://./data/app.db", "x", ""},
		{"mysql://db:3306/paygate", "x", ""},
		{"mysql://paygate@db:3306/paygate", "x", "/run/secrets/db"},
		{"mysql://paygate@db:3306/paygate", "", "/missing"},
	} {
		if _, err := withDatabasePassword(bad.url, bad.pw, bad.file, read); err == nil {
			t.Errorf("%+v: accepted", bad)
		}
	}
}

// On MariaDB, a user whose password holds every character a URL reserves
// connects with DATABASE_PASSWORD beside a password-less DATABASE_URL (what
// docker-compose.yml passes).
func TestDatabasePasswordConnectsToMariaDB(t *testing.T) {
	db := testdb.MySQLURL(t)
	ctx := context.Background()
	admin, err := sqlstore.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	u, _ := url.Parse(db)
	name := strings.TrimPrefix(u.Path, "/")
	const pw = `p/a@s#s?w%rd:'"$`
	login := "pg_" + name[len(name)-8:]
	for _, q := range []string{
		"CREATE USER '" + login + "'@'%' IDENTIFIED BY 'p/a@s#s?w%rd:''\"$'",
		"GRANT ALL ON `" + name + "`.* TO '" + login + "'@'%'",
	} {
		if err := admin.DB().Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() { admin.DB().Exec("DROP USER IF EXISTS '" + login + "'@'%'") })
	u.User = url.User(login)
	env := map[string]string{"DATABASE_URL": u.String(), "DATABASE_PASSWORD": pw}
	var out bytes.Buffer
	if err := run(ctx, []string{"migrate"}, func(k string) string { return env[k] }, &out); err != nil {
		t.Fatalf("migrate as %s: %v\n%s", login, err, out.String())
	}
	env["DATABASE_PASSWORD"] = "wrong"
	if err := run(ctx, []string{"migrate"}, func(k string) string { return env[k] }, &out); err == nil {
		t.Fatal("a wrong password connected")
	}
}
