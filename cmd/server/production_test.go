package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"mime/quotedprintable"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/adapters/secretbox"
	"paygate/adapters/sqlstore"
	"paygate/core/accounts/user"
	"paygate/internal/testdb"
)

// TestProductionNamesEveryMissingSetting: APP_ENV=production with nothing
// else refuses to start, naming each setting it needs in one error; so do
// unsafe values (a short JWT key, a bad data key, an http URL).
func TestProductionNamesEveryMissingSetting(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "p.db")
	want := []string{"JWT_SECRET", "DATA_KEY", "SMTP_URL", "PUBLIC_BASE_URL", "SANDBOX_PAYMENTS=true"}
	for _, env := range []map[string]string{
		{"APP_ENV": "production", "DATABASE_URL": db},
		{"APP_ENV": "production", "DATABASE_URL": db, "JWT_SECRET": "short", "DATA_KEY": "bm90IDMyIGJ5dGVz", "SMTP_URL": "mail.example.com:25",
			"PUBLIC_BASE_URL": "http://pay.example.com", "SANDBOX_PAYMENTS": "false"},
	} {
		err := run(context.Background(), nil, func(k string) string { return env[k] }, &syncBuffer{})
		if err == nil {
			t.Fatalf("%v started", env)
		}
		first := strings.SplitN(err.Error(), "\n", 2)[0] // the usage follows
		for _, w := range want {
			if !strings.Contains(first, w) {
				t.Errorf("%v: error does not name %s: %v", env, w, first)
			}
		}
	}
	for _, env := range []map[string]string{
		{"APP_ENV": "staging"},
		{"DATA_KEY": "too short"},
		{"DATA_KEY_PREVIOUS": secretbox.GenerateKey()}, // a previous key without a current one
		{"SANDBOX_PAYMENTS": "perhaps"},
	} {
		env["DATABASE_URL"] = db
		if _, _, err := parseConfig(nil, func(k string) string { return env[k] }); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
}

// productionEnv is every setting production needs, with SMTP at smtpAddr.
func productionEnv(t *testing.T, smtpAddr string) map[string]string {
	return map[string]string{
		"APP_ENV": "production", "DATABASE_URL": "sqlite://" + filepath.Join(t.TempDir(), "app.db"), "HTTP_ADDR": freeAddr(t),
		"STORAGE_DIR": t.TempDir(), "JWT_SECRET": strings.Repeat("j", 40), "DATA_KEY": secretbox.GenerateKey(),
		"SMTP_URL": "smtp://" + smtpAddr, "PUBLIC_BASE_URL": "https://pay.example.com", "SANDBOX_PAYMENTS": "true",
		"ADMIN_EMAIL": "root@example.com", "ADMIN_PASSWORD": "root-password-1",
	}
}

