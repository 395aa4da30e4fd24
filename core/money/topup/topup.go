package topup

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/utr"
)

type Status string

const (
	StatusPending  Status = "pending"
	StatusApproved Status = "approved"
	StatusRejected Status = "rejected"
)

func (s Status) Valid() bool { return s == StatusPending || s == StatusApproved || s == StatusRejected }

// DefaultMaxAmount is the largest amount one request may ask for unless
// configured otherwise (BALANCE_REQUEST_MAX).
var DefaultMaxAmount = decimal.RequireFromString("500000.00")

// PaymentMethods are the accepted values of payment_method; "" means upi.
var PaymentMethods = []string{"upi", "imps", "neft", "rtgs", "bank_transfer", "cheque"}

// DefaultPaymentMethod is the seed's default.
const DefaultPaymentMethod = "upi"

// Field limits.
const (
	MaxUTRLength     = 50
	MinUTRLength     = 6
	MaxRemarksLength = 1000
)

// Request is a balance request.
type Request struct {
	ID            uint64
	UserID        uint64
	Amount        decimal.Decimal
	UTRNumber     string
	PaymentMethod string
	Screenshot    *string // the stored file's name (server-chosen), nil without one
	Remarks       *string // the requester's
	Status        Status
	ApprovedBy    *uint64 // the deciding admin, for approvals and rejections alike
	ApprovedAt    *time.Time
	AdminRemarks  *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// MaxPending is how many undecided requests one user may have: each may
// carry a 5 MB file, so the cap bounds what one account can store.
const MaxPending = 10

var (
	ErrNotFound       = errs.E(errs.NotFound, "balance_request_not_found", "Balance request not found")
	ErrAlreadyDecided = errs.E(errs.Conflict, "already_decided", "Balance request already decided")
	ErrUTRTaken       = errs.E(errs.Conflict, "utr_taken", "This UTR number has already been submitted")
	ErrTooManyPending = errs.E(errs.Conflict, "too_many_pending_requests",
		fmt.Sprintf("You already have %d balance requests waiting for a decision", MaxPending))
	ErrScreenshotNotFound = errs.E(errs.NotFound, "screenshot_not_found", "This balance request has no screenshot")
	// ErrBalanceFull: approving would overflow the owner's DECIMAL(12,2)
	// balance; nothing is written and the request stays pending.
	ErrBalanceFull = errs.E(errs.Invalid, "balance_too_large", "The balance would exceed its maximum")
	// ErrResellerDecides: a reseller's customer paid its reseller, so the
	// platform's statement reconciliation never approves its request.
	ErrResellerDecides = errs.E(errs.Conflict, "reseller_decides",
		"A reseller's customer's balance request is decided by its reseller")
)

// utrPattern: letters, digits and hyphens, as banks print references
// (UPI/IMPS: 12 digits; NEFT: 16, RTGS: 22 characters).
var utrPattern = regexp.MustCompile(`^[A-Z0-9]+(-[A-Z0-9]+)*$`)

// Input is what a requester submits.
type Input struct {
	Amount        string
	UTRNumber     string
	PaymentMethod string
	Remarks       string
}

// New validates in and returns a pending request of userID. The UTR is
// kept in its canonical form, utr.Canonical (the unique index ignores case on both databases);
// an empty payment method is upi. max is the configured largest amount.
func New(userID uint64, in Input, max decimal.Decimal, now time.Time) (*Request, error) {
	fe := errs.FieldErrors{}
	amount, ok := inr.Parse(in.Amount, 2)
	switch {
	case strings.TrimSpace(in.Amount) == "":
		fe.Add("amount", "is required")
	case !ok:
		fe.Add("amount", "must be a decimal amount with at most 2 decimals, such as 1500.00")
	case !amount.IsPositive():
		fe.Add("amount", "must be greater than 0")
	case amount.GreaterThan(max) || !inr.FitsColumn(amount, 12, 2):
		fe.Add("amount", "must be at most "+inr.Format2(max))
	}
	ref := utr.Canonical(in.UTRNumber)
	switch {
	case ref == "":
		fe.Add("utr_number", "is required")
	case len(ref) > MaxUTRLength:
		fe.Add("utr_number", "must be at most 50 characters")
	case len(ref) < MinUTRLength:
		fe.Add("utr_number", "must be at least 6 characters")
	case !utrPattern.MatchString(ref):
		fe.Add("utr_number", "may contain only letters, digits and single hyphens between them")
	}
	method := strings.ToLower(strings.TrimSpace(in.PaymentMethod))
	if method == "" {
		method = DefaultPaymentMethod
	} else if !ValidPaymentMethod(method) {
		fe.Add("payment_method", "must be one of "+strings.Join(PaymentMethods, ", "))
	}
	remarks := strings.TrimSpace(in.Remarks)
	if !utf8.ValidString(remarks) {
		fe.Add("remarks", "must be UTF-8 text")
	} else if utf8.RuneCountInString(remarks) > MaxRemarksLength {
		fe.Add("remarks", "must be at most 1000 characters")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	now = now.UTC()
	return &Request{
		UserID: userID, Amount: amount, UTRNumber: ref, PaymentMethod: method, Remarks: optional(remarks),
		Status: StatusPending, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// ValidPaymentMethod reports one of PaymentMethods.
func ValidPaymentMethod(m string) bool {
	for _, p := range PaymentMethods {
		if m == p {
			return true
		}
	}
	return false
}

// Approve decides a pending request in favour: the caller credits the amount
// in the same transaction. remarks are optional.
func (r *Request) Approve(by uint64, now time.Time, remarks string) error {
	remarks = strings.TrimSpace(remarks)
	if err := checkAdminRemarks(remarks, false); err != nil {
		return err
	}
	return r.decide(StatusApproved, by, now, remarks)
}

// Reject decides a pending request against; remarks (the reason) are required.
func (r *Request) Reject(by uint64, now time.Time, remarks string) error {
	remarks = strings.TrimSpace(remarks)
	if err := checkAdminRemarks(remarks, true); err != nil {
		return err
	}
	return r.decide(StatusRejected, by, now, remarks)
}

func (r *Request) decide(to Status, by uint64, now time.Time, remarks string) error {
	if r.Status != StatusPending {
		return ErrAlreadyDecided
	}
	now = now.UTC()
	r.Status, r.ApprovedBy, r.ApprovedAt, r.AdminRemarks, r.UpdatedAt = to, &by, &now, optional(remarks), now
	return nil
}

func checkAdminRemarks(remarks string, required bool) error {
	switch {
	case required && remarks == "":
		return errs.Validation(map[string][]string{"admin_remarks": {"is required to reject a request"}})
	case !utf8.ValidString(remarks):
		return errs.Validation(map[string][]string{"admin_remarks": {"must be UTF-8 text"}})
	case utf8.RuneCountInString(remarks) > MaxRemarksLength:
		return errs.Validation(map[string][]string{"admin_remarks": {"must be at most 1000 characters"}})
	}
	return nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Filter selects requests in a list, newest first.
type Filter struct {
	UserID  *uint64
	Status  Status
	Q       string // part of the UTR number
	From    *time.Time
	To      *time.Time
	Page    int
	PerPage int

	ParentID *uint64 // requests of one reseller's customers (users.parent_id)
}

// Repository stores balance requests.
type Repository interface {
	// Create inserts a pending request; a UTR already used (by any user, in
	// any state) is ErrUTRTaken, also when two inserts race.
	Create(ctx context.Context, r *Request) error
	ByID(ctx context.Context, id uint64) (*Request, error) // ErrNotFound
	// Decide writes r's decision (status, approved_by, approved_at,
	// admin_remarks, updated_at) only if the stored row is still pending, in
	// one conditional UPDATE; when it is not, nothing changes and the answer
	// is ErrAlreadyDecided. Concurrent deciders therefore get one winner.
	Decide(ctx context.Context, r *Request) error
	List(ctx context.Context, f Filter) ([]Request, int64, error)
}
