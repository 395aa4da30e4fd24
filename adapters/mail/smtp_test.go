package mail_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"io"
	"log/slog"
	"math/big"
	"mime"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/adapters/mail"
	"paygate/core/accounts/panel"
)

// session is what the fake server saw of one connection.
type session struct {
	tls      bool // STARTTLS was done
	authTLS  bool // AUTH came over TLS
	auth     string
	from, to string
	data     string
}

// fakeSMTP is a tiny SMTP server on loopback: EHLO, optional STARTTLS,
// AUTH PLAIN, MAIL, RCPT, DATA, QUIT.
type fakeSMTP struct {
	ln       net.Listener
	tls      *tls.Config // nil: STARTTLS not offered
	rejectTo bool
	mu       sync.Mutex
	sessions []*session
	wg       sync.WaitGroup
}

func newFakeSMTP(t *testing.T, tlsCfg *tls.Config) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeSMTP{ln: ln, tls: tlsCfg}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.wg.Add(1)
			go func() { defer f.wg.Done(); f.serve(c) }()
		}
	}()
	t.Cleanup(func() { ln.Close(); f.wg.Wait() })
	return f
}

func (f *fakeSMTP) port() string { _, p, _ := net.SplitHostPort(f.ln.Addr().String()); return p }

func (f *fakeSMTP) serve(conn net.Conn) {
	defer func() { conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	s := &session{}
	f.mu.Lock()
	f.sessions = append(f.sessions, s)
	f.mu.Unlock()
	r, w := bufio.NewReader(conn), conn
	say := func(line string) { io.WriteString(w, line+"\r\n") }
	say("220 fake ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		cmd := strings.ToUpper(strings.SplitN(line, " ", 2)[0])
		switch {
		case cmd == "EHLO":
			say("250-fake")
			if f.tls != nil && !s.tls {
				say("250-STARTTLS")
			}
			say("250 AUTH PLAIN")
		case cmd == "STARTTLS":
			say("220 go ahead")
			tc := tls.Server(conn, f.tls)
			if err := tc.Handshake(); err != nil {
				return
			}
			conn, s.tls = tc, true
			r, w = bufio.NewReader(tc), tc
		case cmd == "AUTH":
			parts := strings.Fields(line)
			b, _ := base64.StdEncoding.DecodeString(parts[len(parts)-1])
			s.auth, s.authTLS = string(b), s.tls
			say("235 ok")
		case strings.HasPrefix(strings.ToUpper(line), "MAIL FROM:"):
			s.from = line[len("MAIL FROM:"):]
			say("250 ok")
		case strings.HasPrefix(strings.ToUpper(line), "RCPT TO:"):
			if f.rejectTo {
				say("550 no such user")
				continue
			}
			s.to = line[len("RCPT TO:"):]
			say("250 ok")
		case cmd == "DATA":
			say("354 end with .")
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
			s.data = b.String()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("502 unknown")
		}
	}
}

func (f *fakeSMTP) only(t *testing.T) *session {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(f.sessions))
	}
	return f.sessions[0]
}

const resetLink = "http://localhost:8080/reset-password?token=pr_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&email=ada%40example.com"

var msg = panel.Message{To: "ada@example.com", Subject: "Reset your password — Paygate",
	Text: "Hello,\n\nopen " + resetLink + "\n", Link: resetLink}

func from(t *testing.T) netmail.Address {
	a, err := netmail.ParseAddress("Paygate <no-reply@paygate.test>")
	if err != nil {
		t.Fatal(err)
	}
	return *a
}

// body parses a received message and decodes its quoted-printable body.
func body(t *testing.T, data string) (*netmail.Message, string) {
	t.Helper()
	m, err := netmail.ReadMessage(strings.NewReader(data))
	if err != nil {
		t.Fatalf("received message: %v\n%s", err, data)
	}
	b, err := io.ReadAll(quotedprintable.NewReader(m.Body))
	if err != nil {
		t.Fatal(err)
	}
	return m, string(b)
}

func TestSMTPSendsPlainWithAuthOnLoopback(t *testing.T) {
	f := newFakeSMTP(t, nil)
	cfg, err := mail.ParseSMTPURL("smtp://mailer:s3cret@127.0.0.1:" + f.port())
	if err != nil {
		t.Fatal(err)
	}
	cfg.From = from(t)
	if err := mail.NewSMTP(cfg).Send(context.Background(), msg); err != nil {
		t.Fatalf("Send: %v", err)
	}
	s := f.only(t)
	if s.tls || s.auth != "\x00mailer\x00s3cret" || s.from != "<no-reply@paygate.test>" || s.to != "<ada@example.com>" {
		t.Fatalf("session %+v", s)
	}
	m, text := body(t, s.data)
	subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if subject != msg.Subject || m.Header.Get("To") != "<ada@example.com>" ||
		!strings.Contains(m.Header.Get("From"), "no-reply@paygate.test") || m.Header.Get("Message-Id") == "" {
		t.Fatalf("headers %v (subject %q)", m.Header, subject)
	}
	if strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n")) != strings.TrimSpace(msg.Text) {
		t.Fatalf("body %q", text)
	}
}

