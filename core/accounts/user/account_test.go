package user

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"paygate/core/platform/errs"
)

func TestWebhookURLProblem(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://hooks.example.com/paygate", true},
		{"http://203.0.113.7:8080/hook?x=1", true},
		{"https://" + strings.Repeat("a", 240) + ".com", true},
		{"https://" + strings.Repeat("a", 250) + ".com", false}, // over 255
		{"ftp://example.com/x", false},
		{"/relative/path", false},
		{"example.com/hook", false},
		{"https://", false},
		{"https://user:pw@example.com/x", false}, // credentials would be logged and shown
		{"https://:443/x", false},
		{"", false},
	} {
		if got := WebhookURLProblem(tc.url) == ""; got != tc.ok {
			t.Errorf("WebhookURLProblem(%.40q) ok = %v, want %v", tc.url, got, tc.ok)
		}
	}
}

func TestValidEmail(t *testing.T) {
	for _, tc := range []struct {
		email string
		ok    bool
	}{
		{"a@example.com", true},
		{"Asha <a@example.com>", false},
		{"not-an-email", false},
		{"", false},
		{strings.Repeat("a", 250) + "@example.com", false},
	} {
		if got := ValidEmail(tc.email); got != tc.ok {
			t.Errorf("ValidEmail(%.40q) = %v, want %v", tc.email, got, tc.ok)
		}
	}
}

func TestTakenFields(t *testing.T) {
	for _, tc := range []struct {
		err   error
		field string
	}{
		{ErrEmailTaken.Wrap(errors.New("duplicate")), "email"},
		{fmt.Errorf("create: %w", ErrPhoneTaken), "phone"},
	} {
		e, ok := errs.As(TakenFields(tc.err))
		if !ok || e.Kind != errs.Invalid || len(e.Fields) != 1 || e.Fields[tc.field][0] != TakenMessage {
			t.Errorf("TakenFields(%v) = %v", tc.err, e)
		}
	}
	other := errors.New("disk full")
	if TakenFields(other) != other || TakenFields(nil) != nil {
		t.Error("TakenFields changed an unrelated error")
	}
}
