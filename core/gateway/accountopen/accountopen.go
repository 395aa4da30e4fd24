// Package accountopen holds digital account openings: a caller applies for
// a savings account on an applicant's behalf, the bank's provider sends the
// applicant to its KYC page, then opens the account or rejects it. The
// applicant's PAN and Aadhaar numbers are kept masked only; the full values
// reach the provider once, in the Submit of the request that carried them.
package accountopen

import (
	"context"
	"crypto/rand"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"

	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/ident"
	"paygate/core/platform/schedule"
	"paygate/core/platform/sensitive"
)

// Status is an opening's state: initiated (the provider has not answered
// yet) → kyc_pending (the applicant completes KYC at the provider's URL) →
// opened | rejected.
type Status string

const (
	StatusInitiated  Status = "initiated"
	StatusKYCPending Status = "kyc_pending"
	StatusOpened     Status = "opened"
	StatusRejected   Status = "rejected"
)

// Valid reports a known status.
func (s Status) Valid() bool {
	switch s {
	case StatusInitiated, StatusKYCPending, StatusOpened, StatusRejected:
		return true
	}
	return false
}

// Final reports an end state: nothing changes afterwards.
func (s Status) Final() bool { return s == StatusOpened || s == StatusRejected }

// ProductSavings is the only product: a savings account.
const ProductSavings = "savings"

// Limits of an application.
const (
	MinAge        = 18 // on the day of the application
	MinBirthYear  = 1900
	MaxNameLen    = 100 // characters
	MaxAddressLen = 300 // characters
	MaxEmailLen   = 254
)

// DefaultRejectReason is the reason of a rejection the provider gave none for.
const DefaultRejectReason = "Rejected by the bank"

// Applicant is the person the account is for. PAN and Aadhaar are masked
// (all but the last 4 characters as X); the rest is kept as sent.
type Applicant struct {
	Name    string
	DOB     string // YYYY-MM-DD
	PAN     string // masked: XXXXXX234F
	Aadhaar string // masked: XXXXXXXX9012
	Mobile  string
	Email   string
	Address string
}

// Opening is one account opening.
type Opening struct {
	ID          uint64
	PublicID    string // "aco_" + ULID: the opening_id callers see, and our reference at the provider
	UserID      uint64
	APIKeyID    uint64
	ReferenceID string // the caller's id, unique per user: retries return the same opening
	Product     string
	Applicant   Applicant
	Status      Status
	KYCURL      *string // while kyc_pending
	// AccountNumber is the new account's number, masked; IFSC its branch.
	AccountNumber *string
	IFSC          *string
	RejectReason  *string
	Livemode      bool // false when a sandbox provider handles it
	CreatedAt     time.Time
	UpdatedAt     time.Time

	// NextCheckAt is when the worker next looks at it; Attempts counts the
	// worker's claims (each one pushes NextCheckAt back by Backoff).
	NextCheckAt time.Time
	Attempts    int
}

// Worker schedule.
const (
	// FirstCheck is the first look after the provider's kyc_pending
	// answer, and the first backoff step; it doubles per attempt up to
	// MaxCheckInterval.
	FirstCheck       = 5 * time.Second
	MaxCheckInterval = 10 * time.Minute
)

// Backoff is the wait after the attempts-th claim: 5 s, 10 s, 20 s, …, at most 10 min.
func Backoff(attempts int) time.Duration {
	return schedule.Backoff(FirstCheck, MaxCheckInterval, attempts)
}

// SubmitGrace is how long after its creation an initiated opening is left
// to the request that created it before the worker submits it again:
// longer than the provider timeout, so a Submit still running is never
// duplicated.
func SubmitGrace(providerTimeout time.Duration) time.Duration {
	return schedule.SubmitGrace(providerTimeout, FirstCheck)
}

// Claim is the worker taking o for one attempt at now: Attempts + 1 and the
// next look after Backoff. The store writes it only if nobody claimed o
// since it was read.
func (o *Opening) Claim(now time.Time) Opening {
	next := *o
	next.Attempts++
	next.NextCheckAt = now.Add(Backoff(next.Attempts))
	next.UpdatedAt = now
	return next
}

var (
	ErrNotFound = errs.E(errs.NotFound, "account_opening_not_found", "Account opening not found")
	// ErrReferenceReused: a reference_id already used for another request.
	ErrReferenceReused = errs.E(errs.Conflict, "reference_id_reused", "reference_id was already used for a different account opening")
	// ErrBadOutcome: a provider answer that is no state of an opening (an
	// unknown status, kyc_pending without its URL, opened without the account).
	ErrBadOutcome = errs.E(errs.Internal, "bad_provider_outcome", "The provider's answer is not a valid account opening state")
)

