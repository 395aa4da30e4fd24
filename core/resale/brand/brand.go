package brand

import (
	"net"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
)

const (
	MaxNameLen = 100 // brand_name, characters
	MaxDomains = 10  // host names per reseller
	maxHostLen = 253
)

// Brand is a reseller's brand: the brand columns of reseller_settings and its
// reseller_domains. The zero Brand (no row yet) is a reseller without one.
type Brand struct {
	ResellerID   uint64
	Name         string
	SupportEmail string
	SupportPhone string
	LogoPath     string // the stored file's server-chosen name; "" without a logo
	LogoType     string // its Content-Type
	Domains      []Domain
	UpdatedAt    time.Time
}

// Hosts are the host names of the brand's domains, whatever their state.
func (b Brand) Hosts() []string {
	out := make([]string, 0, len(b.Domains))
	for _, d := range b.Domains {
		out = append(out, d.Host)
	}
	return out
}

// FirstVerified is the first of the brand's domains its reseller proved, if any.
func (b Brand) FirstVerified() (string, bool) {
	for _, d := range b.Domains {
		if d.State == DomainVerified {
			return d.Host, true
		}
	}
	return "", false
}

// HasLogo reports whether a logo is stored.
func (b Brand) HasLogo() bool { return b.LogoPath != "" }

// Input is what a reseller sets with PUT /panel/brand.
type Input struct {
	Name         string
	SupportEmail string
	SupportPhone string
	Domains      []string
}

var (
	// ErrDomainTaken answers a domain that another reseller proved and
	// answers on.
	ErrDomainTaken = errs.E(errs.Conflict, "domain_taken", "A domain is already used by another account")
	// ErrNotReseller answers the brand routes of anyone but a reseller.
	ErrNotReseller = errs.E(errs.Forbidden, "reseller_only", "Only a reseller has a brand")
	// ErrNoLogo answers the logo of a host or reseller without one.
	ErrNoLogo = errs.E(errs.NotFound, "logo_not_found", "No logo is set")
)

// DomainTaken is ErrDomainTaken naming the host in the domains field.
func DomainTaken(host string) error {
	e := *ErrDomainTaken
	e.Fields = map[string][]string{"domains": {host + " is already used by another account"}}
	return &e
}

var labelPattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// NormalizeHost is the one form of a host that is stored and looked up:
// lower case, no surrounding blanks, no trailing dot, no port (a Host
// header's ":8080" or "[::1]:443").
func NormalizeHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.TrimSuffix(h, ".")
}

// ValidHost reports a DNS host name of two labels or more (letters, digits,
// inner dashes; punycode as is): no scheme, port, path, IP address or
// wildcard.
func ValidHost(h string) bool {
	if h == "" || len(h) > maxHostLen || net.ParseIP(h) != nil {
		return false
	}
	labels := strings.Split(h, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !labelPattern.MatchString(l) {
			return false
		}
	}
	// The top-level label is never all digits (that is an IPv4 in disguise).
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

// Validate trims and checks in and returns it cleaned: domains lower-cased,
// duplicates dropped, the platform's own host (reserved, "" for none)
// refused.
func (in Input) Validate(reserved string) (Input, error) {
	fe := errs.FieldErrors{}
	in.Name = strings.TrimSpace(in.Name)
	in.SupportEmail = user.NormalizeEmail(in.SupportEmail)
	in.SupportPhone = strings.TrimSpace(in.SupportPhone)
	switch {
	case in.Name == "":
		fe.Add("brand_name", "is required")
	case utf8.RuneCountInString(in.Name) > MaxNameLen || !utf8.ValidString(in.Name):
		fe.Add("brand_name", "must be at most 100 characters")
	case strings.ContainsAny(in.Name, "\r\n\t<>"):
		fe.Add("brand_name", "must be one line of text without < or >")
	}
	if in.SupportEmail != "" && !user.ValidEmail(in.SupportEmail) {
		fe.Add("support_email", "must be a valid email address")
	}
	if in.SupportPhone != "" && !user.ValidPhone(in.SupportPhone) {
		fe.Add("support_phone", "must be 10 to 15 digits")
	}
	domains := make([]string, 0, len(in.Domains))
	for _, d := range in.Domains {
		raw := strings.TrimSpace(d)
		h := strings.ToLower(raw)
		switch {
		case !ValidHost(h):
			fe.Add("domains", quote(raw)+" is not a host name (like panel.example.com: no scheme, port or path)")
		case reserved != "" && h == reserved:
			fe.Add("domains", h+" is the platform's own host")
		case !slices.Contains(domains, h):
			domains = append(domains, h)
		}
	}
	if len(domains) > MaxDomains {
		fe.Add("domains", "must list at most 10 host names")
	}
	in.Domains = domains
	return in, fe.Err()
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return `"` + s + `"`
}