// TestProductionStartsAndNeverLogsResetLinks starts the server with every
// production setting: it serves, generates no key into the database, and a
// password reset's link goes to the SMTP server only, never to the log,
// also when sending fails.
func TestProductionStartsAndNeverLogsResetLinks(t *testing.T) {
	smtp := newFakeSMTP(t)
	env := productionEnv(t, smtp.addr())
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, out) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("server: %v", err)
			}
		}
	}
	defer stop()
	base := "http://" + env["HTTP_ADDR"]
	waitReady(t, base, done)

	post(t, base+"/api/v1/panel/auth/forgot-password", "", map[string]any{"email": "root@example.com"})
	body, _ := io.ReadAll(quotedprintable.NewReader(strings.NewReader(smtp.wait(t))))
	msg := string(body)
	token := regexp.MustCompile(`https://pay\.example\.com/reset-password\?token=(pr_[A-Za-z0-9]+)`).FindStringSubmatch(msg)
	if token == nil {
		t.Fatalf("no reset link in the mail:\n%s", msg)
	}
	// Sending fails: the error is logged, the link is not (a registration's
	// verification mail: the account's next reset mail is 5 minutes away).
	smtp.close()
	post(t, base+"/api/v1/panel/auth/register", "", map[string]any{"name": "Asha", "email": "asha@example.com",
		"phone": "9876543210", "password": "asha-password-1"})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), `"msg":"send mail"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no send mail error in the log:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	log := out.String()
	for _, leak := range []string{token[1], "reset-password", "verify-email", "not sent", strings.Repeat("j", 40), env["DATA_KEY"]} {
		if strings.Contains(log, leak) {
			t.Fatalf("the log holds %q:\n%s", leak, log)
		}
	}
	if !strings.Contains(log, `"app_env":"production"`) {
		t.Fatalf("the log does not say production:\n%s", log)
	}

	// Nothing generated: the keys are the operator's.
	s, err := sqlstore.Open(context.Background(), env["DATABASE_URL"], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var generated int64
	if err := s.DB().Raw("SELECT COUNT(*) FROM settings WHERE name IN ('jwt_secret', 'data_key')").Scan(&generated).Error; err != nil || generated != 0 {
		t.Fatalf("%d generated keys in the database, %v", generated, err)
	}
}

// TestDevelopmentStartsWithZeroSettings: without any setting the server
// starts in development, generating its JWT and data keys into the
// database, and seals the webhook secrets it stores under that data key.
func TestDevelopmentStartsWithZeroSettings(t *testing.T) {
	db := "sqlite://" + filepath.Join(t.TempDir(), "app.db")
	env := map[string]string{"DATABASE_URL": db, "HTTP_ADDR": freeAddr(t), "STORAGE_DIR": t.TempDir()} // only where to write, in a test
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, out) }()
	waitReady(t, "http://"+env["HTTP_ADDR"], done)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"app_env":"development"`) || !strings.Contains(out.String(), "DATA_KEY is empty") {
		t.Fatalf("log:\n%s", out.String())
	}
	s, err := sqlstore.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var key string
	if err := s.DB().Raw("SELECT value FROM settings WHERE name = 'data_key'").Scan(&key).Error; err != nil {
		t.Fatal(err)
	}
	k, err := secretbox.ParseKey(key)
	if err != nil {
		t.Fatalf("generated data key %q: %v", key, err)
	}
	var secret string // the initial admin's webhook signing secret
	if err := s.DB().Raw("SELECT api_secret FROM users WHERE role = 'admin'").Scan(&secret).Error; err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret, "enc:v1:"+k.ID()+":") {
		t.Fatalf("admin's webhook secret stored as %q, want sealed under the generated key", secret)
	}
}

