// Package payout holds payouts (money transfer): money sent from a user's
// balance to a bank account (IMPS or NEFT) or a UPI address. The amount and
// the fee are debited before the provider is asked; a failure gives both
// back and a reversal the amount, each exactly once.
package payout

import (
	"context"
	"crypto/rand"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/ident"
	"paygate/core/platform/inr"
	"paygate/core/platform/schedule"
	"paygate/core/platform/sensitive"
)

// Status is a payout's state: pending until the provider accepts it,
// processing until the bank answers, then success or failed; a success may
// later be reversed by the beneficiary's bank.
type Status string

const (
	StatusPending    Status = "pending"
	StatusProcessing Status = "processing"
	StatusSuccess    Status = "success"
	StatusFailed     Status = "failed"
	StatusReversed   Status = "reversed"
)

// Valid reports whether s is a payout state.
func (s Status) Valid() bool {
	switch s {
	case StatusPending, StatusProcessing, StatusSuccess, StatusFailed, StatusReversed:
		return true
	}
	return false
}

// Final reports whether nothing more happens to a payout in s, apart from a
// success's reversal.
func (s Status) Final() bool { return s == StatusFailed || s == StatusReversed || s == StatusSuccess }

// Counted reports whether a payout in s counts against the daily limit:
// money that has left or may still leave.
func (s Status) Counted() bool {
	return s == StatusPending || s == StatusProcessing || s == StatusSuccess
}

// Mode is the rail a payout travels on.
type Mode string

const (
	ModeIMPS Mode = "IMPS"
	ModeNEFT Mode = "NEFT"
	ModeUPI  Mode = "UPI"
)

// Valid reports whether m is a mode.
func (m Mode) Valid() bool { return m == ModeIMPS || m == ModeNEFT || m == ModeUPI }

// Beneficiary types.
const (
	BankAccount = "bank_account"
	VPA         = "vpa"
)

// Beneficiary is who receives a payout: a bank account (AccountNumber,
// IFSC) or a UPI address (VPA), and the name on it.
type Beneficiary struct {
	Type          string
	Name          string
	AccountNumber string
	IFSC          string
	VPA           string
}

// Masked is b as it is shown: the account number with all but its last
// four digits as X.
func (b Beneficiary) Masked() Beneficiary {
	if b.AccountNumber != "" {
		b.AccountNumber = sensitive.Mask(b.AccountNumber)
	}
	return b
}

// Amount bounds of one payout, in rupees.
var (
	MinAmount = decimal.NewFromInt(1)
	MaxAmount = decimal.NewFromInt(500000)
)

// NarrationMax is the longest narration, in characters.
const NarrationMax = 30

// Payout is one payout.
type Payout struct {
	ID          uint64
	PublicID    string // "pout_" + ULID: the payout_id clients see
	UserID      uint64
	APIKeyID    uint64
	ReferenceID string // the caller's id, unique per user: retries answer the same payout
	Beneficiary Beneficiary
	Amount      decimal.Decimal // debited (reference_type payout)
	Fee         decimal.Decimal // the payout-transfer service's charge, debited with the call
	// RequestID names the call (hit) whose charge is the fee: a failure
	// gives the fee back only if that call kept it (crash recovery may have
	// refunded an interrupted call already).
	RequestID   string
	Mode        Mode
	Narration   *string
	Status      Status
	UTR         *string // the bank's reference once successful
	FailReason  *string
	Livemode    bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ProcessedAt *time.Time // when it reached success or failed
	ReversedAt  *time.Time

	// SubmittedAt is when the provider first accepted it (nil: never known
	// to have reached the provider, so the worker submits it again).
	SubmittedAt *time.Time
	// NextCheckAt is when the worker next looks at it; nil once nothing
	// more can happen (failed, reversed, or a success past ReversalWatch).
	NextCheckAt *time.Time
	Attempts    int // the worker's claims
}

// Worker schedule (decisions: "Payouts").
const (
	// FirstCheck is the first look after the provider accepted a payout;
	// the wait doubles per claim up to MaxCheckInterval.
	FirstCheck       = 3 * time.Second
	MaxCheckInterval = 30 * time.Minute
	// ReversalWatch is how long a successful payout is still asked about,
	// since a bank may reverse a credit it could not apply.
	ReversalWatch = 72 * time.Hour
	// StuckAfter: a payout not final this long after its creation is
	// reported by the ledger check; the worker still asks about it.
	StuckAfter = 24 * time.Hour
)

// Backoff is the wait after the attempts-th claim: 3 s, 6 s, 12 s, …, at most 30 min.
func Backoff(attempts int) time.Duration {
	return schedule.Backoff(FirstCheck, MaxCheckInterval, attempts)
}

// SubmitGrace is how long after its creation an unsubmitted payout is left
// to the request that created it before the worker submits it again: longer
// than the provider timeout, so a Submit still running is never duplicated.
func SubmitGrace(providerTimeout time.Duration) time.Duration {
	return schedule.SubmitGrace(providerTimeout, FirstCheck)
}

