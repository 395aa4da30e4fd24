// Package recharge holds prepaid mobile recharges: the amount is debited
// from the caller's balance when the recharge is accepted, and refunded
// exactly once if the operator fails it.
package recharge

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/ident"
	"paygate/core/platform/inr"
	"paygate/core/platform/schedule"
)

// Status is a recharge's state: pending until the operator answers.
type Status string

const (
	StatusPending Status = "pending"
	StatusSuccess Status = "success"
	StatusFailed  Status = "failed"
)

// Operator is a mobile operator.
type Operator struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Operators are the supported operators.
var Operators = []Operator{
	{"airtel", "Airtel"}, {"jio", "Jio"}, {"vi", "Vi (Vodafone Idea)"}, {"bsnl", "BSNL"},
}

// Circle is a telecom circle.
type Circle struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Circles are India's 22 telecom circles.
var Circles = []Circle{
	{"andhra-pradesh", "Andhra Pradesh"}, {"assam", "Assam"}, {"bihar-jharkhand", "Bihar & Jharkhand"},
	{"chennai", "Chennai"}, {"delhi", "Delhi NCR"}, {"gujarat", "Gujarat"},
	{"haryana", "Haryana"}, {"himachal-pradesh", "Himachal Pradesh"}, {"jammu-kashmir", "Jammu & Kashmir"},
	{"karnataka", "Karnataka"}, {"kerala", "Kerala"}, {"kolkata", "Kolkata"},
	{"madhya-pradesh", "Madhya Pradesh & Chhattisgarh"}, {"maharashtra", "Maharashtra & Goa"}, {"mumbai", "Mumbai"},
	{"north-east", "North East"}, {"odisha", "Odisha"}, {"punjab", "Punjab"},
	{"rajasthan", "Rajasthan"}, {"tamil-nadu", "Tamil Nadu"}, {"up-east", "Uttar Pradesh (East)"},
	{"up-west", "Uttar Pradesh (West) & Uttarakhand"},
}

// Amount bounds of one recharge, in rupees.
var (
	MinAmount = decimal.NewFromInt(10)
	MaxAmount = decimal.NewFromInt(10000)
)

// Recharge is one recharge.
type Recharge struct {
	ID          uint64
	UserID      uint64
	APIKeyID    uint64
	ReferenceID string // the caller's id, unique per user: retries return the same recharge
	Mobile      string
	Operator    string
	Circle      string
	Amount      decimal.Decimal // debited from the balance (plus the service's fee, billed like a call)
	Status      Status
	OperatorRef *string // the operator's transaction id once successful
	FailReason  *string
	CreatedAt   time.Time
	UpdatedAt   time.Time

	// SubmittedAt is when the provider first answered Submit (nil: never
	// known to have reached the provider, so the worker submits it again).
	SubmittedAt *time.Time
	// NextCheckAt is when the worker next looks at it; Attempts counts the
	// worker's claims (each one pushes NextCheckAt back by Backoff).
	NextCheckAt time.Time
	Attempts    int
	// ReconcileAt is set when it has stayed pending past ReconcileAfter:
	// it stays pending and is still checked, but waits for a person.
	ReconcileAt *time.Time
}

// Worker schedule (decisions: "Recharge worker").
const (
	// FirstCheck is the first backoff step; it doubles per attempt up to MaxCheckInterval.
	FirstCheck       = 15 * time.Second
	MaxCheckInterval = time.Hour
	// ReconcileAfter: a recharge pending this long is flagged for manual
	// reconciliation, never refunded automatically (the operator may have
	// delivered it).
	ReconcileAfter = 48 * time.Hour
)

// Backoff is the wait after the attempts-th claim: 15 s, 30 s, 1 min, …, at most 1 h.
func Backoff(attempts int) time.Duration {
	return schedule.Backoff(FirstCheck, MaxCheckInterval, attempts)
}

// SubmitGrace is how long after its creation an unsubmitted recharge is left
// to the request that created it before the worker submits it again: longer
// than the provider timeout, so a Submit still running is never duplicated.
func SubmitGrace(providerTimeout time.Duration) time.Duration {
	return schedule.SubmitGrace(providerTimeout, FirstCheck)
}

// ProviderReference is the reference the provider receives: unique across
// users and the same on every re-submission (Submit is idempotent by it).
func (r *Recharge) ProviderReference() string { return fmt.Sprintf("rch_%d", r.ID) }

// Claim is the worker taking r for one attempt at now: Attempts + 1, the
// next look after Backoff, and the reconciliation flag once r is older than
// ReconcileAfter. The store writes it only if nobody claimed r since it was read.
func (r *Recharge) Claim(now time.Time) Recharge {
	next := *r
	next.Attempts++
	next.NextCheckAt = now.Add(Backoff(next.Attempts))
	next.UpdatedAt = now
	if next.ReconcileAt == nil && now.Sub(r.CreatedAt) >= ReconcileAfter {
		at := now
		next.ReconcileAt = &at
	}
	return next
}

// NeedsReconciliation reports whether r waits for a person.
func (r *Recharge) NeedsReconciliation() bool {
	return r.ReconcileAt != nil && r.Status == StatusPending
}

