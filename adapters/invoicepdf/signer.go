package invoicepdf

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/digitorus/pdf"
	"github.com/digitorus/pdfsign/sign"
	"software.sslmate.com/src/go-pkcs12"
)

// Signer puts a digital signature on a finished PDF (docs/decisions.md, "Tax
// invoices, credit notes and statements"): an incremental update whose
// signature dictionary (adbe.pkcs7.detached, a certification signature that
// permits no later change) holds a detached PKCS#7 signature over every byte
// of the file but the signature itself, made with github.com/digitorus/pdfsign.
// It holds the key and certificate read once at start-up and is safe for
// concurrent use.
type Signer struct {
	key   crypto.Signer
	cert  *x509.Certificate
	chain []*x509.Certificate // cert first, then its issuers as the file gave them
	name  string
	now   func() time.Time
}

// Errors of NewSigner, so the caller can say which setting is wrong.
var (
	// ErrSigningPassword: the password does not open the PKCS#12 file.
	ErrSigningPassword = errors.New("the password does not open the PKCS#12 file")
	// ErrSigningFile: the bytes are no usable PKCS#12 file (not PKCS#12,
	// no key, a key that cannot sign, an expired certificate).
	ErrSigningFile = errors.New("not a usable PKCS#12 signing certificate")
)

// NewSigner reads a PKCS#12 file (a private key, its certificate and any
// issuers) with its password. It refuses a certificate that is not valid at
// now, since a signature made with it would not be trusted. The errors wrap
// ErrSigningPassword or ErrSigningFile and never contain the password.
func NewSigner(p12 []byte, password string, now func() time.Time) (*Signer, error) {
	if now == nil {
		now = time.Now
	}
	key, cert, issuers, err := pkcs12.DecodeChain(p12, password)
	if errors.Is(err, pkcs12.ErrIncorrectPassword) {
		return nil, ErrSigningPassword
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSigningFile, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%w: its %T key cannot sign", ErrSigningFile, key)
	}
	if t := now(); t.Before(cert.NotBefore) || t.After(cert.NotAfter) {
		return nil, fmt.Errorf("%w: the certificate of %q is valid only from %s to %s",
			ErrSigningFile, signerName(cert), cert.NotBefore.UTC().Format(time.RFC3339), cert.NotAfter.UTC().Format(time.RFC3339))
	}
	return &Signer{key: signer, cert: cert, chain: append([]*x509.Certificate{cert}, issuers...), name: signerName(cert), now: now}, nil
}

// signerName is who the certificate names: its common name, else its
// organisation.
func signerName(cert *x509.Certificate) string {
	if n := strings.TrimSpace(cert.Subject.CommonName); n != "" {
		return n
	}
	if len(cert.Subject.Organization) > 0 {
		return strings.TrimSpace(cert.Subject.Organization[0])
	}
	return cert.Subject.String()
}

// Name is the signer the certificate names, as the PDF prints it.
func (s *Signer) Name() string { return s.name }

// Sign returns doc with the signature appended; doc's own bytes are kept
// unchanged at the start of the result.
func (s *Signer) Sign(doc []byte, reason string) ([]byte, error) {
	rdr, err := pdf.NewReader(bytes.NewReader(doc), int64(len(doc)))
	if err != nil {
		return nil, fmt.Errorf("invoicepdf: sign: read the PDF: %w", err)
	}
	var out bytes.Buffer
	err = sign.Sign(bytes.NewReader(doc), &out, rdr, int64(len(doc)), sign.SignData{
		Signature: sign.SignDataSignature{
			Info: sign.SignDataSignatureInfo{
				Name:   s.name,
				Reason: reason,
				Date:   s.now(),
			},
			CertType:   sign.CertificationSignature,
			DocMDPPerm: sign.DoNotAllowAnyChangesPerms,
		},
		Signer:            s.key,
		DigestAlgorithm:   crypto.SHA256,
		Certificate:       s.cert,
		CertificateChains: [][]*x509.Certificate{s.chain},
	})
	if err != nil {
		return nil, fmt.Errorf("invoicepdf: sign: %w", err)
	}
	return out.Bytes(), nil
}
