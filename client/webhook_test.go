package client_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"paygate/client"
	"paygate/core/events/webhook"
)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// TestVerifyWebhookAgreesWithTheServerAndTheReference: a delivery signed
// by the server's signer (core/events/webhook) verifies, and so does one by the
// Standard Webhooks reference library; a changed body, id, timestamp or
// secret, or a stale delivery, does not.
func TestVerifyWebhookAgreesWithTheServerAndTheReference(t *testing.T) {
	now := time.Now()
	body := []byte(`{"type":"payment.success","data":{"amount":"1234567.89"}}`)
	h, err := webhook.Headers(secret, "msg_1", now, body)
	if err != nil {
		t.Fatal(err)
	}
	if err := client.VerifyWebhookRequest(secret, h, body); err != nil {
		t.Fatalf("server-signed delivery: %v", err)
	}
	ref, _ := standardwebhooks.NewWebhook(secret)
	sig, err := ref.Sign("msg_2", now, body)
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(now.Unix(), 10)
	if err := client.VerifyWebhook(secret, "msg_2", ts, body, "v1,bm90IGl0 "+sig); err != nil {
		t.Fatalf("reference-signed delivery (second of two signatures): %v", err)
	}
	mine, _ := client.SignWebhook(secret, "msg_2", now, body)
	if mine != sig {
		t.Fatalf("SignWebhook %q, the reference %q", mine, sig)
	}
	bad := []struct {
		name                      string
		secret, id, ts, signature string
		body                      []byte
		want                      error
	}{
		{"body changed", secret, "msg_2", ts, sig, []byte(`{"type":"payment.success"}`), client.ErrWebhookSignature},
		{"id changed", secret, "msg_3", ts, sig, body, client.ErrWebhookSignature},
		{"timestamp changed", secret, "msg_2", strconv.FormatInt(now.Unix()-1, 10), sig, body, client.ErrWebhookSignature},
		{"other secret", "whsec_" + "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=", "msg_2", ts, sig, body, client.ErrWebhookSignature},
		{"stale", secret, "msg_2", strconv.FormatInt(now.Add(-6*time.Minute).Unix(), 10), sig, body, client.ErrWebhookTimestamp},
		{"not a secret", "rs_abc", "msg_2", ts, sig, body, client.ErrWebhookSecret},
		{"no v1", secret, "msg_2", ts, "v2," + sig[3:], body, client.ErrWebhookSignature},
	}
	for _, b := range bad {
		if err := client.VerifyWebhook(b.secret, b.id, b.ts, b.body, b.signature); !errors.Is(err, b.want) {
			t.Errorf("%s: %v, want %v", b.name, err, b.want)
		}
	}
}
