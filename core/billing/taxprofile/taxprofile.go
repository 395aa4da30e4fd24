// Package taxprofile holds the two parties of a GST tax invoice as the
// panel keeps them (docs/decisions.md, "Supplier settings and billing
// profiles"): the supplier, the platform's operator, whose details an admin
// sets once (legal name, address, state, GSTIN, PAN, invoice prefix,
// default SAC, bank details and UPI address for payers), and each
// customer's billing profile (legal name, address, state, optional GSTIN).
// The formats are core/billing/gst's; this package adds what the two records must
// satisfy together, and the port that stores them.
package taxprofile

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"paygate/core/billing/gst"
	"paygate/core/platform/errs"
	"paygate/core/platform/ident"
)

// DefaultPrefix is the invoice prefix of a supplier that set none: invoices
// PG/26-27/000001, credit notes PGC/26-27/000001.
const DefaultPrefix = "PG"

// DefaultResellerPrefix is the invoice prefix of a reseller that set none:
// its customers' invoices never carry the platform's prefix.
const DefaultResellerPrefix = "IN"

// Limits of the text fields, in characters.
const (
	MaxLegalName    = 200
	MaxAddress      = 500
	MaxAddressLines = 6
	MaxBankName     = 100
	MaxAccountName  = 100
	MaxUPI          = 100
)

// Supplier is the business that issues the invoices and that payers pay:
// the platform's one record, set by admins, and each reseller's own, set by
// that reseller (both GET/PUT /api/v1/panel/settings/billing).
type Supplier struct {
	LegalName string
	Address   string // lines separated by "\n"
	State     string // GST state code, "27"
	GSTIN     string // "" for a supplier not registered for GST
	// PAN is the supplier's PAN; with a GSTIN it is the GSTIN's (given
	// empty, it is taken from the GSTIN).
	PAN           string
	InvoicePrefix string // DefaultPrefix unless set
	SAC           string // the default SAC of the lines (gst.DefaultSAC unless set); a service may have its own
	// How payers pay the supplier, printed on the invoice: the bank
	// account (all four fields or none) and a UPI address, each optional.
	BankName, AccountName, AccountNumber, IFSC string
	UPI                                        string
	UpdatedAt                                  time.Time // zero: never saved
}

// DefaultSupplier is the supplier before an admin saved any detail: the
// default prefix and SAC, nothing else.
func DefaultSupplier() *Supplier {
	return &Supplier{InvoicePrefix: DefaultPrefix, SAC: gst.DefaultSAC}
}

// Profile is a customer's billing profile: the recipient block of their
// invoices. Without a GSTIN the customer is an unregistered recipient
// (no input tax credit); the state is the place of supply either way.
type Profile struct {
	UserID    uint64
	LegalName string
	Address   string // lines separated by "\n"
	State     string // GST state code
	GSTIN     string // "" when the customer is not registered
	UpdatedAt time.Time
}

var (
	// ErrNoProfile: the user has no billing profile.
	ErrNoProfile = errs.E(errs.NotFound, "billing_profile_not_found", "No billing profile")
	// ErrSupplierIncomplete: the supplier's details do not make a tax
	// invoice yet (Supplier.Ready names the fields).
	ErrSupplierIncomplete = errs.E(errs.Conflict, "billing_settings_incomplete",
		"The supplier's billing settings are incomplete")
	// ErrNoResellerSupplier: the reseller has saved no billing settings.
	ErrNoResellerSupplier = errs.E(errs.NotFound, "reseller_billing_settings_not_found",
		"The reseller has no billing settings")
	// ErrResellerPayeeMissing: a reseller's customer cannot top up by
	// checkout while its reseller has no payee details (Payable).
	ErrResellerPayeeMissing = errs.E(errs.Conflict, "reseller_payee_missing",
		"Your reseller has not set its payment details yet: ask your reseller how to pay")
	// ErrPayReseller: a reseller's customer pays its reseller directly
	// (the reseller's UPI address or bank account) and raises a balance
	// request that its reseller decides; the platform's checkout would
	// collect into the platform's account, which is not the reseller's.
	ErrPayReseller = errs.E(errs.Conflict, "pay_reseller_directly",
		"Pay your reseller directly (its UPI address or bank account on Add balance) and raise a balance request; your reseller credits your balance")
)

// Payable reports whether payers can pay s: it has a UPI address or a
// bank account.
func (s *Supplier) Payable() bool { return s.UPI != "" || s.AccountNumber != "" }

