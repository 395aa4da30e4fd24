// Package mail sends the core's email: through an SMTP server, or into the
// log when none is configured (a fresh install, development). SMTP: one
// connection per message, STARTTLS whenever offered (required, except to a
// loopback relay or with ?tls=none), AUTH PLAIN. The log mailer exists in
// development only; in production a failed send logs recipient, subject
// and error, never the link (links are credentials).
package mail

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"paygate/core/accounts/panel"
)

// Log writes each message's recipient, subject and link to the log instead of
// sending it: the developer's way to follow a verification or reset link. Its
// links are credentials, so production sets SMTP_URL.
type Log struct {
	log  *slog.Logger
	echo io.Writer // nil, or where each message is also written as two plain lines
}

var _ panel.Mailer = (*Log)(nil)

// NewLog makes a log mailer.
func NewLog(log *slog.Logger) *Log { return &Log{log: log} }

// Echo makes the mailer also write each message to w as two plain lines
// (recipient and subject, then the link), for a developer to read and
// click in the terminal rather than in a JSON log line.
func (l *Log) Echo(w io.Writer) *Log {
	l.echo = w
	return l
}

// Send logs the message; it never fails.
func (l *Log) Send(ctx context.Context, m panel.Message) error {
	l.log.InfoContext(ctx, "mail (not sent: SMTP_URL is empty)", "to", m.To, "from_name", m.FromName, "subject", m.Subject, "link", m.Link)
	if l.echo != nil {
		fmt.Fprintf(l.echo, "\nmail to %s: %s\n    %s\n\n", m.To, m.Subject, m.Link)
	}
	return nil
}
