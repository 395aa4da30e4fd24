package sqlbase

import (
	"errors"
	"fmt"
	"strings"
)

// Sealer encrypts the secrets the store keeps at rest (users.api_secret,
// api_services.provider_key); adapters/secretbox is the implementation.
// Repositories seal on write and open on read, so the core and every cache
// above the store see plaintext, and the database only ciphertext.
type Sealer interface {
	Seal(plaintext string) (string, error)
	// Open returns a sealed value's plaintext; a legacy plaintext (no
	// "enc:" prefix) as it is.
	Open(stored string) (string, error)
	// Current: stored is sealed under the current key (or empty), so a
	// rotation leaves it alone.
	Current(stored string) bool
	// Holds: stored is a plaintext or names a key the sealer holds.
	Holds(stored string) bool
}

// SealedPrefix starts every sealed value (secretbox.Prefix).
const SealedPrefix = "enc:"

// errNoDataKey: a sealed value was read by a store given no Sealer.
var errNoDataKey = errors.New("secret is sealed but the store has no data key (DATA_KEY)")

// PlaintextSealer is a store's Sealer until UseSealer: values are written as
// they are (the tools and tests that open a store without a data key) and a
// sealed value cannot be read.
type PlaintextSealer struct{}

func (PlaintextSealer) Seal(p string) (string, error) { return p, nil }
func (PlaintextSealer) Open(s string) (string, error) {
	if strings.HasPrefix(s, SealedPrefix) {
		return "", errNoDataKey
	}
	return s, nil
}
func (PlaintextSealer) Current(s string) bool { return !strings.HasPrefix(s, SealedPrefix) }
func (PlaintextSealer) Holds(s string) bool   { return !strings.HasPrefix(s, SealedPrefix) }

// SealPtr seals a nullable secret column's value.
func (b Base) SealPtr(column string, v *string) (*string, error) {
	if v == nil {
		return nil, nil
	}
	sealed, err := b.Sealer.Seal(*v)
	if err != nil {
		return nil, fmt.Errorf("seal %s: %w", column, err)
	}
	return &sealed, nil
}

// OpenPtr opens a nullable secret column's value.
func (b Base) OpenPtr(column string, v *string) (*string, error) {
	if v == nil {
		return nil, nil
	}
	plain, err := b.Sealer.Open(*v)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", column, err)
	}
	return &plain, nil
}
