// Package payment holds gateway payments: a merchant creates one, the payer
// completes it on the hosted checkout page, and it ends success, failed or
// expired. States only move forward.
package payment

import (
	"context"
	"crypto/rand"
	"net/url"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/utr"
)

// Status is a payment's state.
type Status string

const (
	StatusCreated Status = "created" // made by the merchant; nobody opened the page yet
	StatusPending Status = "pending" // the payer opened the checkout page
	StatusSuccess Status = "success"
	StatusFailed  Status = "failed"
	StatusExpired Status = "expired" // not completed within the lifetime
)

// Purpose is what a payment is for.
type Purpose string

const (
	// PurposeCollection: a merchant collects from a payer (payment/create);
	// its success credits the merchant less their collection fee.
	PurposeCollection Purpose = "collection"
	// PurposeBalance: a user pays the platform to add to their own balance
	// (panel balance checkout); its success credits them, with no fee.
	PurposeBalance Purpose = "balance"
)

// Lifetime is how long a payment may stay open before it expires.
const Lifetime = 30 * time.Minute

// next lists the states each state may move to.
var next = map[Status][]Status{
	// A payment completes only after the payer opened it: created → pending
	// (the checkout page) → success | failed; created may only expire.
	StatusCreated: {StatusPending, StatusExpired},
	StatusPending: {StatusSuccess, StatusFailed, StatusExpired},
}

// Final reports whether s is an end state.
func (s Status) Final() bool { return len(next[s]) == 0 }

// CanMove reports whether a payment in state s may move to to.
func (s Status) CanMove(to Status) bool {
	for _, n := range next[s] {
		if n == to {
			return true
		}
	}
	return false
}

