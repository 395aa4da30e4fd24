// Package invoice issues GST tax invoices and credit notes from the ledger
// and describes account statements (docs/decisions.md, "Tax invoices,
// credit notes and statements"). Prices include GST: every line splits the
// gross amount the ledger moved into taxable value and tax (core/billing/gst), so an
// invoice adds up to exactly what its account was charged.
package invoice

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
)

// Kind is what a document is.
type Kind string

const (
	KindInvoice    Kind = "invoice"     // a tax invoice (or a bill of supply at rate 0)
	KindCreditNote Kind = "credit_note" // a later refund of charges an invoice billed
)

// Party is a supplier or recipient block.
type Party struct {
	LegalName string
	Address   string // lines separated by "\n"
	State     string // GST state code, "27"
	GSTIN     string // "" for an unregistered recipient
	PAN       string // the supplier's
	Email     string // the recipient's
}

// Payee is how payers pay the supplier, as the supplier's settings held it
// when the document was issued. Documents are settled through the prepaid
// balance, so the PDF prints no payee (adapters/invoicepdf, settlement).
type Payee struct {
	BankName, AccountName, AccountNumber, IFSC, UPI string
}

// Line is one line: a supply, its quantity and its gross amount (what the
// ledger moved, GST included), split into taxable value and tax heads.
type Line struct {
	Description string
	SAC         string
	Quantity    int64            // calls, periods or operations
	UnitPrice   *decimal.Decimal // nil when the line's items had different prices
	Gross       decimal.Decimal
	Taxable     decimal.Decimal
	CGST        decimal.Decimal
	SGST        decimal.Decimal
	IGST        decimal.Decimal
	// Resold marks a line of a reseller's customers' supplies at the
	// reseller's cost (AtCost): the customers' part of its invoice.
	Resold bool
}

// Totals are the sums of the lines' columns.
type Totals struct {
	Gross, Taxable, CGST, SGST, IGST decimal.Decimal
}

// Invoice is an issued document: never changed once written.
type Invoice struct {
	ID     uint64
	UserID uint64 // the recipient's account
	// IssuerID is the reseller that issued a customer's document (its
	// supplier block and series are the reseller's); nil: the platform.
	IssuerID *uint64
	Kind     Kind
	Number   string // "PG/26-27/000001"
	Month    string // "2026-11": the local month it bills
	IssuedAt time.Time
	// Rate is the GST rate in percent ("18.00"); 0 makes the document a
	// bill of supply.
	Rate      decimal.Decimal
	Supplier  Party
	Recipient Party
	// PlaceOfSupply is the recipient's state code (the supplier's when
	// the recipient gave none): CGST and SGST when it is the supplier's
	// state, IGST otherwise.
	PlaceOfSupply string
	Payee         Payee
	Lines         []Line
	Totals        Totals
	// CorrectsID, CorrectsNumber and CorrectsIssuedAt name the invoice a
	// credit note corrects (CGST rule 53: its number and date).
	CorrectsID       *uint64
	CorrectsNumber   string
	CorrectsIssuedAt *time.Time
	// Reason is why a credit note was issued, as Build words it ("Refund
	// of the fee of a failed payout"); "" for an invoice, and for a credit
	// note issued before reasons were stored.
	Reason    string
	CreatedAt time.Time
	// IRN is the e-invoice portal's answer once its issuer recorded it
	// (nil before; read by ByID and List).
	IRN *IRN
}

// IntraState reports whether the supply is within the supplier's state.
func (inv *Invoice) IntraState() bool { return inv.PlaceOfSupply == inv.Supplier.State }

// BillOfSupply reports a document without tax (rate 0).
func (inv *Invoice) BillOfSupply() bool { return inv.Rate.IsZero() }

// StatementEntry is one ledger entry on an account statement.
type StatementEntry struct {
	At           time.Time
	Type         string // credit, debit, refund
	Reference    string // reference_type and id, "api_hit 42"
	Description  string
	Amount       decimal.Decimal
	BalanceAfter decimal.Decimal
}

// Statement is an account's month: the opening balance, every entry, and
// the closing balance (the balance after the month's last entry).
type Statement struct {
	Month       string // "2026-11"
	From, To    time.Time
	Supplier    Party
	Account     Party
	AccountID   uint64
	Opening     decimal.Decimal
	Entries     []StatementEntry
	Closing     decimal.Decimal
	Credits     decimal.Decimal // the month's credits and refunds
	Debits      decimal.Decimal // the month's debits
	GeneratedAt time.Time
}

// Renderer draws documents as PDF. The same document always renders the
// same text.
type Renderer interface {
	Invoice(ctx context.Context, inv *Invoice, loc *time.Location) ([]byte, error)
	Statement(ctx context.Context, st *Statement, loc *time.Location) ([]byte, error)
}
