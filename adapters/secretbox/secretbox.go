// Package secretbox seals the secrets the store keeps (webhook signing
// secrets, provider keys) with AES-256-GCM under the data key (DATA_KEY).
//
// A sealed value reads "enc:v1:<kid>:<base64(nonce|ciphertext)>": kid names
// the key it was sealed under (the first 8 hex digits of the key's SHA-256),
// so a box holding the previous key too (DATA_KEY_PREVIOUS) still opens
// values sealed before a rotation. A value without the "enc:" prefix is a
// legacy plaintext and opens as itself. The nonce is random, 96 bits, per
// value. In development without DATA_KEY, cmd/server generates a key once
// into the settings table, so the sealing path is the one production runs.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Prefix starts every sealed value; Version is the format after it.
const (
	Prefix  = "enc:"
	version = "v1"
)

// KeySize is the data key's length in bytes (AES-256).
const KeySize = 32

var (
	// ErrUnknownKey: the value was sealed under a key the box does not hold.
	ErrUnknownKey = errors.New("secret sealed under an unknown data key (set DATA_KEY_PREVIOUS to the key it was sealed under)")
	// ErrCorrupt: the value is not a sealed value, or it was altered.
	ErrCorrupt = errors.New("sealed secret is malformed or was altered")
)

// Key is one data key and its id.
type Key struct {
	id   string
	aead cipher.AEAD
}

// ID is the key's id as written in sealed values.
func (k Key) ID() string { return k.id }

// ParseKey reads a data key: the standard base64 of 32 bytes.
func ParseKey(b64 string) (Key, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil || len(raw) != KeySize {
		return Key{}, fmt.Errorf("is not the base64 of %d bytes (make one with: openssl rand -base64 32)", KeySize)
	}
	return NewKey(raw)
}

// NewKey makes a key of 32 raw bytes.
func NewKey(raw []byte) (Key, error) {
	if len(raw) != KeySize {
		return Key{}, fmt.Errorf("data key is %d bytes, want %d", len(raw), KeySize)
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		return Key{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return Key{}, err
	}
	sum := sha256.Sum256(raw)
	return Key{id: hex.EncodeToString(sum[:4]), aead: aead}, nil
}

// GenerateKey returns a new random data key, base64 encoded.
func GenerateKey() string {
	raw := make([]byte, KeySize)
	_, _ = rand.Read(raw) // crypto/rand.Read never fails (Go 1.24)
	return base64.StdEncoding.EncodeToString(raw)
}

// Box seals under its current key and opens under the current or any
// previous key.
type Box struct {
	current Key
	keys    map[string]Key
}

// New makes a box sealing under current; previous keys only open.
func New(current Key, previous ...Key) *Box {
	b := &Box{current: current, keys: map[string]Key{current.id: current}}
	for _, k := range previous {
		if k.aead != nil {
			if _, dup := b.keys[k.id]; !dup {
				b.keys[k.id] = k
			}
		}
	}
	return b
}

// CurrentPrefix starts every value sealed under the current key.
func (b *Box) CurrentPrefix() string { return Prefix + version + ":" + b.current.id + ":" }

// Seal encrypts plaintext under the current key with a random nonce. The
// empty string stays empty: there is nothing to hide.
func (b *Box) Seal(plaintext string) (string, error) {
	if plaintext == "" {
		return "", nil
	}
	a := b.current.aead
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(plaintext)+a.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal secret: %w", err)
	}
	sealed := a.Seal(nonce, nonce, []byte(plaintext), nil)
	return b.CurrentPrefix() + base64.RawStdEncoding.EncodeToString(sealed), nil
}

// Open decrypts a sealed value; a value without the prefix is a legacy
// plaintext and is returned as it is.
func (b *Box) Open(stored string) (string, error) {
	if !strings.HasPrefix(stored, Prefix) {
		return stored, nil
	}
	kid, body, err := split(stored)
	if err != nil {
		return "", err
	}
	k, ok := b.keys[kid]
	if !ok {
		return "", fmt.Errorf("key %q: %w", kid, ErrUnknownKey)
	}
	sealed, err := base64.RawStdEncoding.DecodeString(body)
	n := k.aead.NonceSize()
	if err != nil || len(sealed) < n+k.aead.Overhead() {
		return "", ErrCorrupt
	}
	plain, err := k.aead.Open(nil, sealed[:n], sealed[n:], nil)
	if err != nil {
		return "", ErrCorrupt
	}
	return string(plain), nil
}

// Current reports whether stored needs no rotation: sealed under the
// current key, or empty.
func (b *Box) Current(stored string) bool {
	return stored == "" || strings.HasPrefix(stored, b.CurrentPrefix())
}

// Holds reports whether the box holds the key stored names: true for a
// legacy plaintext, false for a malformed sealed value. It decrypts nothing.
func (b *Box) Holds(stored string) bool {
	if !strings.HasPrefix(stored, Prefix) {
		return true
	}
	kid, _, err := split(stored)
	_, ok := b.keys[kid]
	return err == nil && ok
}

// split reads a sealed value's key id and its base64 part.
func split(stored string) (kid, body string, err error) {
	parts := strings.SplitN(stored[len(Prefix):], ":", 3)
	if len(parts) != 3 || parts[0] != version {
		return "", "", ErrCorrupt
	}
	return parts[1], parts[2], nil
}