// Payment is one payment request.
type Payment struct {
	ID          uint64
	PublicID    string // "pay_" + ULID: the payment_id clients see
	UserID      uint64 // the merchant
	APIKeyID    uint64
	Amount      decimal.Decimal
	Currency    string
	CustomerID  string
	CallbackURL string
	Status      Status
	ProviderRef *string // the provider's transaction reference once known
	// Livemode is false for a payment of a sandbox provider (Provider.Sandbox):
	// no money moves, and every answer, event and page about it says so.
	Livemode bool
	// Refunded is the total of the payment's refunds not failed; never
	// above Amount (changed only under the payment's row lock).
	Refunded decimal.Decimal
	// UTR is the 12-digit UPI reference the payer reported on the checkout
	// page (upi_direct): the payment waits, pending, for the bank statement
	// line that confirms it. Unique among payments.
	UTR         *string
	Purpose     Purpose         // "" reads as PurposeCollection
	Fee         decimal.Decimal // the collection fee its success debited (0 until then)
	ExpiresAt   time.Time
	CompletedAt *time.Time // when it reached an end state
	// CreditHeldAt is when its confirmed success was first held because
	// the beneficiary's balance could not hold the credit (DECIMAL(12,2)):
	// it stays pending, never expires or fails, and completes on a retry.
	CreditHeldAt *time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

var (
	ErrNotFound          = errs.E(errs.NotFound, "payment_not_found", "Payment not found")
	ErrFinal             = errs.E(errs.Conflict, "payment_final", "Payment is already completed")
	ErrIdempotencyReused = errs.E(errs.Conflict, "idempotency_key_reused", "Idempotency-Key was already used with a different request")
)

// NewPublicID is a payment_id: "pay_" + a ULID, unguessable and sortable.
func NewPublicID() string {
	// crypto/rand, not ulid.Make's default source: that one is math/rand,
	// whose next values can be predicted from ids already seen (request ids
	// are public), and the checkout page is addressed by this id alone.
	return "pay_" + ulid.MustNew(ulid.Now(), rand.Reader).String()
}

// Create is a merchant's request, as received.
type Create struct {
	Amount      string // the JSON number or string, exactly as sent
	Currency    string
	CustomerID  string
	CallbackURL string
}

// New validates c and returns a payment in state created; max bounds the
// amount. 422 with per-field errors.
func New(c Create, userID, keyID uint64, max decimal.Decimal, now time.Time) (*Payment, error) {
	fe := errs.FieldErrors{}
	amount, ok := inr.Parse(strings.TrimSpace(c.Amount), 2)
	switch {
	case strings.TrimSpace(c.Amount) == "":
		fe.Add("amount", "is required")
	case !ok || !amount.IsPositive():
		fe.Add("amount", "must be a positive amount with at most 2 decimals")
	case amount.GreaterThan(max):
		fe.Add("amount", "must be at most "+inr.Format2(max))
	}
	cur := strings.TrimSpace(c.Currency)
	if cur == "" {
		fe.Add("currency", "is required")
	} else if cur != "INR" {
		fe.Add("currency", "must be INR")
	}
	cust := strings.TrimSpace(c.CustomerID)
	if cust == "" {
		fe.Add("customer_id", "is required")
	} else if len(cust) > 100 {
		fe.Add("customer_id", "must be at most 100 characters")
	}
	cb := strings.TrimSpace(c.CallbackURL)
	if cb == "" {
		fe.Add("callback_url", "is required")
	} else if !httpURL(cb) || len(cb) > 500 {
		fe.Add("callback_url", "must be an absolute http or https URL of at most 500 characters")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	now = now.UTC()
	return &Payment{
		PublicID: NewPublicID(), UserID: userID, APIKeyID: keyID, Amount: amount, Currency: cur,
		CustomerID: cust, CallbackURL: cb, Status: StatusCreated, Purpose: PurposeCollection,
		ExpiresAt: now.Add(Lifetime), CreatedAt: now, UpdatedAt: now,
	}, nil
}

func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.User == nil
}

// Move changes the state to to at now: ErrFinal when the payment already
// ended; an expired lifetime turns a success or failure into expiry.
func (p *Payment) Move(to Status, now time.Time) error {
	if p.Status.Final() {
		return ErrFinal
	}
	if p.CreditHeldAt != nil {
		if to == StatusFailed || to == StatusExpired {
			return ErrCreditHeld // its money was confirmed
		}
	} else if (to == StatusSuccess || to == StatusFailed || to == StatusPending) && !now.Before(p.ExpiresAt) {
		to = StatusExpired
	}
	if !p.Status.CanMove(to) {
		return errs.E(errs.Conflict, "payment_transition", "Payment cannot move from "+string(p.Status)+" to "+string(to))
	}
	now = now.UTC()
	p.Status, p.UpdatedAt = to, now
	if to.Final() {
		p.CompletedAt = &now
	}
	return nil
}

// ConfirmWindow is how long a payment whose payer reported a UTR stays
// open for the bank statement that confirms it: statements come daily,
// not over a weekend or a bank holiday.
const ConfirmWindow = 7 * 24 * time.Hour

var (
	ErrUTRInvalid = errs.Validation(map[string][]string{"utr": {"must be the 12-digit UTR (UPI reference number) your UPI app shows"}})
	ErrUTRTaken   = utr.ErrTaken
	// ErrUTRSubmitted: the payment has another UTR, which only an admin may correct.
	ErrUTRSubmitted = errs.E(errs.Conflict, "utr_already_submitted", "A UTR was already submitted for this payment; ask the merchant to correct it")
	ErrExpired      = errs.E(errs.Conflict, "payment_expired", "Payment expired before it was completed")
)

// ValidUTR reports whether s is a UPI transaction reference: 12 digits.
func ValidUTR(s string) bool {
	if len(s) != 12 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// SubmitUTR records the payer's UTR (canonical) at now: the payment is (or
// becomes) pending, awaiting confirmation, and stays open ConfirmWindow
// from now. The same UTR again changes nothing but the window; another is
// ErrUTRSubmitted, since anyone holding the page's address could replace it
// (a payer who mistyped asks the merchant; an admin corrects it,
// CorrectUTR). ErrFinal once it ended.
func (p *Payment) SubmitUTR(u string, now time.Time) error {
	u = utr.Canonical(u)
	if !ValidUTR(u) {
		return ErrUTRInvalid
	}
	if p.Status.Final() {
		return ErrFinal
	}
	if !now.Before(p.ExpiresAt) {
		return ErrExpired
	}
	if p.UTR != nil && *p.UTR != u {
		return ErrUTRSubmitted
	}
	now = now.UTC()
	p.Status, p.UTR, p.UpdatedAt = StatusPending, &u, now
	if until := now.Add(ConfirmWindow); until.After(p.ExpiresAt) {
		p.ExpiresAt = until
	}
	return nil
}

// CorrectUTR is an admin replacing the UTR of an open payment (the payer
// mistyped it) at now; the confirmation window starts again.
func (p *Payment) CorrectUTR(u string, now time.Time) error {
	u = utr.Canonical(u)
	if !ValidUTR(u) {
		return ErrUTRInvalid
	}
	if !p.Status.Open() {
		return ErrFinal
	}
	if p.CreditHeldAt == nil && !now.Before(p.ExpiresAt) {
		return ErrExpired
	}
	now = now.UTC()
	p.Status, p.UTR, p.UpdatedAt = StatusPending, &u, now
	if until := now.Add(ConfirmWindow); until.After(p.ExpiresAt) {
		p.ExpiresAt = until
	}
	return nil
}

// Open reports a payment that may still complete (created or pending).
func (s Status) Open() bool { return s == StatusCreated || s == StatusPending }

// Complete moves an open payment to success at now, with ref (the UTR or
// provider reference) when not empty: the money is confirmed, so a payment
// nobody opened may complete too. ErrFinal when it already ended;
// ErrExpired once its lifetime is over (the state the expiry worker gives
// it, whether or not it has come by yet).
func (p *Payment) Complete(ref string, now time.Time) error {
	if !p.Status.Open() {
		return ErrFinal
	}
	if p.CreditHeldAt == nil && !now.Before(p.ExpiresAt) {
		return ErrExpired // a held one was confirmed in time
	}
	now = now.UTC()
	p.Status, p.UpdatedAt, p.CompletedAt = StatusSuccess, now, &now
	if ref != "" {
		p.ProviderRef = &ref
	}
	return nil
}

// ErrCreditHeld: the payment's money is confirmed but its beneficiary's
// balance cannot hold the credit; the payment is held (HoldCredit).
var ErrCreditHeld = errs.E(errs.Conflict, "collection_held", "The merchant's balance cannot hold this payment's credit; its confirmation is delayed")

// HoldCredit marks at now a confirmed success whose credit the
// beneficiary's balance cannot hold: it stays pending until a retry
// completes it. ErrFinal once it ended.
func (p *Payment) HoldCredit(now time.Time) error {
	if !p.Status.Open() {
		return ErrFinal
	}
	now = now.UTC()
	p.Status, p.UpdatedAt = StatusPending, now
	if p.CreditHeldAt == nil {
		p.CreditHeldAt = &now
	}
	return nil
}

// UTRCollector is a Provider whose payer reports the UTR on the checkout
// page (upi_direct): the bank statement, not a callback, confirms the
// payment. Providers that do not implement it (or answer false) ask none.
type UTRCollector interface {
	CollectsUTR() bool
}

// CollectionFee is percent of amount, rounded half-up to 2 places (the
// fee a merchant pays on a successful collection).
func CollectionFee(amount, percent decimal.Decimal) decimal.Decimal {
	if !percent.IsPositive() || !amount.IsPositive() {
		return decimal.Zero
	}
	return amount.Mul(percent).Shift(-2).Round(2) // exact, then half away from zero: half-up for a positive fee
}

// Provider is the payment provider that collects from payers. The sandbox
// adapter lets the payer choose the outcome on the checkout page; a live
// adapter reports outcomes asynchronously (its callback completes the
// payment through the same forward-only transitions) and turns the sandbox
// buttons off.
type Provider interface {
	// Intent is how the payer pays p to payee: a UPI intent URI
	// (upi://pay?pa=…&pn=…&am=…&cu=INR&tr=<payment_id>).
	Intent(ctx context.Context, p Payment, payee string) (string, error)
	// Sandbox reports a test mode in which the payer picks the outcome.
	Sandbox() bool
	// Refund asks the provider to give r.Amount of p back to the payer.
	// Asking again about the same refund (r.PublicID) reports its outcome
	// and never refunds twice. An error is no answer: the refund stays
	// pending and is asked about again.
	Refund(ctx context.Context, p Payment, r Refund) (RefundOutcome, error)
}

// Repository stores payments. Transition is the only way states change: a
// conditional update from the state the caller saw, so two deciders (the
// payer's button and the expiry worker, or two instances) never both win.
type Repository interface {
	Create(ctx context.Context, p *Payment) error
	ByPublicID(ctx context.Context, publicID string) (*Payment, error) // ErrNotFound
	ByID(ctx context.Context, id uint64) (*Payment, error)             // ErrNotFound
	// Transition writes p's new state if the row is still in state from;
	// false when another writer moved it first.
	Transition(ctx context.Context, p *Payment, from Status) (bool, error)
	// LockByID reads the payment under its row lock, held to the end of
	// the transaction (ErrNotFound).
	LockByID(ctx context.Context, id uint64) (*Payment, error)
	// SaveRefunded writes p.Refunded (p read with LockByID).
	SaveRefunded(ctx context.Context, p *Payment) error
	// SubmitUTR writes p's UTR, status and expiry if the row is still in
	// state from with UTR prev (nil: none); false when another writer
	// changed it first; ErrUTRTaken when another payment holds the UTR.
	SubmitUTR(ctx context.Context, p *Payment, from Status, prev *string) (bool, error)
	// HoldCredit writes p's status and CreditHeldAt if the row is still in
	// state from; false when another writer moved it first.
	HoldCredit(ctx context.Context, p *Payment, from Status) (bool, error)
	// Expirable lists open payments whose lifetime ended before now, but
	// for held ones.
	Expirable(ctx context.Context, now time.Time, limit int) ([]Payment, error)
	List(ctx context.Context, f Filter) ([]Payment, int64, error)
	// ForEachByUser calls fn with each of the user's payments, by id (the
	// ledger check).
	ForEachByUser(ctx context.Context, userID uint64, fn func(Payment) error) error
}

// Filter selects payments in a list.
type Filter struct {
	UserID   *uint64
	Status   Status
	Held     bool // only open payments whose credit is held
	From, To *time.Time
	Page     int
	PerPage  int
}

// IdempotencyTTL is how long an Idempotency-Key is remembered.
const IdempotencyTTL = 24 * time.Hour

// IdempotencyKey remembers which payment a merchant's Idempotency-Key made,
// and a hash of the request it came with.
type IdempotencyKey struct {
	UserID      uint64
	Key         string
	RequestHash string // hex SHA-256 of the normalised request
	PaymentID   uint64
	ExpiresAt   time.Time
	CreatedAt   time.Time
}

// ErrIdempotencyKeyInvalid: a key that is blank or too long.
var ErrIdempotencyKeyInvalid = errs.Validation(map[string][]string{"Idempotency-Key": {"must be 1 to 255 printable characters"}})

// ValidIdempotencyKey reports whether k may be used as an Idempotency-Key.
func ValidIdempotencyKey(k string) bool {
	if k == "" || len(k) > 255 {
		return false
	}
	for _, r := range k {
		if r < 0x21 || r > 0x7e {
			return false
		}
	}
	return true
}

// IdempotencyKeys stores the keys. Claim inserts k inside the transaction
// that creates the payment, first dropping an expired row of the same key;
// errs.ErrConflict when a live row holds the key (a concurrent duplicate).
type IdempotencyKeys interface {
	Claim(ctx context.Context, k *IdempotencyKey, now time.Time) error
	// Find returns the live (unexpired at now) row, or errs.ErrNotFound.
	Find(ctx context.Context, userID uint64, key string, now time.Time) (*IdempotencyKey, error)
}
