package mail_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"paygate/adapters/mail"
	"paygate/core/accounts/panel"
)

// The log mailer writes each message to the log; with Echo, also as plain
// lines a developer can read and click, the link on a line of its own.
func TestLogMailerEchoesReadableLines(t *testing.T) {
	var logs, echo bytes.Buffer
	m := mail.NewLog(slog.New(slog.NewJSONHandler(&logs, nil))).Echo(&echo)
	link := "http://localhost:8080/verify-email?token=ev_abc"
	if err := m.Send(context.Background(), panel.Message{To: "asha@example.com", Subject: "Verify your email address", Link: link, Text: "secret body"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), `"link":"`+link+`"`) {
		t.Fatalf("log %s", logs.String())
	}
	lines := strings.Split(strings.TrimSpace(echo.String()), "\n")
	if len(lines) != 2 || lines[0] != "mail to asha@example.com: Verify your email address" || strings.TrimSpace(lines[1]) != link {
		t.Fatalf("echo %q", echo.String())
	}
	if strings.Contains(echo.String(), "secret body") {
		t.Fatal("the echo shows the link, not the body")
	}
}