var panRe = regexp.MustCompile(`^[A-Z]{5}[0-9]{4}[A-Z]$`)

// Request is a caller's application, as received.
type Request struct {
	Name, DOB, PAN, Aadhaar, Mobile, Email, Address, Product, ReferenceID string
}

// KYC is the applicant's identifiers in full. It lives only in the memory of
// the request that received them and goes to the provider in that
// request's Submit; it is never stored, logged or sent to anyone else.
type KYC struct {
	PAN     string
	Aadhaar string
}

// Empty reports a re-submission, which carries no identifiers.
func (k KYC) Empty() bool { return k.PAN == "" && k.Aadhaar == "" }

// Secrets are the full values, for scrubbing text that may echo them.
func (k KYC) Secrets() []string {
	var out []string
	for _, v := range []string{k.PAN, k.Aadhaar} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// normalised is r trimmed, PAN upper-cased, spaces taken out of the Aadhaar
// number and the product lower-cased.
func (r Request) normalised() Request {
	r.Name = strings.TrimSpace(r.Name)
	r.DOB = strings.TrimSpace(r.DOB)
	r.PAN = strings.ToUpper(strings.TrimSpace(r.PAN))
	r.Aadhaar = strings.ReplaceAll(strings.TrimSpace(r.Aadhaar), " ", "")
	r.Mobile = strings.TrimSpace(r.Mobile)
	r.Email = strings.TrimSpace(r.Email)
	r.Address = strings.TrimSpace(r.Address)
	r.Product = strings.ToLower(strings.TrimSpace(r.Product))
	r.ReferenceID = strings.TrimSpace(r.ReferenceID)
	return r
}

// Masked is what of r may be stored or logged, whether r is valid or not:
// the fields as sent, with the PAN and Aadhaar number masked. It is the
// hit log's request payload.
func (r Request) Masked() map[string]any {
	n := r.normalised()
	return map[string]any{
		"name": r.Name, "dob": r.DOB, "pan": sensitive.Mask(n.PAN), "aadhaar": sensitive.Mask(n.Aadhaar),
		"mobile": r.Mobile, "email": r.Email, "address": r.Address, "product": r.Product, "reference_id": r.ReferenceID,
	}
}

// New validates r and returns an initiated opening (identifiers masked)
// and the full identifiers for the provider. 422 with per-field errors.
// Age is counted on now's UTC date.
func New(r Request, now time.Time) (*Opening, KYC, error) {
	r = r.normalised()
	now = now.UTC()
	fe := errs.FieldErrors{}
	switch n := utf8.RuneCountInString(r.Name); {
	case n == 0:
		fe.Add("name", "is required")
	case n > MaxNameLen:
		fe.Add("name", "must be at most 100 characters")
	}
	if msg := dobProblem(r.DOB, now); msg != "" {
		fe.Add("dob", msg)
	}
	fe.Require("pan", r.PAN, panRe.MatchString(r.PAN), "must be a PAN such as ABCPE1234F")
	fe.Require("aadhaar", r.Aadhaar, ident.Aadhaar(r.Aadhaar), "must be 12 digits, not starting with 0 or 1")
	fe.Require("mobile", r.Mobile, ident.Mobile(r.Mobile), "must be a 10-digit Indian mobile number")
	fe.Require("email", r.Email, len(r.Email) <= MaxEmailLen && user.ValidEmail(r.Email), "must be an email address")
	switch n := utf8.RuneCountInString(r.Address); {
	case n == 0:
		fe.Add("address", "is required")
	case n > MaxAddressLen:
		fe.Add("address", "must be at most 300 characters")
	}
	if r.Product != ProductSavings {
		fe.Add("product", "must be savings")
	}
	fe.Require("reference_id", r.ReferenceID, ident.Reference(r.ReferenceID), "must be 1 to 64 letters, digits or . _ : -")
	if err := fe.Err(); err != nil {
		return nil, KYC{}, err
	}
	o := &Opening{
		PublicID: NewPublicID(now), ReferenceID: r.ReferenceID, Product: r.Product,
		Applicant: Applicant{Name: r.Name, DOB: r.DOB, PAN: sensitive.Mask(r.PAN), Aadhaar: sensitive.Mask(r.Aadhaar),
			Mobile: r.Mobile, Email: r.Email, Address: r.Address},
		Status: StatusInitiated, CreatedAt: now, UpdatedAt: now, NextCheckAt: now,
	}
	return o, KYC{PAN: r.PAN, Aadhaar: r.Aadhaar}, nil
}

func dobProblem(dob string, now time.Time) string {
	if dob == "" {
		return "is required"
	}
	d, err := time.Parse(time.DateOnly, dob)
	if err != nil || d.Year() < MinBirthYear {
		return "must be a date as YYYY-MM-DD"
	}
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if d.AddDate(MinAge, 0, 0).After(today) {
		return "the applicant must be 18 or older"
	}
	return ""
}

// NewPublicID is an opening_id: "aco_" + a ULID, unguessable and sortable.
func NewPublicID(now time.Time) string {
	// crypto/rand, not ulid.Make's default source: that one is math/rand.
	return "aco_" + ulid.MustNew(ulid.Timestamp(now), rand.Reader).String()
}

// Same reports whether o asks for the same opening as p (a retry). PAN and
// Aadhaar are compared by their masks, all that is kept of them: a retry
// that differs only in their hidden digits counts as the same request.
func (o *Opening) Same(p *Opening) bool {
	return o.Product == p.Product && o.Applicant == p.Applicant
}

// Outcome is the provider's answer: kyc_pending (with the KYC URL), opened
// (with the account) or rejected (with a reason).
type Outcome struct {
	Status        Status
	KYCURL        string
	AccountNumber string // in full; only its mask is kept
	IFSC          string
	Reason        string
}

// Apply is o after the provider's answer at now, and whether anything
// changed. A final opening never changes; an answer that is no valid
// state is ErrBadOutcome. Leaving kyc_pending drops the KYC URL.
func (o *Opening) Apply(out Outcome, now time.Time) (Opening, bool, error) {
	next := *o
	if o.Status.Final() {
		return next, false, nil
	}
	switch out.Status {
	case StatusKYCPending:
		if out.KYCURL == "" {
			return next, false, ErrBadOutcome
		}
		if o.Status == StatusKYCPending && o.KYCURL != nil && *o.KYCURL == out.KYCURL {
			return next, false, nil
		}
		u := out.KYCURL
		next.KYCURL = &u
	case StatusOpened:
		if out.AccountNumber == "" || out.IFSC == "" {
			return next, false, ErrBadOutcome
		}
		acct, ifsc := sensitive.Mask(out.AccountNumber), out.IFSC
		next.KYCURL, next.AccountNumber, next.IFSC = nil, &acct, &ifsc
	case StatusRejected:
		reason := out.Reason
		if reason == "" {
			reason = DefaultRejectReason
		}
		next.KYCURL, next.RejectReason = nil, &reason
	default:
		return next, false, ErrBadOutcome
	}
	next.Status = out.Status
	next.UpdatedAt = now.UTC()
	return next, true, nil
}

// Provider opens accounts at a bank. An error means no answer: the opening
// keeps its state and is asked again later.
//
// Submit MUST be idempotent at the provider by o.PublicID: a crash or a
// timeout leaves us not knowing whether a Submit arrived, so the worker
// submits again, and a second Submit of the same opening must answer the
// first one's state, not open a second account. kyc carries the full PAN
// and Aadhaar number only in the Submit of the request that received them;
// the worker's re-submission has an empty kyc (we keep masks only), so a
// provider takes the applicant's identifiers at its KYC page (kyc_url),
// from the applicant, and uses what Submit carried only to prefill it.
// Check is only called for openings whose Submit answered.
type Provider interface {
	Submit(ctx context.Context, o Opening, kyc KYC) (Outcome, error)
	Check(ctx context.Context, o Opening) (Outcome, error)
}

// Repository stores openings.
type Repository interface {
	// Create inserts o (ErrReferenceReused, of kind Conflict, when the user
	// already used o.ReferenceID).
	Create(ctx context.Context, o *Opening) error
	ByReference(ctx context.Context, userID uint64, referenceID string) (*Opening, error) // ErrNotFound
	ByID(ctx context.Context, id uint64) (*Opening, error)                                // ErrNotFound
	// Advance writes next's state (status, KYC URL, account, reason,
	// NextCheckAt, UpdatedAt) only if the row still has old's status: of
	// several writers one gets true.
	Advance(ctx context.Context, old, next *Opening) (bool, error)
	// Due lists initiated and kyc_pending openings whose NextCheckAt is not
	// after now, earliest NextCheckAt first.
	Due(ctx context.Context, now time.Time, limit int) ([]Opening, error)
	// Claim writes next (from old.Claim) only if the row still has old's
	// status and Attempts and is due at now: of several workers exactly one
	// gets true.
	Claim(ctx context.Context, old, next *Opening, now time.Time) (bool, error)
	List(ctx context.Context, f Filter) ([]Opening, int64, error)
}

// Filter selects openings in a list (newest first).
type Filter struct {
	UserID   *uint64
	Status   Status
	From, To *time.Time
	Page     int
	PerPage  int
}
