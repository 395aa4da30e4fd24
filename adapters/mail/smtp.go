package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"paygate/core/accounts/panel"
)

// SMTPConfig is where and as whom to send.
type SMTPConfig struct {
	Host     string
	Port     string
	Username string // empty: no AUTH
	Password string
	From     mail.Address
	// TLS is the STARTTLS configuration; nil verifies the server's
	// certificate against the system roots for Host.
	TLS     *tls.Config
	Timeout time.Duration // per message; 0 means 30 s
	// Plaintext allows a server without STARTTLS (SMTP_URL ?tls=none). Off,
	// only a loopback server may go without: the mail carries reset links.
	Plaintext bool
}

// ParseSMTPURL reads smtp://user:pass@host:port (port 587 when omitted),
// optionally with ?tls=none to allow a server that offers no STARTTLS.
func ParseSMTPURL(raw string) (SMTPConfig, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "smtp" || u.Hostname() == "" || u.Path != "" && u.Path != "/" {
		return SMTPConfig{}, errors.New("SMTP_URL must look like smtp://user:pass@host:port")
	}
	c := SMTPConfig{Host: u.Hostname(), Port: u.Port()}
	switch q := u.Query(); {
	case len(q) == 0:
	case len(q) == 1 && q.Get("tls") == "none":
		c.Plaintext = true
	default:
		return SMTPConfig{}, errors.New("SMTP_URL takes one option, ?tls=none (allow a server without STARTTLS)")
	}
	if c.Port == "" {
		c.Port = "587"
	}
	if u.User != nil {
		c.Username = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	return c, nil
}

// SMTP sends each message in its own connection: STARTTLS whenever the
// server offers it, then AUTH PLAIN when a username is set (net/smtp refuses
// to send a password unencrypted except to localhost).
type SMTP struct{ cfg SMTPConfig }

var _ panel.Mailer = (*SMTP)(nil)

// NewSMTP makes an SMTP mailer.
func NewSMTP(cfg SMTPConfig) *SMTP {
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &SMTP{cfg: cfg}
}

// Send delivers m to the server.
func (s *SMTP) Send(ctx context.Context, m panel.Message) error {
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return fmt.Errorf("recipient %q: %w", m.To, err)
	}
	if strings.ContainsAny(m.Subject, "\r\n") {
		return errors.New("subject contains a line break")
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	addr := net.JoinHostPort(s.cfg.Host, s.cfg.Port)
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", addr, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	c, err := smtp.NewClient(conn, s.cfg.Host)
	if err != nil {
		return fmt.Errorf("smtp greeting from %s: %w", addr, err)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("smtp hello: %w", err)
	}
	if ok, _ := c.Extension("STARTTLS"); !ok && !PlaintextAllowed(s.cfg.Host, s.cfg.Plaintext) {
		return fmt.Errorf("smtp server %s offers no STARTTLS: refusing to send links in clear (SMTP_URL ?tls=none allows it)", addr)
	} else if ok {
		tc := s.cfg.TLS
		if tc == nil {
			tc = &tls.Config{ServerName: s.cfg.Host, MinVersion: tls.VersionTLS12}
		}
		if err := c.StartTLS(tc); err != nil {
			return fmt.Errorf("smtp starttls: %w", err)
		}
	}
	if s.cfg.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.cfg.Username, s.cfg.Password, s.cfg.Host)); err != nil {
			return fmt.Errorf("smtp auth: %w", err)
		}
	}
	if err := c.Mail(s.cfg.From.Address); err != nil {
		return fmt.Errorf("smtp mail from: %w", err)
	}
	if err := c.Rcpt(to.Address); err != nil {
		return fmt.Errorf("smtp rcpt to: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp data: %w", err)
	}
	if _, err := w.Write(s.compose(to, m)); err != nil {
		return fmt.Errorf("smtp write: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp end of data: %w", err)
	}
	return c.Quit()
}

// PlaintextAllowed reports whether mail may go to host without STARTTLS:
// to a loopback relay, or when the operator opted in (?tls=none).
func PlaintextAllowed(host string, optIn bool) bool {
	if optIn || host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// compose writes the headers and the quoted-printable UTF-8 text body.
func (s *SMTP) compose(to *mail.Address, m panel.Message) []byte {
	var b bytes.Buffer
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	domain := s.cfg.From.Address[strings.LastIndexByte(s.cfg.From.Address, '@')+1:]
	from := s.cfg.From
	if m.FromName != "" { // a reseller's brand (brands.Brands.Mailer)
		from.Name = m.FromName
	}
	headers := [][2]string{
		{"From", from.String()},
		{"To", to.String()},
		{"Subject", mime.QEncoding.Encode("utf-8", m.Subject)},
		{"Date", time.Now().Format(time.RFC1123Z)},
		{"Message-ID", "<" + hex.EncodeToString(id) + "@" + domain + ">"},
		{"MIME-Version", "1.0"},
		{"Content-Type", "text/plain; charset=utf-8"},
		{"Content-Transfer-Encoding", "quoted-printable"},
	}
	for _, h := range headers {
		b.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	_, _ = qp.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n", "\r\n")))
	_ = qp.Close()
	return b.Bytes()
}
