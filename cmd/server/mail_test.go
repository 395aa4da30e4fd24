package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"paygate/adapters/mail"
)

// TestRegistrationMailIsLoggedWithoutSMTP starts the server without
// SMTP_URL: a registration's verification link, built on PUBLIC_BASE_URL,
// appears in the log.
func TestRegistrationMailIsLoggedWithoutSMTP(t *testing.T) {
	addr := freeAddr(t)
	env := map[string]string{"DATABASE_URL": "sqlite://" + filepath.Join(t.TempDir(), "app.db"), "HTTP_ADDR": addr, "STORAGE_DIR": t.TempDir(),
		"PUBLIC_BASE_URL": "https://panel.example.com/", "ADMIN_PASSWORD": "admin-password-1"}
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, func(k string) string { return env[k] }, out) }()
	defer func() {
		cancel()
		<-done
	}()
	base := "http://" + addr
	waitReady(t, base, done)
	res, err := http.Post(base+"/api/v1/panel/auth/register", "application/json",
		strings.NewReader(`{"name":"Asha","email":"asha@example.com","phone":"9876543210","password":"asha-password-1"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("register: %d", res.StatusCode)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(out.String(), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["to"] == "asha@example.com" {
				if link, _ := m["link"].(string); !strings.HasPrefix(link, "https://panel.example.com/verify-email?token=") {
					t.Fatalf("logged mail %v", m)
				}
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no mail in the log:\n%s", out.String())
}

func TestMailConfig(t *testing.T) {
	get := func(env map[string]string) func(string) string { return func(k string) string { return env[k] } }
	cfg, _, err := parseConfig(nil, get(map[string]string{"SMTP_URL": "smtp://u:p@mail.example.com:2525", "MAIL_FROM": "Billing <billing@example.com>"}))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, ok := newMailer(cfg, log).(*mail.SMTP); !ok || cfg.MailFrom.Address != "billing@example.com" {
		t.Fatalf("SMTP_URL set: %T, from %v", newMailer(cfg, log), cfg.MailFrom)
	}
	cfg, _, err = parseConfig(nil, get(map[string]string{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := newMailer(cfg, log).(*mail.Log); !ok || cfg.MailFrom.Address != "no-reply@localhost" || cfg.PublicBaseURL != "http://localhost:8080" {
		t.Fatalf("defaults: %T %v %s", newMailer(cfg, log), cfg.MailFrom, cfg.PublicBaseURL)
	}
	for _, env := range []map[string]string{
		{"SMTP_URL": "mail.example.com:25"},
		{"SMTP_URL": "http://mail.example.com"},
		{"MAIL_FROM": "not an address"},
		{"PUBLIC_BASE_URL": "ftp://example.com"},
		{"PUBLIC_BASE_URL": "localhost:8080"},
	} {
		if _, _, err := parseConfig(nil, get(env)); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
}