// vpa is a UPI address as payers type it, lower-cased: a handle of letters,
// digits, '.', '_' or '-', '@' and the provider's name.
var vpa = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{1,255}@[a-z][a-z0-9.-]{1,63}$`)

// Normalize trims the fields and writes the identifiers in their stored
// form (upper-case GSTIN, PAN, prefix and IFSC; lower-case UPI; address
// lines trimmed, blank ones dropped, "\r\n" as "\n"); an empty prefix or
// SAC becomes the default, an empty PAN the GSTIN's.
func (s *Supplier) Normalize() {
	s.LegalName = strings.TrimSpace(s.LegalName)
	s.Address = normalizeAddress(s.Address)
	s.State = strings.TrimSpace(s.State)
	s.GSTIN = gst.NormalizeGSTIN(s.GSTIN)
	s.PAN = gst.NormalizePAN(s.PAN)
	if s.PAN == "" {
		s.PAN = gst.PANOfGSTIN(s.GSTIN) // "" for a GSTIN that Validate refuses
	}
	s.InvoicePrefix = strings.ToUpper(strings.TrimSpace(s.InvoicePrefix))
	if s.InvoicePrefix == "" {
		s.InvoicePrefix = DefaultPrefix
	}
	s.SAC = strings.TrimSpace(s.SAC)
	if s.SAC == "" {
		s.SAC = gst.DefaultSAC
	}
	s.BankName = strings.TrimSpace(s.BankName)
	s.AccountName = strings.TrimSpace(s.AccountName)
	s.AccountNumber = strings.ReplaceAll(strings.TrimSpace(s.AccountNumber), " ", "")
	s.IFSC = strings.ToUpper(strings.TrimSpace(s.IFSC))
	s.UPI = strings.ToLower(strings.TrimSpace(s.UPI))
}

// Validate checks a normalised supplier: field errors named as the JSON of
// the settings (legal_name, gstin, ...). Legal name, address and state are
// required; the rest is optional, each checked when given.
func (s *Supplier) Validate() error {
	fe := errs.FieldErrors{}
	checkParty(fe, s.LegalName, s.Address, s.State, s.GSTIN)
	if s.PAN != "" {
		if msg := gst.PANProblem(s.PAN); msg != "" {
			fe.Add("pan", msg)
		} else if own := gst.PANOfGSTIN(s.GSTIN); own != "" && own != s.PAN {
			fe.Add("pan", "must be the PAN inside the GSTIN ("+own+")")
		}
	}
	if msg := gst.PrefixProblem(s.InvoicePrefix); msg != "" {
		fe.Add("invoice_prefix", msg)
	}
	if msg := gst.SACProblem(s.SAC); msg != "" {
		fe.Add("sac_code", msg)
	}
	bank := s.BankName != "" || s.AccountName != "" || s.AccountNumber != "" || s.IFSC != ""
	if bank {
		const all = "is required with the other bank details (bank_name, account_name, account_number, ifsc: all or none)"
		checkText(fe, "bank_name", s.BankName, MaxBankName, all)
		checkText(fe, "account_name", s.AccountName, MaxAccountName, all)
		switch {
		case s.AccountNumber == "":
			fe.Add("account_number", all)
		case !ident.AccountNumber(s.AccountNumber):
			fe.Add("account_number", "must be 9 to 18 digits")
		}
		switch {
		case s.IFSC == "":
			fe.Add("ifsc", all)
		case !ident.IFSC(s.IFSC):
			fe.Add("ifsc", "must be an IFSC: 4 letters, 0, then 6 letters or digits, such as HDFC0001234")
		}
	}
	if s.UPI != "" && (!vpa.MatchString(s.UPI) || len(s.UPI) > MaxUPI) {
		fe.Add("upi", "must be a UPI address of at most 100 characters, such as paygate@okhdfcbank")
	}
	return fe.Err()
}

// Missing lists the fields (JSON names) a supplier needs before it can
// issue documents at GST rate rate (percent): legal_name, address and
// state always; gstin when rate is above 0, since only a registered
// supplier may charge GST on a tax invoice (an unregistered one issues
// bills of supply, rate 0). Empty: ready.
func (s *Supplier) Missing(rate decimal.Decimal) []string {
	var out []string
	for _, f := range []struct{ name, v string }{{"legal_name", s.LegalName}, {"address", s.Address}, {"state", s.State}} {
		if f.v == "" {
			out = append(out, f.name)
		}
	}
	if rate.IsPositive() && s.GSTIN == "" {
		out = append(out, "gstin")
	}
	return out
}

// Ready is nil when the supplier can issue documents at rate (Missing is
// empty), else ErrSupplierIncomplete naming the missing fields.
func (s *Supplier) Ready(rate decimal.Decimal) error {
	if m := s.Missing(rate); len(m) > 0 {
		e := *ErrSupplierIncomplete
		e.Message += ": set " + strings.Join(m, ", ") + " in the billing settings"
		return &e
	}
	return nil
}

// Normalize trims the fields as Supplier.Normalize does.
func (p *Profile) Normalize() {
	p.LegalName = strings.TrimSpace(p.LegalName)
	p.Address = normalizeAddress(p.Address)
	p.State = strings.TrimSpace(p.State)
	p.GSTIN = gst.NormalizeGSTIN(p.GSTIN)
}

// Validate checks a normalised profile: field errors named legal_name,
// address, state and gstin. Everything but the GSTIN is required.
func (p *Profile) Validate() error {
	fe := errs.FieldErrors{}
	checkParty(fe, p.LegalName, p.Address, p.State, p.GSTIN)
	return fe.Err()
}

// checkParty checks what the supplier and a recipient share: a legal name,
// an address, a state code in force and, when given, a GSTIN registered in
// that state.
func checkParty(fe errs.FieldErrors, legalName, address, state, gstin string) {
	checkText(fe, "legal_name", legalName, MaxLegalName, "is required")
	switch {
	case address == "":
		fe.Add("address", "is required")
	case utf8.RuneCountInString(address) > MaxAddress || strings.Count(address, "\n") >= MaxAddressLines:
		fe.Add("address", "must be at most 500 characters on at most 6 lines")
	case !printable(address, true):
		fe.Add("address", "must not contain control characters other than line breaks")
	}
	name, ok := gst.StateName(state)
	switch {
	case state == "":
		fe.Add("state", "is required: a GST state code such as 27 (GET /api/v1/panel/gst/states lists them)")
	case !ok:
		fe.Add("state", "must be a GST state code such as 27 (GET /api/v1/panel/gst/states lists them)")
	}
	if gstin == "" {
		return
	}
	if msg := gst.GSTINProblem(gstin); msg != "" {
		fe.Add("gstin", msg)
	} else if ok && gstin[:2] != state {
		other, _ := gst.StateName(gstin[:2])
		fe.Add("gstin", "is registered in "+other+" ("+gstin[:2]+"), not in the state given, "+name+" ("+state+")")
	}
}

// checkText requires a one-line text of at most limit characters.
func checkText(fe errs.FieldErrors, field, v string, limit int, empty string) {
	switch {
	case v == "":
		fe.Add(field, empty)
	case utf8.RuneCountInString(v) > limit:
		fe.Add(field, "must be at most "+strconv.Itoa(limit)+" characters")
	case !printable(v, false):
		fe.Add(field, "must be one line without control characters")
	}
}

// printable: valid UTF-8 without control characters (line breaks allowed
// when lines is true): the text goes into PDFs and CSV files as it is.
func printable(s string, lines bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(lines && r == '\n') {
			return false
		}
	}
	return true
}

// normalizeAddress writes an address as trimmed lines joined by "\n",
// blank lines dropped.
func normalizeAddress(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// Store keeps the supplier and the billing profiles. Its methods work on
// the Stores of a transaction as on the plain handle.
type Store interface {
	// Supplier reads the supplier; DefaultSupplier's values when no admin
	// saved any.
	Supplier(ctx context.Context) (*Supplier, error)
	// LockSupplier is Supplier with the record locked until the end of the
	// transaction (the writer's read).
	LockSupplier(ctx context.Context) (*Supplier, error)
	// SaveSupplier replaces the supplier with s.
	SaveSupplier(ctx context.Context, s *Supplier) error
	// Profile reads userID's billing profile; ErrNoProfile when none.
	Profile(ctx context.Context, userID uint64) (*Profile, error)
	// SaveProfile inserts or replaces p's user's profile.
	SaveProfile(ctx context.Context, p *Profile) error
	// DeleteProfile removes userID's profile; none is no error.
	DeleteProfile(ctx context.Context, userID uint64) error
	// ResellerSupplier reads reseller resellerID's own billing and payee
	// details; ErrNoResellerSupplier when it saved none.
	ResellerSupplier(ctx context.Context, resellerID uint64) (*Supplier, error)
	// LockResellerSupplier is ResellerSupplier with the record locked until
	// the end of the transaction (the writer's read).
	LockResellerSupplier(ctx context.Context, resellerID uint64) (*Supplier, error)
	// SaveResellerSupplier inserts or replaces reseller resellerID's record.
	SaveResellerSupplier(ctx context.Context, resellerID uint64, s *Supplier) error
}
