// Package verification checks that an Indian bank account, UPI address, PAN
// or Aadhaar number exists and whose it is, through a provider port. Only
// masked identifiers are ever stored or returned.
package verification

import (
	"context"
	"regexp"
	"strings"
	"time"

	"paygate/core/platform/errs"
	"paygate/core/platform/ident"
	"paygate/core/platform/sensitive"
)

// Type is what is verified.
type Type string

const (
	BankAccount Type = "bank_account"
	UPI         Type = "upi"
	PAN         Type = "pan"
	Aadhaar     Type = "aadhaar"
)

// Types lists the supported types, in documentation order.
var Types = []Type{BankAccount, UPI, PAN, Aadhaar}

// Request is one verification, with the fields of its type. Identifiers are
// normalised by Validate (trimmed; IFSC, PAN upper-cased; VPA lower-cased).
type Request struct {
	Type          Type
	AccountNumber string // bank_account
	IFSC          string // bank_account
	VPA           string // upi
	PAN           string // pan
	Name          string // pan, optional: compared with the name at source
	DOB           string // pan, optional: YYYY-MM-DD
	Aadhaar       string // aadhaar
}

var (
	vpaRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{1,255}@[a-z][a-z0-9]{1,63}$`)
	// PAN: five letters (the fourth is the holder's kind), four digits, a letter.
	panRe = regexp.MustCompile(`^[A-Z]{3}[ABCFGHJLPT][A-Z][0-9]{4}[A-Z]$`)
)

// Validate normalises r and checks the fields of its type: 422 with
// per-field errors. Fields of other types must be absent.
func (r *Request) Validate() error {
	fe := errs.FieldErrors{}
	r.AccountNumber = strings.TrimSpace(r.AccountNumber)
	r.IFSC = strings.ToUpper(strings.TrimSpace(r.IFSC))
	r.VPA = strings.ToLower(strings.TrimSpace(r.VPA))
	r.PAN = strings.ToUpper(strings.TrimSpace(r.PAN))
	r.Name = strings.TrimSpace(r.Name)
	r.DOB = strings.TrimSpace(r.DOB)
	r.Aadhaar = strings.ReplaceAll(strings.TrimSpace(r.Aadhaar), " ", "")

	fields := map[string]string{
		"account_number": r.AccountNumber, "ifsc": r.IFSC, "vpa": r.VPA, "pan": r.PAN,
		"name": r.Name, "dob": r.DOB, "aadhaar": r.Aadhaar,
	}
	var allowed []string
	switch r.Type {
	case BankAccount:
		allowed = []string{"account_number", "ifsc"}
		fe.Require("account_number", r.AccountNumber, ident.AccountNumber(r.AccountNumber), "must be 9 to 18 digits")
		fe.Require("ifsc", r.IFSC, ident.IFSC(r.IFSC), "must be an IFSC: 4 letters, 0, then 6 letters or digits")
	case UPI:
		allowed = []string{"vpa"}
		fe.Require("vpa", r.VPA, vpaRe.MatchString(r.VPA), "must be a UPI address such as name@bank")
	case PAN:
		allowed = []string{"pan", "name", "dob"}
		fe.Require("pan", r.PAN, panRe.MatchString(r.PAN), "must be a PAN such as ABCPE1234F")
		if len(r.Name) > 255 {
			fe.Add("name", "must be at most 255 characters")
		}
		if r.DOB != "" {
			if d, err := time.Parse(time.DateOnly, r.DOB); err != nil || d.Year() < 1900 || d.After(time.Now()) {
				fe.Add("dob", "must be a past date as YYYY-MM-DD")
			}
		}
	case Aadhaar:
		allowed = []string{"aadhaar"}
		fe.Require("aadhaar", r.Aadhaar, ident.Aadhaar(r.Aadhaar) && VerhoeffValid(r.Aadhaar),
			"must be 12 digits with a valid checksum")
	default:
		fe.Add("type", "must be bank_account, upi, pan or aadhaar")
		return fe.Err()
	}
	for name, v := range fields {
		if v != "" && !contains(allowed, name) {
			fe.Add(name, "is not a field of type "+string(r.Type))
		}
	}
	return fe.Err()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Masked is the identifier as it may be stored and shown: account, PAN
// and Aadhaar numbers with all but their last four characters as X (the
// masking of sensitive parameters, sensitive.Mask), the UPI address's
// handle with the start of its name.
func (r *Request) Masked() string {
	switch r.Type {
	case BankAccount:
		return sensitive.Mask(r.AccountNumber) + " / " + r.IFSC
	case UPI:
		name, handle, _ := strings.Cut(r.VPA, "@")
		keep := min(2, len(name))
		return name[:keep] + strings.Repeat("*", len(name)-keep) + "@" + handle
	case PAN:
		return sensitive.Mask(r.PAN)
	case Aadhaar:
		return sensitive.Mask(r.Aadhaar)
	}
	return ""
}

// Secrets are the request's identifiers that must never be stored or shown
// in full, for scrubbing a provider's answer that echoes them.
func (r *Request) Secrets() []string {
	var out []string
	for _, v := range []string{r.AccountNumber, r.PAN, r.Aadhaar} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Result is a provider's answer.
type Result struct {
	Verified     bool
	NameAtSource string // the registered name; empty when not verified
	ReferenceID  string // the provider's reference for this check
	Message      string // why it was not verified, when it was not
}

// Provider verifies identifiers. An error means no answer (timeout,
// outage): the caller is not billed.
type Provider interface {
	Verify(ctx context.Context, r Request) (Result, error)
}

// Verhoeff tables: the dihedral group D5's multiplication, the position
// permutation, and the inverse. Aadhaar's last digit is a Verhoeff check digit.
var (
	verhoeffD = [10][10]int{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 0, 6, 7, 8, 9, 5},
		{2, 3, 4, 0, 1, 7, 8, 9, 5, 6}, {3, 4, 0, 1, 2, 8, 9, 5, 6, 7},
		{4, 0, 1, 2, 3, 9, 5, 6, 7, 8}, {5, 9, 8, 7, 6, 0, 4, 3, 2, 1},
		{6, 5, 9, 8, 7, 1, 0, 4, 3, 2}, {7, 6, 5, 9, 8, 2, 1, 0, 4, 3},
		{8, 7, 6, 5, 9, 3, 2, 1, 0, 4}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
	}
	verhoeffP = [8][10]int{
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 5, 7, 6, 2, 8, 3, 0, 9, 4},
		{5, 8, 0, 3, 7, 9, 6, 1, 4, 2}, {8, 9, 1, 6, 0, 4, 3, 5, 2, 7},
		{9, 4, 5, 3, 1, 2, 6, 8, 7, 0}, {4, 2, 8, 6, 5, 7, 3, 9, 0, 1},
		{2, 7, 9, 3, 8, 0, 6, 4, 1, 5}, {7, 0, 4, 6, 9, 1, 3, 2, 5, 8},
	}
	verhoeffInv = [10]int{0, 4, 3, 2, 1, 5, 6, 7, 8, 9}
)

// VerhoeffValid reports whether digits (check digit last) pass the Verhoeff check.
func VerhoeffValid(digits string) bool {
	c := 0
	for i := 0; i < len(digits); i++ {
		d := digits[len(digits)-1-i]
		if d < '0' || d > '9' {
			return false
		}
		c = verhoeffD[c][verhoeffP[i%8][d-'0']]
	}
	return len(digits) > 0 && c == 0
}

// VerhoeffDigit is the check digit to append to digits.
func VerhoeffDigit(digits string) int {
	c := 0
	for i := 0; i < len(digits); i++ {
		d := digits[len(digits)-1-i]
		c = verhoeffD[c][verhoeffP[(i+1)%8][d-'0']]
	}
	return verhoeffInv[c]
}

// Record is one verification as stored: the identifier only masked.
type Record struct {
	ID           uint64
	UserID       uint64
	APIKeyID     uint64
	RequestID    string // the hit log's request_id
	Type         Type
	Masked       string
	Verified     bool
	NameAtSource string
	ReferenceID  string
	Message      string
	CreatedAt    time.Time
}

// Repository stores verification records.
type Repository interface {
	Create(ctx context.Context, r *Record) error
}