// ProviderReference is the reference the provider receives: unique across
// users and the same on every re-submission (Submit is idempotent by it).
func (p *Payout) ProviderReference() string { return p.PublicID }

// Claim is the worker taking p for one attempt at now: Attempts + 1 and the
// next look after Backoff; a success past ReversalWatch is not looked at
// again. The store writes it only if nobody claimed p since it was read.
func (p *Payout) Claim(now time.Time) Payout {
	next := *p
	next.Attempts++
	at := now.Add(Backoff(next.Attempts))
	next.NextCheckAt = &at
	if p.Status == StatusSuccess && p.ProcessedAt != nil && now.Sub(*p.ProcessedAt) >= ReversalWatch {
		next.NextCheckAt = nil
	}
	next.UpdatedAt = now
	return next
}

// Stuck reports whether p should have ended by now.
func (p *Payout) Stuck(now time.Time) bool {
	return (p.Status == StatusPending || p.Status == StatusProcessing) && now.Sub(p.CreatedAt) >= StuckAfter
}

var (
	ErrNotFound = errs.E(errs.NotFound, "payout_not_found", "Payout not found")
	// ErrReferenceReused: a reference_id already used for another request.
	ErrReferenceReused = errs.E(errs.Conflict, "reference_id_reused", "reference_id was already used for a different payout")
)

// ErrDailyLimit answers a payout that would take the day's payouts past
// the account's limit; left says what remains of it today.
func ErrDailyLimit(limit, left decimal.Decimal) error {
	e := errs.E(errs.Invalid, "daily_payout_limit_exceeded", "Daily payout limit exceeded")
	e.Fields = map[string][]string{"amount": {"exceeds today's remaining payout limit of " + inr.Format2(left) +
		" (daily limit " + inr.Format2(limit) + ")"}}
	return e
}

