// Package statement holds the platform bank account's statement lines that
// reconciliation records: each credit line of an imported CSV, recorded
// once, then matched to the payment or balance request it pays, left
// unmatched for an admin, or dismissed with a note.
package statement

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payment"
	"paygate/core/money/topup"
	"paygate/core/platform/errs"
)

// Status is a line's state: unmatched → matched | dismissed, both final.
type Status string

const (
	StatusUnmatched Status = "unmatched"
	StatusMatched   Status = "matched"
	StatusDismissed Status = "dismissed"
)

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	return s == StatusUnmatched || s == StatusMatched || s == StatusDismissed
}

// Why a line stayed unmatched (Line.Reason).
const (
	ReasonNoMatch        = "no_match"         // no payment or balance request names its UTR
	ReasonAmountMismatch = "amount_mismatch"  // the UTR names one, for another amount
	ReasonNotOpen        = "payment_not_open" // the payment it names already ended (or expired)
	ReasonDecided        = "request_decided"  // the balance request it names was already decided
	ReasonTaken          = "already_matched"  // another line of the file matched the same target first
	ReasonCreditHeld     = "credit_held"      // the payment's beneficiary's balance cannot hold it yet: held, match again later
	ReasonBalanceFull    = "balance_full"     // the balance request's owner's balance cannot hold it yet: pending, match again later
)

// Line is one credit line of the statement.
type Line struct {
	ID          uint64
	StatementID uint64
	Key         string // hex SHA-256 of the line's content and occurrence: unique
	LineNo      int    // 1-based record number in the file
	Date        time.Time
	Narration   string
	RefNo       string
	UTR         string // the reference used for matching (RefNo, or a 12-digit UPI reference in the narration)
	PayIDs      []string
	Amount      decimal.Decimal
	Balance     *decimal.Decimal
	Status      Status
	Reason      string // why it is unmatched; empty otherwise

	PaymentID        *uint64 // the payment it completed
	PaymentPublicID  *string
	BalanceRequestID *uint64 // the balance request it approved
	DecidedBy        *uint64 // the admin who matched or dismissed it (the importing admin for automatic matches)
	DecidedAt        *time.Time
	Note             *string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// Statement is one import of a file.
type Statement struct {
	ID          uint64
	ImportedBy  uint64
	FileName    string
	SHA256      string
	CreditLines int // credit lines in the file
	NewLines    int // of them, not recorded by an earlier import
	DebitLines  int
	Skipped     int // rows that are neither (a summary, a blank or malformed row)
	Matched     int // new lines matched by this import
	Unmatched   int // new lines left for an admin
	CreatedAt   time.Time
}

var (
	ErrNotFound       = errs.E(errs.NotFound, "reconciliation_line_not_found", "Statement line not found")
	ErrAlreadyDecided = errs.E(errs.Conflict, "line_already_decided", "Statement line was already matched or dismissed")
	ErrAmountMismatch = errs.E(errs.Conflict, "amount_mismatch", "The line's amount differs from the payment or balance request")
	ErrTargetTaken    = errs.E(errs.Conflict, "already_reconciled", "Another statement line is already matched to it")
)

// MaxNoteLength bounds a dismissal's note.
const MaxNoteLength = 1000

// Match marks an unmatched line matched by admin at now.
func (l *Line) Match(admin uint64, now time.Time) error {
	if l.Status != StatusUnmatched {
		return ErrAlreadyDecided
	}
	now = now.UTC()
	l.Status, l.Reason, l.DecidedBy, l.DecidedAt, l.UpdatedAt = StatusMatched, "", &admin, &now, now
	return nil
}

// Dismiss marks an unmatched line dismissed by admin, with a required note
// (what happened to the money: refunded to the payer, not ours, …).
func (l *Line) Dismiss(admin uint64, note string, now time.Time) error {
	note = strings.TrimSpace(note)
	switch {
	case note == "":
		return errs.Validation(map[string][]string{"note": {"is required: say why the line needs no match"}})
	case !utf8.ValidString(note) || utf8.RuneCountInString(note) > MaxNoteLength:
		return errs.Validation(map[string][]string{"note": {"must be UTF-8 text of at most 1000 characters"}})
	}
	if l.Status != StatusUnmatched {
		return ErrAlreadyDecided
	}
	now = now.UTC()
	l.Status, l.Note, l.DecidedBy, l.DecidedAt, l.UpdatedAt = StatusDismissed, &note, &admin, &now, now
	return nil
}

// Filter selects lines in a list.
type Filter struct {
	Status      Status
	StatementID *uint64
	Page        int
	PerPage     int
}

// PaymentRef is what matching needs of a payment.
type PaymentRef struct {
	ID       uint64
	PublicID string
	UTR      string
	Amount   decimal.Decimal
	Status   payment.Status
}

// TopUpRef is what matching needs of a balance request.
type TopUpRef struct {
	ID     uint64
	UTR    string
	Amount decimal.Decimal
	Status topup.Status
	// Customer: the request's owner is a reseller's customer, who paid its
	// reseller, not the platform; the platform's statement never pays it.
	Customer bool
}

// Repository stores statements and their lines.
type Repository interface {
	CreateStatement(ctx context.Context, s *Statement) error
	// UpdateStatement writes the file hash and counts, known once the file
	// is read.
	UpdateStatement(ctx context.Context, s *Statement) error
	// InsertLines records lines of statement s in batches, skipping each
	// whose Key is already recorded; it returns how many it inserted.
	InsertLines(ctx context.Context, statementID uint64, lines []Line) (int, error)
	// IDsByKey returns the ids of statementID's lines with the given keys.
	IDsByKey(ctx context.Context, statementID uint64, keys []string) (map[string]uint64, error)
	ByID(ctx context.Context, id uint64) (*Line, error) // ErrNotFound
	// Decide writes l's decision if the row is still unmatched; false
	// otherwise. errs.ErrConflict when another line holds its target.
	Decide(ctx context.Context, l *Line) (bool, error)
	// SetReason writes why an unmatched line stayed unmatched.
	SetReason(ctx context.Context, id uint64, reason string) error
	List(ctx context.Context, f Filter) ([]Line, int64, error) // newest first
	// Payments are the payments holding any of utrs or publicIDs.
	Payments(ctx context.Context, utrs, publicIDs []string) ([]PaymentRef, error)
	// TopUps are the balance requests holding any of utrs.
	TopUps(ctx context.Context, utrs []string) ([]TopUpRef, error)
}
