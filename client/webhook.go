package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WebhookTolerance is how far a delivery's webhook-timestamp may be from
// the receiver's clock (Standard Webhooks' default): an older delivery is
// refused, so a captured one cannot be replayed later.
const WebhookTolerance = 5 * time.Minute

// Errors of VerifyWebhook.
var (
	ErrWebhookSecret    = errors.New("webhook secret is not whsec_ followed by base64")
	ErrWebhookTimestamp = errors.New("webhook-timestamp is not unix seconds within the tolerance")
	ErrWebhookSignature = errors.New("no webhook-signature matches the body")
)

// VerifyWebhook checks one event delivery: the Webhook-Signature header
// (space-separated "v1,<base64>" entries) must hold the base64 HMAC-SHA256
// of "<id>.<timestamp>.<body>" keyed by the base64 part of the account's
// "whsec_" secret, and the Webhook-Timestamp (unix seconds) must be within
// WebhookTolerance of now. id, timestamp and signatureHeader are the
// Webhook-Id, Webhook-Timestamp and Webhook-Signature headers; body is the
// request body exactly as received (before any JSON decoding).
func VerifyWebhook(secret, id, timestamp string, body []byte, signatureHeader string) error {
	return VerifyWebhookAt(secret, id, timestamp, body, signatureHeader, time.Now())
}

// VerifyWebhookAt is VerifyWebhook with the receiver's clock at now.
func VerifyWebhookAt(secret, id, timestamp string, body []byte, signatureHeader string, now time.Time) error {
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return ErrWebhookTimestamp
	}
	if d := now.Unix() - ts; math.Abs(float64(d)) > WebhookTolerance.Seconds() { // seconds, not money
		return ErrWebhookTimestamp
	}
	want, err := webhookSignature(secret, id, timestamp, body)
	if err != nil {
		return err
	}
	for _, entry := range strings.Fields(signatureHeader) {
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrWebhookSignature
}

// VerifyWebhookRequest is VerifyWebhook with the delivery's headers.
func VerifyWebhookRequest(secret string, h http.Header, body []byte) error {
	return VerifyWebhook(secret, h.Get("Webhook-Id"), h.Get("Webhook-Timestamp"), body, h.Get("Webhook-Signature"))
}

// SignWebhook returns the Webhook-Signature value the server sends for a
// delivery ("v1," and the base64 signature), for tests of a receiver.
func SignWebhook(secret, id string, at time.Time, body []byte) (string, error) {
	sig, err := webhookSignature(secret, id, strconv.FormatInt(at.Unix(), 10), body)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(sig), nil
}

func webhookSignature(secret, id, timestamp string, body []byte) ([]byte, error) {
	s, ok := strings.CutPrefix(secret, "whsec_")
	if !ok || s == "" {
		return nil, ErrWebhookSecret
	}
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, ErrWebhookSecret
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + timestamp + "."))
	m.Write(body)
	return m.Sum(nil), nil
}
