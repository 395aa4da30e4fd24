package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix starts every signing secret; the rest is the key in base64
// (Standard Webhooks).
const SecretPrefix = "whsec_"

// NewSecret returns a new signing secret: "whsec_" and 32 random bytes in
// standard base64.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// ErrBadSecret: the stored secret is not "whsec_" and base64.
var ErrBadSecret = errors.New("webhook secret is not whsec_ followed by base64")

// key is the HMAC key of a secret: the base64-decoded part after "whsec_".
func key(secret string) ([]byte, error) {
	s, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok || s == "" {
		return nil, ErrBadSecret
	}
	k, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, ErrBadSecret
	}
	return k, nil
}

// Sign returns the webhook-signature value of one message: "v1," and the
// base64 HMAC-SHA256 of "<msgID>.<unix seconds>.<body>" keyed by secret.
func Sign(secret, msgID string, at time.Time, body []byte) (string, error) {
	k, err := key(secret)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(msgID + "." + strconv.FormatInt(at.Unix(), 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

// Headers are the Standard Webhooks headers of one attempt at a message,
// with its Content-Type.
func Headers(secret, msgID string, at time.Time, body []byte) (http.Header, error) {
	sig, err := Sign(secret, msgID, at, body)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Webhook-Id", msgID)
	h.Set("Webhook-Timestamp", strconv.FormatInt(at.Unix(), 10))
	h.Set("Webhook-Signature", sig)
	return h, nil
}