func TestSMTPUsesSTARTTLSWhenOffered(t *testing.T) {
	cert, pool := selfSigned(t)
	f := newFakeSMTP(t, &tls.Config{Certificates: []tls.Certificate{cert}})
	cfg, err := mail.ParseSMTPURL("smtp://mailer:s3cret@127.0.0.1:" + f.port())
	if err != nil {
		t.Fatal(err)
	}
	cfg.From = from(t)
	cfg.TLS = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
	if err := mail.NewSMTP(cfg).Send(context.Background(), msg); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if s := f.only(t); !s.tls || !s.authTLS || s.auth != "\x00mailer\x00s3cret" || s.data == "" {
		t.Fatalf("session %+v", s)
	}

	// A certificate the client does not trust stops the message before AUTH.
	f2 := newFakeSMTP(t, &tls.Config{Certificates: []tls.Certificate{cert}})
	cfg.Port = f2.port()
	cfg.TLS = nil
	if err := mail.NewSMTP(cfg).Send(context.Background(), msg); err == nil || !strings.Contains(err.Error(), "starttls") {
		t.Fatalf("untrusted certificate: err = %v", err)
	}
	if s := f2.only(t); s.auth != "" || s.data != "" {
		t.Fatalf("credentials or mail sent after a failed STARTTLS: %+v", s)
	}
}

func TestSMTPReportsRefusalAndBadInput(t *testing.T) {
	f := newFakeSMTP(t, nil)
	f.rejectTo = true
	cfg, _ := mail.ParseSMTPURL("smtp://127.0.0.1:" + f.port())
	cfg.From = from(t)
	m := mail.NewSMTP(cfg)
	if err := m.Send(context.Background(), msg); err == nil || !strings.Contains(err.Error(), "rcpt") {
		t.Fatalf("refused recipient: err = %v", err)
	}
	if s := f.only(t); s.auth != "" {
		t.Fatal("AUTH sent without a username")
	}
	bad := msg
	bad.Subject = "Hi\r\nBcc: victim@example.com"
	if err := m.Send(context.Background(), bad); err == nil {
		t.Fatal("subject with a line break sent")
	}
	bad = msg
	bad.To = "not an address"
	if err := m.Send(context.Background(), bad); err == nil {
		t.Fatal("bad recipient sent")
	}
	// Nothing listens: an error, not a hang.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	cfg.Port = port
	if err := mail.NewSMTP(cfg).Send(context.Background(), msg); err == nil {
		t.Fatal("send to a closed port succeeded")
	}
}

func TestParseSMTPURL(t *testing.T) {
	c, err := mail.ParseSMTPURL("smtp://user%40x:p%3Ass@mail.example.com")
	if err != nil || c.Host != "mail.example.com" || c.Port != "587" || c.Username != "user@x" || c.Password != "p:ss" {
		t.Fatalf("%+v %v", c, err)
	}
	if c, err := mail.ParseSMTPURL("smtp://relay.internal:25?tls=none"); err != nil || !c.Plaintext {
		t.Fatalf("?tls=none: %+v %v", c, err)
	}
	for _, bad := range []string{"", "mail.example.com:25", "smtps://h:465", "http://h", "smtp://", "smtp://h:25/path",
		"smtp://h:25?tls=off", "smtp://h:25?x=1"} {
		if _, err := mail.ParseSMTPURL(bad); err == nil {
			t.Errorf("ParseSMTPURL(%q) accepted", bad)
		}
	}
}

func TestLogMailerLogsRecipientSubjectAndLink(t *testing.T) {
	var buf bytes.Buffer
	l := mail.NewLog(slog.New(slog.NewTextHandler(&buf, nil)))
	if err := l.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"to=ada@example.com", "Reset your password", `link="http://localhost:8080/reset-password?token=pr_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG&email=ada%40example.com"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("log %q lacks %q", out, want)
		}
	}
}

// selfSigned makes a certificate for 127.0.0.1 and a pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

func TestPlaintextOnlyToLoopbackOrByChoice(t *testing.T) {
	for _, tc := range []struct {
		host  string
		optIn bool
		want  bool
	}{
		{"127.0.0.1", false, true}, {"::1", false, true}, {"localhost", false, true},
		{"mail.example.com", false, false}, {"203.0.113.5", false, false}, {"mail.example.com", true, true},
	} {
		if got := mail.PlaintextAllowed(tc.host, tc.optIn); got != tc.want {
			t.Errorf("PlaintextAllowed(%q, %v) = %v", tc.host, tc.optIn, got)
		}
	}
}

// A message with a FromName (a reseller's brand) goes out under that display
// name at MAIL_FROM's address.
func TestSMTPSendsUnderTheMessagesFromName(t *testing.T) {
	f := newFakeSMTP(t, nil)
	cfg, err := mail.ParseSMTPURL("smtp://127.0.0.1:" + f.port())
	if err != nil {
		t.Fatal(err)
	}
	cfg.From = from(t)
	branded := msg
	branded.FromName = "Acme Résellers"
	if err := mail.NewSMTP(cfg).Send(context.Background(), branded); err != nil {
		t.Fatalf("Send: %v", err)
	}
	m, _ := body(t, f.only(t).data)
	a, err := netmail.ParseAddress(m.Header.Get("From"))
	if err != nil || a.Name != "Acme Résellers" || a.Address != "no-reply@paygate.test" {
		t.Fatalf("From %q (%v)", m.Header.Get("From"), err)
	}
}
