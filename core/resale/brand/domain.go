package brand

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"paygate/core/platform/errs"
)

// DomainState is where a reseller's claim on a host stands.
type DomainState string

const (
	// DomainPending: claimed, not proven. The host shows no brand,
	// registers no customer and no mail links to it.
	DomainPending DomainState = "pending"
	// DomainVerified: proven by its reseller; at most one claim on a host is.
	DomainVerified DomainState = "verified"
	// DomainLost: another reseller proved the host first.
	DomainLost DomainState = "lost"
)

// Domain is one reseller's claim on a host.
type Domain struct {
	Host       string
	State      DomainState
	Token      string     // what the reseller publishes to prove control
	VerifiedAt *time.Time // when it was proven
	CheckedAt  *time.Time // the last check, if any
	Problem    string     // what the last failed check found ("" after a success)
	CreatedAt  time.Time
}

// TXTPrefix names the DNS record that proves control of a host:
// TXTPrefix + host holds the claim's token.
const TXTPrefix = "_paygate-verify."

// ChallengePath is where the platform answers a claim's token on the host
// itself: ChallengePath + token answers the token, on that Host only.
const ChallengePath = "/.well-known/paygate-verification/"

// TXTName is the DNS name whose TXT record proves control of host.
func TXTName(host string) string { return TXTPrefix + host }

// NewToken is a fresh claim token: 128 random bits.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return "pgv_" + hex.EncodeToString(b[:])
}

// Prober is what the platform sees of a host from outside: its DNS and
// what a request to it is answered.
type Prober interface {
	// TXT lists the TXT records of a DNS name (none: an empty list or a
	// NotFound error).
	TXT(ctx context.Context, name string) ([]string, error)
	// Get fetches url (no redirects, a small body cap) and returns its
	// status and body.
	Get(ctx context.Context, url string) (status int, body []byte, err error)
}

var (
	// ErrDomainNotFound answers a check of a host the reseller does not claim.
	ErrDomainNotFound = errs.E(errs.NotFound, "domain_not_found", "This domain is not one of your brand's domains")
	// ErrDomainUnproven answers a check that failed; its message says what failed.
	ErrDomainUnproven = errs.E(errs.Invalid, "domain_not_verified", "The domain could not be verified")
	// ErrDomainChecksUnavailable answers a check on a service wired without a prober.
	ErrDomainChecksUnavailable = errs.E(errs.Unavailable, "domain_checks_unavailable", "Domain checks are not available")
)

// Unproven is ErrDomainUnproven saying why, in the domain field.
func Unproven(problem string) error {
	e := *ErrDomainUnproven
	e.Message = "The domain could not be verified: " + problem
	e.Fields = map[string][]string{"domain": {problem}}
	return &e
}

// HasToken reports whether a TXT record set holds token (a record may be
// split in strings by the resolver; blanks and quotes around it are ignored).
func HasToken(records []string, token string) bool {
	return token != "" && slices.ContainsFunc(records, func(r string) bool {
		return strings.Trim(strings.TrimSpace(r), `"`) == token
	})
}

// AnswersChallenge reports whether a fetch of the challenge URL was the
// platform's own answer for token.
func AnswersChallenge(status int, body []byte, token string) bool {
	return status == 200 && token != "" && strings.TrimSpace(string(body)) == token
}
