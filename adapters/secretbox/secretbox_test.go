package secretbox_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"paygate/adapters/secretbox"
)

func newKey(t *testing.T) secretbox.Key {
	t.Helper()
	k, err := secretbox.ParseKey(secretbox.GenerateKey())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSealOpenRoundTrip(t *testing.T) {
	k := newKey(t)
	box := secretbox.New(k)
	for _, plain := range []string{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "x", "ключ ✓", strings.Repeat("p", 500)} {
		sealed, err := box.Seal(plain)
		if err != nil {
			t.Fatal(err)
		}
		// (A one-letter value may occur in base64 by chance; longer ones may not.)
		if !strings.HasPrefix(sealed, "enc:v1:"+k.ID()+":") || len(plain) > 4 && strings.Contains(sealed, plain) {
			t.Fatalf("sealed %q as %q", plain, sealed)
		}
		if again, _ := box.Seal(plain); again == sealed {
			t.Fatal("two seals of one value are equal: the nonce is not random")
		}
		got, err := box.Open(sealed)
		if err != nil || got != plain {
			t.Fatalf("Open = %q, %v; want %q", got, err, plain)
		}
		if !box.Current(sealed) || !box.Holds(sealed) {
			t.Fatal("a value sealed under the current key is not current")
		}
	}
	// A 500-character provider key fits the widened column (00017).
	if sealed, _ := box.Seal(strings.Repeat("p", 500)); len(sealed) > 1024 {
		t.Fatalf("a 500-character value seals to %d characters", len(sealed))
	}
	if sealed, _ := box.Seal("whsec_" + strings.Repeat("A", 44)); len(sealed) > 255 {
		t.Fatalf("a webhook secret seals to %d characters", len(sealed))
	}
	if sealed, err := box.Seal(""); sealed != "" || err != nil {
		t.Fatalf("the empty string sealed as %q, %v", sealed, err)
	}
}

func TestOpenWithAnotherKeyFails(t *testing.T) {
	a, b := newKey(t), newKey(t)
	sealed, _ := secretbox.New(a).Seal("secret")
	if _, err := secretbox.New(b).Open(sealed); !errors.Is(err, secretbox.ErrUnknownKey) {
		t.Fatalf("another key opened it: %v", err)
	}
	if secretbox.New(b).Holds(sealed) || secretbox.New(b).Current(sealed) {
		t.Fatal("a box without the key claims it")
	}
	// The same key id with other key bytes: authentication fails.
	forged := strings.Replace(sealed, a.ID(), b.ID(), 1)
	if _, err := secretbox.New(b).Open(forged); !errors.Is(err, secretbox.ErrCorrupt) {
		t.Fatalf("a value under another key opened: %v", err)
	}
}

func TestPreviousKeyOpensCurrentSeals(t *testing.T) {
	old, cur := newKey(t), newKey(t)
	sealedOld, _ := secretbox.New(old).Seal("rotate me")
	box := secretbox.New(cur, old)
	if got, err := box.Open(sealedOld); err != nil || got != "rotate me" {
		t.Fatalf("previous key: %q, %v", got, err)
	}
	if box.Current(sealedOld) || !box.Holds(sealedOld) {
		t.Fatal("a value under the previous key must be held but not current")
	}
	sealed, _ := box.Seal("new")
	if !strings.Contains(sealed, ":"+cur.ID()+":") {
		t.Fatalf("sealed under %q, want the current key %s", sealed, cur.ID())
	}
}

func TestTamperedValueFails(t *testing.T) {
	box := secretbox.New(newKey(t))
	sealed, _ := box.Seal("whsec_secret")
	i := strings.LastIndex(sealed, ":") + 1
	raw, _ := base64.RawStdEncoding.DecodeString(sealed[i:])
	for pos := range raw {
		b := append([]byte(nil), raw...)
		b[pos] ^= 1
		if _, err := box.Open(sealed[:i] + base64.RawStdEncoding.EncodeToString(b)); !errors.Is(err, secretbox.ErrCorrupt) {
			t.Fatalf("flipping byte %d: %v", pos, err)
		}
	}
	for _, bad := range []string{"enc:", "enc:v1:", "enc:v2:" + sealed[7:], sealed[:i] + "!!!", sealed[:i] + "AAAA", sealed[:len(sealed)-2]} {
		if _, err := box.Open(bad); err == nil {
			t.Fatalf("%q opened", bad)
		}
	}
}

func TestLegacyPlaintextOpensAsItself(t *testing.T) {
	box := secretbox.New(newKey(t))
	if got, err := box.Open("whsec_legacy"); err != nil || got != "whsec_legacy" {
		t.Fatalf("legacy: %q, %v", got, err)
	}
	if box.Current("whsec_legacy") || !box.Holds("whsec_legacy") || !box.Current("") {
		t.Fatal("a plaintext is held, not current; the empty value needs nothing")
	}
}

func TestParseKey(t *testing.T) {
	good := secretbox.GenerateKey()
	a, err := secretbox.ParseKey(good)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := secretbox.ParseKey(good)
	if a.ID() != b.ID() || len(a.ID()) != 8 {
		t.Fatalf("key ids %q %q", a.ID(), b.ID())
	}
	for _, bad := range []string{"", "not base64!", base64.StdEncoding.EncodeToString(make([]byte, 16)), strings.Repeat("A", 44)} {
		if _, err := secretbox.ParseKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
