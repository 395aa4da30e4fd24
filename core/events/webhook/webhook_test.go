package webhook_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"paygate/core/events/webhook"
)

func TestScheduleEndsFailedAfterEightAttemptsOverADay(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	e, err := webhook.NewEvent(11, webhook.PaymentSuccess, map[string]any{"payment_id": "pay_1"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	d := webhook.NewDelivery(e, webhook.ToCallback, "https://shop.example/cb")
	if d.Status != webhook.StatusPending || !d.NextAttemptAt.Equal(t0) {
		t.Fatalf("new delivery %+v", d)
	}
	at := t0
	waits := []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 6 * time.Hour}
	for i, w := range waits {
		d.Record(webhook.NewAttempt(1, at, time.Second, 500, []byte("oops"), nil))
		if d.Status != webhook.StatusPending || !d.NextAttemptAt.Equal(at.Add(w)) || d.Attempts != i+1 {
			t.Fatalf("after failure %d: %+v", i+1, d)
		}
		at = d.NextAttemptAt
	}
	if span := at.Sub(t0); span < 23*time.Hour || span > 25*time.Hour {
		t.Fatalf("the last attempt comes %s after the first, not about a day", span)
	}
	d.Record(webhook.NewAttempt(1, at, time.Second, 0, nil, errors.New("timed out")))
	if d.Status != webhook.StatusFailed || d.Attempts != 8 || *d.LastError != "timed out" || d.LastStatusCode != nil {
		t.Fatalf("after the last attempt: %+v", d)
	}
	// Redelivery starts a fresh schedule; a 2xx ends it delivered.
	d.Redeliver(at.Add(time.Hour))
	if d.Status != webhook.StatusPending || d.Failures != 0 || !d.NextAttemptAt.Equal(at.Add(time.Hour)) {
		t.Fatalf("redelivered: %+v", d)
	}
	d.Record(webhook.NewAttempt(1, at.Add(time.Hour), time.Second, 204, nil, nil))
	if d.Status != webhook.StatusDelivered || d.DeliveredAt == nil || d.LastError != nil || *d.LastStatusCode != 204 {
		t.Fatalf("delivered: %+v", d)
	}
}

func TestAttemptKeepsASnippet(t *testing.T) {
	body := []byte(strings.Repeat("é", webhook.SnippetBytes)) // 2 bytes each: the cut must not split one
	a := webhook.NewAttempt(1, time.Now(), 1500*time.Millisecond, 302, body, nil)
	if len(a.Response) > webhook.SnippetBytes || !strings.HasPrefix(string(body), a.Response) || a.LatencyMs != 1500 {
		t.Fatalf("snippet %d bytes, latency %d", len(a.Response), a.LatencyMs)
	}
	if a.Succeeded() || a.Error != "answered HTTP 302" {
		t.Fatalf("a 302 is no delivery: %+v", a.Error)
	}
}

func TestAttemptSnippetIsValidUTF8(t *testing.T) {
	a := webhook.NewAttempt(1, time.Now(), time.Millisecond, 200, []byte("caf\xe9 \xff\xfe"), errors.New("bad \xff"))
	if !utf8.ValidString(a.Response) || a.Response != "caf\uFFFD \uFFFD" || !utf8.ValidString(a.Error) {
		t.Fatalf("snippet %q, error %q", a.Response, a.Error)
	}
}

func TestEventPayload(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	e, err := webhook.NewEvent(11, webhook.BalanceLow, map[string]string{"balance": "9.00"}, now)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Type      string            `json:"type"`
		Timestamp time.Time         `json:"timestamp"`
		Data      map[string]string `json:"data"`
	}
	if err := json.Unmarshal(e.Payload, &body); err != nil || body.Type != "balance.low" || !body.Timestamp.Equal(now) || body.Data["balance"] != "9.00" {
		t.Fatalf("payload %s: %v", e.Payload, err)
	}
	if !strings.HasPrefix(e.PublicID, "msg_") || len(e.PublicID) != 30 {
		t.Fatalf("public id %q", e.PublicID)
	}
}

func TestSecretAndSignature(t *testing.T) {
	s := webhook.NewSecret()
	k, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
	if !strings.HasPrefix(s, "whsec_") || err != nil || len(k) != 32 {
		t.Fatalf("secret %q: %v", s, err)
	}
	if s == webhook.NewSecret() {
		t.Fatal("two secrets alike")
	}
	// The Standard Webhooks specification's own example.
	sig, err := webhook.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil || sig != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("signature %q, %v", sig, err)
	}
	for _, bad := range []string{"", "whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_!!!"} {
		if _, err := webhook.Sign(bad, "msg_1", time.Now(), nil); !errors.Is(err, webhook.ErrBadSecret) {
			t.Fatalf("secret %q: %v", bad, err)
		}
	}
	h, err := webhook.Headers(s, "msg_1", time.Unix(1700000000, 0), []byte("{}"))
	if err != nil || h.Get("webhook-id") != "msg_1" || h.Get("webhook-timestamp") != "1700000000" ||
		!strings.HasPrefix(h.Get("webhook-signature"), "v1,") || h.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v, %v", h, err)
	}
}