var (
	vpaRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{1,255}@[a-z][a-z0-9.-]{1,63}$`)
	// Narrations go into bank statements: letters, digits, spaces and a
	// few marks, nothing that could break a bank file.
	narrationRe = regexp.MustCompile(`^[A-Za-z0-9 .,/_-]{1,30}$`)
)

// Request is a caller's payout request, as received.
type Request struct {
	Beneficiary Beneficiary
	Amount      string
	Mode        string
	ReferenceID string
	Narration   string
}

// New validates r and returns a pending payout. 422 with per-field errors
// (beneficiary fields as "beneficiary.<name>").
func New(r Request, now time.Time) (*Payout, error) {
	fe := errs.FieldErrors{}
	b := r.Beneficiary
	b.Type = strings.TrimSpace(b.Type)
	b.Name = strings.TrimSpace(b.Name)
	b.AccountNumber = strings.TrimSpace(b.AccountNumber)
	b.IFSC = strings.ToUpper(strings.TrimSpace(b.IFSC))
	b.VPA = strings.ToLower(strings.TrimSpace(b.VPA))
	if b.Name == "" || len([]rune(b.Name)) > 100 {
		fe.Add("beneficiary.name", "is required: 1 to 100 characters")
	}
	mode := Mode(strings.ToUpper(strings.TrimSpace(r.Mode)))
	switch b.Type {
	case BankAccount:
		if !ident.AccountNumber(b.AccountNumber) {
			fe.Add("beneficiary.account_number", "must be 9 to 18 digits")
		}
		if !ident.IFSC(b.IFSC) {
			fe.Add("beneficiary.ifsc", "must be an IFSC: 4 letters, 0, then 6 letters or digits")
		}
		if b.VPA != "" {
			fe.Add("beneficiary.vpa", "is only for a vpa beneficiary")
		}
		if mode == "" {
			mode = ModeIMPS
		} else if mode != ModeIMPS && mode != ModeNEFT {
			fe.Add("mode", "must be IMPS or NEFT for a bank account")
		}
	case VPA:
		if !vpaRe.MatchString(b.VPA) {
			fe.Add("beneficiary.vpa", "must be a UPI address such as name@bank")
		}
		if b.AccountNumber != "" {
			fe.Add("beneficiary.account_number", "is only for a bank_account beneficiary")
		}
		if b.IFSC != "" {
			fe.Add("beneficiary.ifsc", "is only for a bank_account beneficiary")
		}
		if mode == "" {
			mode = ModeUPI
		} else if mode != ModeUPI {
			fe.Add("mode", "must be UPI for a vpa")
		}
	default:
		fe.Add("beneficiary.type", "must be bank_account or vpa")
	}
	amount, ok := inr.Parse(strings.TrimSpace(r.Amount), 2)
	if !ok || amount.LessThan(MinAmount) || amount.GreaterThan(MaxAmount) {
		fe.Add("amount", "must be between "+inr.Format2(MinAmount)+" and "+inr.Format2(MaxAmount)+" with at most 2 decimals")
	}
	ref := strings.TrimSpace(r.ReferenceID)
	if !ident.Reference(ref) {
		fe.Add("reference_id", "is required: 1 to 64 letters, digits or . _ : -")
	}
	var narration *string
	if n := strings.TrimSpace(r.Narration); n != "" {
		if !narrationRe.MatchString(n) {
			fe.Add("narration", "must be at most 30 letters, digits, spaces or . , / _ -")
		}
		narration = &n
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	now = now.UTC()
	return &Payout{PublicID: NewPublicID(), ReferenceID: ref, Beneficiary: b, Amount: amount, Fee: decimal.Zero,
		Mode: mode, Narration: narration, Status: StatusPending, CreatedAt: now, UpdatedAt: now}, nil
}

// NewPublicID is a payout_id: "pout_" + a ULID from crypto/rand.
func NewPublicID() string {
	return "pout_" + ulid.MustNew(ulid.Now(), rand.Reader).String()
}

var publicIDRe = regexp.MustCompile(`^pout_[0-9A-Z]{26}$`)

// ValidPublicID reports whether s has a payout_id's shape.
func ValidPublicID(s string) bool { return publicIDRe.MatchString(s) }

// Same reports whether o asks for the same payout as p (a retry).
func (p *Payout) Same(o *Payout) bool {
	return p.Beneficiary == o.Beneficiary && p.Amount.Equal(o.Amount) && p.Mode == o.Mode &&
		deref(p.Narration) == deref(o.Narration)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Outcome is the provider's answer about a payout.
type Outcome struct {
	Status Status // processing (ask again later), success, failed or reversed
	UTR    string // the bank's reference, with success
	Reason string // why it failed or was reversed
}

// ErrNoAnswer wraps a provider call that gave no answer (timeout, network):
// the payout's state is unknown and it is asked about again.
var ErrNoAnswer = errors.New("payout provider gave no answer")

// Provider sends payouts to banks. Submit accepts a payout (processing) or
// refuses it at once (failed); Check asks how it stands: processing,
// success, failed, or reversed after a success. An error means no answer:
// nothing changes and the worker asks again (never refunded on a mere
// timeout, since the bank may have paid).
//
// Submit MUST be idempotent at the provider by p.ProviderReference(): a
// crash or a timeout leaves us not knowing whether a Submit arrived, so the
// worker submits again, and a second Submit of the same reference must not
// pay twice but answer the first one's state.
type Provider interface {
	Submit(ctx context.Context, p Payout) (Outcome, error)
	Check(ctx context.Context, p Payout) (Outcome, error)
}

// Repository stores payouts.
type Repository interface {
	// Create inserts p; ErrReferenceReused (a Conflict) when the user
	// already used p.ReferenceID.
	Create(ctx context.Context, p *Payout) error
	ByReference(ctx context.Context, userID uint64, referenceID string) (*Payout, error)
	ByPublicID(ctx context.Context, publicID string) (*Payout, error)
	ByID(ctx context.Context, id uint64) (*Payout, error)
	// Move writes next's state (status, utr, fail_reason, processed_at,
	// reversed_at, submitted_at, next_check_at, updated_at) only if the row
	// is still in from: of several writers exactly one gets true.
	Move(ctx context.Context, next *Payout, from Status) (bool, error)
	// Due lists payouts whose NextCheckAt is set and not after now,
	// earliest first.
	Due(ctx context.Context, now time.Time, limit int) ([]Payout, error)
	// Claim writes next (from old.Claim) only if the row still has old's
	// status, attempts and submitted state and is due at now.
	Claim(ctx context.Context, old, next *Payout, now time.Time) (bool, error)
	// CountedSince sums the amounts of the user's payouts created at or
	// after since whose status counts against the daily limit. Called under
	// the user's row lock, it sees every payout committed before the lock.
	CountedSince(ctx context.Context, userID uint64, since time.Time) (decimal.Decimal, error)
	// CountedSinceByUser is CountedSince for every user with payouts since.
	CountedSinceByUser(ctx context.Context, since time.Time) (map[uint64]decimal.Decimal, error)
	// CountedSinceWithCustomers is CountedSince summed over the user and
	// its customers (users.parent_id): what counts against the user's own
	// limit. Called under the user's row lock, which each of those payouts'
	// reservations takes, it sees every one committed before.
	CountedSinceWithCustomers(ctx context.Context, userID uint64, since time.Time) (decimal.Decimal, error)
	List(ctx context.Context, f Filter) ([]Payout, int64, error)
	// ForEach calls fn with each payout f selects, newest first, reading
	// keyset pages (an export).
	ForEach(ctx context.Context, f Filter, fn func(Payout) error) error
	// ForEachByUser calls fn with each of the user's payouts in id order.
	ForEachByUser(ctx context.Context, userID uint64, fn func(Payout) error) error
}

// Filter selects payouts in a list.
type Filter struct {
	UserID   *uint64
	Status   Status
	Mode     Mode
	Search   string // a payout_id, reference_id or UTR, exactly
	From, To *time.Time
	Page     int
	PerPage  int
}
