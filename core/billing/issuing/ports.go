package issuing

import (
	"context"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/taxprofile"
	"paygate/core/money/ledger"
)

// Stores are the repositories invoicing calls outside a transaction; an
// account's documents and the draft are written and read in one, with
// TxStores.
type Stores struct {
	Invoices Invoices
	Users    Users
	Ledger   Ledger
	Profiles Profiles // the parties' settings, read through Parties
	// Resellers are the resellers' own billing records: the issuers of
	// their customers' documents.
	Resellers ResellerBilling
}

// ResellerBilling reads a reseller's own billing record (its supplier
// details for its customers' documents).
type ResellerBilling interface {
	// ResellerSupplier is reseller resellerID's record
	// (taxprofile.ErrNoResellerSupplier when it saved none).
	ResellerSupplier(ctx context.Context, resellerID uint64) (*taxprofile.Supplier, error)
}

// Invoices finds the accounts a month bills, opens the series, marks the
// month finished and reads the documents.
type Invoices interface {
	MonthDone(ctx context.Context, month string) (bool, error)
	InvoiceOf(ctx context.Context, userID uint64, month string) (*invoice.Invoice, error)
	FinishMonth(ctx context.Context, month string, at time.Time) error
	Hold(ctx context.Context, resellerID uint64, month string, at time.Time) (bool, error)
	Charged(ctx context.Context, from, to time.Time, after uint64, limit int) ([]uint64, error)
	OpenSeries(ctx context.Context, series string) error
	ByID(ctx context.Context, id uint64) (*invoice.Invoice, error)
	ByIssueDate(ctx context.Context, issuerID uint64, from, to time.Time) ([]invoice.Invoice, error)
	List(ctx context.Context, f invoice.Filter) ([]invoice.Invoice, int64, error)
}

// Users reads the account a statement is for.
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}

// Ledger reads the entries an account statement sums.
type Ledger interface {
	List(ctx context.Context, f ledger.Filter) ([]ledger.Entry, int64, error)
	ForEach(ctx context.Context, f ledger.Filter, fn func(ledger.Entry) error) error
}

// Profiles are the supplier's settings and the accounts' billing profiles
// as Parties reads them (taxprofile.Store's reads), in a transaction or
// not.
type Profiles interface {
	Supplier(ctx context.Context) (*taxprofile.Supplier, error)
	Profile(ctx context.Context, userID uint64) (*taxprofile.Profile, error)
}