var (
	ErrNotFound = errs.E(errs.NotFound, "recharge_not_found", "Recharge not found")
	// ErrReferenceReused: a reference_id already used for another request.
	ErrReferenceReused = errs.E(errs.Conflict, "reference_id_reused", "reference_id was already used for a different recharge")
)

// Request is a caller's recharge request, as received.
type Request struct {
	Mobile      string
	Operator    string
	Circle      string
	Amount      string
	ReferenceID string
}

// New validates r and returns a pending recharge. 422 with per-field errors.
func New(r Request, userID, keyID uint64, now time.Time) (*Recharge, error) {
	fe := errs.FieldErrors{}
	mobile := strings.TrimSpace(r.Mobile)
	if !ident.Mobile(mobile) {
		fe.Add("mobile", "must be a 10-digit Indian mobile number")
	}
	op := strings.ToLower(strings.TrimSpace(r.Operator))
	if !knownOperator(op) {
		fe.Add("operator", "must be one of airtel, jio, vi, bsnl")
	}
	circle := strings.ToLower(strings.TrimSpace(r.Circle))
	if !knownCircle(circle) {
		fe.Add("circle", "must be a telecom circle code (GET /api/v1/recharge/circles)")
	}
	amount, ok := inr.Parse(strings.TrimSpace(r.Amount), 2)
	if !ok || amount.LessThan(MinAmount) || amount.GreaterThan(MaxAmount) {
		fe.Add("amount", "must be between "+inr.Format2(MinAmount)+" and "+inr.Format2(MaxAmount)+" with at most 2 decimals")
	}
	ref := strings.TrimSpace(r.ReferenceID)
	if !ident.Reference(ref) {
		fe.Add("reference_id", "is required: 1 to 64 letters, digits or . _ : -")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	now = now.UTC()
	return &Recharge{UserID: userID, APIKeyID: keyID, ReferenceID: ref, Mobile: mobile, Operator: op, Circle: circle,
		Amount: amount, Status: StatusPending, CreatedAt: now, UpdatedAt: now, NextCheckAt: now}, nil
}

// Same reports whether o asks for the same recharge as r (a retry).
func (r *Recharge) Same(o *Recharge) bool {
	return r.Mobile == o.Mobile && r.Operator == o.Operator && r.Circle == o.Circle && r.Amount.Equal(o.Amount)
}

func knownOperator(code string) bool {
	for _, o := range Operators {
		if o.Code == code {
			return true
		}
	}
	return false
}

func knownCircle(code string) bool {
	for _, c := range Circles {
		if c.Code == code {
			return true
		}
	}
	return false
}

// Outcome is an operator's answer: pending (ask again later), success or failed.
type Outcome struct {
	Status      Status
	OperatorRef string
	Reason      string // why it failed
}

// Provider sends recharges to operators. Submit may answer pending; Check
// asks again later. An error means no answer: the recharge stays pending
// and is checked again (never refunded on a mere timeout, since the
// operator may still have done it).
//
// Submit MUST be idempotent at the provider by r.ProviderReference(): a
// crash or a timeout leaves us not knowing whether a Submit arrived, so the
// worker submits again, and a second Submit of the same reference must not
// recharge twice but answer the first one's state. Check is only called for
// recharges whose Submit answered.
type Provider interface {
	Submit(ctx context.Context, r Recharge) (Outcome, error)
	Check(ctx context.Context, r Recharge) (Outcome, error)
}

// Repository stores recharges.
type Repository interface {
	// Create inserts r; errs.ErrConflict when the user already used r.ReferenceID.
	Create(ctx context.Context, r *Recharge) error
	ByReference(ctx context.Context, userID uint64, referenceID string) (*Recharge, error)
	ByID(ctx context.Context, id uint64) (*Recharge, error)
	// Finish moves a pending recharge to success or failed (and sets
	// submitted_at if still unset); false when it was no longer pending
	// (another worker finished it).
	Finish(ctx context.Context, r *Recharge) (bool, error)
	// MarkSubmitted records r.SubmittedAt and r.NextCheckAt if r is still
	// pending and not yet marked; false otherwise.
	MarkSubmitted(ctx context.Context, r *Recharge) (bool, error)
	// Due lists pending recharges whose NextCheckAt is not after now,
	// earliest NextCheckAt first.
	Due(ctx context.Context, now time.Time, limit int) ([]Recharge, error)
	// Claim writes next (from old.Claim) only if the row is still pending,
	// due at now and has old's Attempts and submitted state: of several
	// workers exactly one gets true.
	Claim(ctx context.Context, old *Recharge, next *Recharge, now time.Time) (bool, error)
	List(ctx context.Context, f Filter) ([]Recharge, int64, error)
	// ForEachByUser calls fn with each of the user's recharges in id order
	// (paged by id, so rows arriving meanwhile shift nothing).
	ForEachByUser(ctx context.Context, userID uint64, fn func(Recharge) error) error
}

// Filter selects recharges in a list.
type Filter struct {
	UserID *uint64
	Status Status
	// NeedsReconciliation keeps only pending recharges flagged for a person.
	NeedsReconciliation bool
	From, To            *time.Time
	Page                int
	PerPage             int
}
