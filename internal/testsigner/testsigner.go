// Package testsigner makes signing certificates for tests: a self-signed
// certificate and its key in a PKCS#12 file, encoded with the library the
// server decodes them with (software.sslmate.com/src/go-pkcs12).
package testsigner

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// PKCS12 is a PKCS#12 file holding a new ECDSA P-256 key and a self-signed
// certificate for commonName, valid from an hour ago for a year, sealed
// with password.
func PKCS12(t testing.TB, commonName, password string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(now.UnixNano()),
		Subject:               pkix.Name{CommonName: commonName, Organization: []string{commonName}, Country: []string{"IN"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(1, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageEmailProtection},
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	p12, err := pkcs12.Modern.Encode(key, cert, nil, password)
	if err != nil {
		t.Fatal(err)
	}
	return p12
}

// File writes PKCS12(t, commonName, password) into a temporary file and
// returns its path.
func File(t testing.TB, commonName, password string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "signing.p12")
	if err := os.WriteFile(path, PKCS12(t, commonName, password), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