// TestSecretsRotateCommand: `server secrets rotate` with DATA_KEY_PREVIOUS
// re-seals values under the previous key and legacy plaintext under
// DATA_KEY; they still read, and a second run changes nothing.
func TestSecretsRotateCommand(t *testing.T) {
	for _, dialect := range []string{"sqlite", "mysql"} {
		t.Run(dialect, func(t *testing.T) {
			db := testdb.SQLiteURL(t)
			if dialect == "mysql" {
				db = testdb.MySQLURL(t)
			}
			oldKey, newKey := secretbox.GenerateKey(), secretbox.GenerateKey()
			old, _ := secretbox.ParseKey(oldKey)
			cur, _ := secretbox.ParseKey(newKey)
			ctx := context.Background()
			s, err := sqlstore.Open(ctx, db, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			s.UseSealer(secretbox.New(old))
			var ids []uint64
			for i, sec := range []string{"whsec_one", "whsec_two", ""} {
				u := &user.User{Name: "U", Email: "u" + itoa(i) + "@example.com", Phone: "98765" + itoa(10000+i), PasswordHash: "x",
					Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter}
				if sec != "" {
					u.WebhookSecret = &sec
				}
				if err := s.Stores().Users.Create(ctx, u); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, u.ID)
			}
			if err := s.DB().Exec("UPDATE users SET api_secret = 'whsec_three' WHERE id = ?", ids[2]).Error; err != nil { // legacy plaintext
				t.Fatal(err)
			}
			env := map[string]string{"DATABASE_URL": db, "DATA_KEY": newKey, "DATA_KEY_PREVIOUS": oldKey}
			rotate := func() string {
				out := &syncBuffer{}
				if err := run(ctx, []string{"secrets", "rotate"}, func(k string) string { return env[k] }, out); err != nil {
					t.Fatalf("secrets rotate: %v\n%s", err, out.String())
				}
				return out.String()
			}
			if o := rotate(); !strings.Contains(o, "secrets rotate: 3 re-encrypted") {
				t.Fatalf("first run:\n%s", o)
			}
			raw := func() []string {
				var vs []string
				if err := s.DB().Raw("SELECT api_secret FROM users WHERE id IN ? ORDER BY id", ids).Scan(&vs).Error; err != nil {
					t.Fatal(err)
				}
				return vs
			}
			first := raw()
			for _, v := range first {
				if !strings.HasPrefix(v, "enc:v1:"+cur.ID()+":") {
					t.Fatalf("stored %q after rotate, want under DATA_KEY", v)
				}
			}
			if o := rotate(); !strings.Contains(o, "secrets rotate: 0 re-encrypted") {
				t.Fatalf("second run:\n%s", o)
			}
			if again := raw(); strings.Join(again, ",") != strings.Join(first, ",") {
				t.Fatal("the second run changed stored values")
			}
			s.UseSealer(secretbox.New(cur)) // DATA_KEY alone reads everything now
			for i, want := range []string{"whsec_one", "whsec_two", "whsec_three"} {
				u, err := s.Stores().Users.ByID(ctx, ids[i])
				if err != nil || u.WebhookSecret == nil || *u.WebhookSecret != want {
					t.Fatalf("user %d: %v, %v; want %s", ids[i], u, err, want)
				}
			}
			// Without DATA_KEY_PREVIOUS a server started on values under a
			// key it does not hold refuses to start (not a 500 per read).
			if err := s.DB().Exec("UPDATE users SET api_secret = ? WHERE id = ?", first[0], ids[0]).Error; err != nil {
				t.Fatal(err)
			}
			env = map[string]string{"DATABASE_URL": db, "DATA_KEY": oldKey, "HTTP_ADDR": freeAddr(t), "STORAGE_DIR": t.TempDir()}
			err = run(ctx, nil, func(k string) string { return env[k] }, &syncBuffer{})
			if err == nil || !strings.Contains(err.Error(), "users.api_secret") {
				t.Fatalf("start with an unknown data key: %v", err)
			}
		})
	}
}

// fakeSMTP accepts messages without STARTTLS or AUTH (loopback) and hands
// their data to the test.
type fakeSMTP struct {
	ln   net.Listener
	msgs chan string
	once sync.Once
}

func newFakeSMTP(t *testing.T) *fakeSMTP {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeSMTP{ln: ln, msgs: make(chan string, 10)}
	t.Cleanup(f.close)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(c)
		}
	}()
	return f
}

func (f *fakeSMTP) addr() string { return f.ln.Addr().String() }
func (f *fakeSMTP) close()       { f.once.Do(func() { f.ln.Close() }) }

func (f *fakeSMTP) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	say := func(s string) { _, _ = c.Write([]byte(s + "\r\n")) }
	say("220 fake ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch cmd := strings.ToUpper(strings.TrimSpace(line)); {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			say("250 fake")
		case cmd == "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			f.msgs <- b.String()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}

func (f *fakeSMTP) wait(t *testing.T) string {
	t.Helper()
	select {
	case m := <-f.msgs:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no mail reached the SMTP server")
		return ""
	}
}

// In production the log mailer is never used: without SMTP (which
// parseConfig refuses) there is no mailer at all, so no link is logged.
func TestProductionNeverMailsToTheLog(t *testing.T) {
	cfg := config{AppEnv: envProduction}
	if m := newMailer(cfg, slog.New(slog.DiscardHandler)); m != nil {
		t.Fatalf("production without SMTP_URL got mailer %T", m)
	}
}
