package invoice

import (
	"context"
	"time"

	"paygate/core/platform/errs"
)

var ErrNotFound = errs.E(errs.NotFound, "invoice_not_found", "Invoice not found")

// Filter narrows a list of documents; zero fields do not.
type Filter struct {
	UserID uint64 // the recipient
	// IssuerID: documents a reseller issued to its customers.
	IssuerID uint64
	// Party: documents Party received or issued (a reseller's own and its
	// customers').
	Party   uint64
	Month   string
	Kind    Kind
	Page    int
	PerPage int
}

// Store keeps issued documents. Writes run in the caller's transaction.
type Store interface {
	// Charges are userID's billable ledger entries from from (inclusive)
	// to to (exclusive), in entry order.
	Charges(ctx context.Context, userID uint64, from, to time.Time) ([]Charge, error)
	// CustomerCharges are the billable ledger entries from from to to of
	// resellerID's customers (users.parent_id), summed as Charges does,
	// each with the commission of its entries: for debits the hits'
	// commission as earned (kept or cancelled since), for refunds the
	// commission their refund cancelled. AtCost makes them the reseller's.
	CustomerCharges(ctx context.Context, resellerID uint64, from, to time.Time) ([]Charge, error)
	// Charged lists, after user id after and up to limit, the users with
	// billable ledger entries from from to to, and the resellers of
	// customers with some, in id order.
	Charged(ctx context.Context, from, to time.Time, after uint64, limit int) ([]uint64, error)
	// Issued is userID's documents of month.
	Issued(ctx context.Context, userID uint64, month string) ([]Invoice, error)
	// InvoiceOf is userID's invoice of month (ErrNotFound).
	InvoiceOf(ctx context.Context, userID uint64, month string) (*Invoice, error)
	// OpenSeries makes series' counter exist (at 0), outside any
	// transaction, so that issuers only ever update it.
	OpenSeries(ctx context.Context, series string) error
	// NextNumber takes the next number of an open series under the
	// series' row lock, held to the end of the transaction: a rolled-back
	// transaction gives its number back, so numbers have no gaps.
	NextNumber(ctx context.Context, series string) (int64, error)
	// Insert writes inv whole and sets its ID; errs.Conflict when the
	// account's document of that month (and corrected invoice) exists.
	Insert(ctx context.Context, inv *Invoice, series string, seq int64) error
	ByID(ctx context.Context, id uint64) (*Invoice, error) // ErrNotFound
	// RecordIRN records document id's e-invoice registration, once:
	// ErrIRNRecorded when it has one (or the IRN names another document).
	RecordIRN(ctx context.Context, id uint64, irn IRN) error
	// ByIssueDate is every document issuerID issued (0: the platform)
	// from from (inclusive) to to (exclusive), with its lines, in issue
	// order: a month's GSTR-1 register.
	ByIssueDate(ctx context.Context, issuerID uint64, from, to time.Time) ([]Invoice, error)
	List(ctx context.Context, f Filter) ([]Invoice, int64, error)
	// Hold records that reseller resellerID's documents of month wait for
	// its billing record; true the first time only (it is told once).
	Hold(ctx context.Context, resellerID uint64, month string, at time.Time) (bool, error)
	// MonthDone reports whether month was finished; FinishMonth marks it.
	MonthDone(ctx context.Context, month string) (bool, error)
	FinishMonth(ctx context.Context, month string, at time.Time) error
}
