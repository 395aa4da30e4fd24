// Package parties is the panel's use cases of the invoices' two
// parties (docs/decisions.md, "Supplier settings and billing profiles"):
// admins read and replace the supplier's details, audited; each account
// keeps its own billing profile. The records and their rules are
// core/billing/taxprofile's; issuing invoices reads them in its transaction (issuing.TxStores).
//
// The supplier (GET/PUT /panel/settings/billing, admin) is one row
// (billing_settings, id 1, written by migration 00039 with prefix PG and
// SAC 998319, so the writer locks an existing row). PUT replaces the whole
// record, audited billing_settings.update with before and after, the bank
// account in full (it is printed on every invoice, and a changed payee
// account is what an investigation looks for; it is never logged). Legal
// name, address (≤ 6 lines) and state are required; GSTIN, PAN, bank
// account (all four fields or none) and UPI address optional; an empty PAN
// is the GSTIN's, a given one must equal it. Text is "" when not set, never
// null. The PUT does not require a GSTIN, so an admin can save as they go;
// Supplier.Ready(rate) says what invoicing still needs (409
// billing_settings_incomplete naming the fields): legal name, address and
// state, and a GSTIN when GST_RATE is above 0 (an unregistered supplier
// issues bills of supply only).
//
// A reseller keeps its own record the same way (reseller_billing_settings,
// migration 00048; GSTIN optional, prefix IN until set; audited with the
// reseller as target): the supplier of its customers' invoices and the
// payee its customers pay. Payee answers whom an account pays on Add
// balance: a reseller's customer its reseller (never the platform), anyone
// else the platform; CheckoutTopUp refuses a customer the platform's
// checkout (docs/decisions.md, "Resellers: customers pay their reseller").
//
// The customer's profile (billing in GET/PATCH /panel/auth/me;
// billing_profiles keyed by user_id, no foreign key) holds legal name,
// address, state and an optional GSTIN; null removes it; the owner's own
// change, not audited. PATCH checks the profile before it changes the
// account and saves it after (field errors billing.<field>); other views
// of a user leave billing out. A state is a GST state code in force (GET
// /panel/gst/states); a GSTIN a regular taxpayer's (core/billing/gst), normalised
// upper-case and registered in the given state, else 422 on gstin. A
// service's SAC (api_services.sac_code, 6 digits from 99; NULL: the
// supplier's default) is set by admins and shown to admins only.
package parties

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/taxprofile"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
)

// Deps are the ports the settings run on.
type Deps struct {
	Tx       store.TransactorOf[TxStores]
	Profiles Profiles
	Users    Users
	Brands   Brands
	Now      func() time.Time
}

// Settings is the supplier's and the billing profiles' use cases.
type Settings struct {
	tx       store.TransactorOf[TxStores]
	profiles Profiles
	users    Users
	brands   Brands
	now      func() time.Time
}

func New(d Deps) *Settings {
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Settings{tx: d.Tx, profiles: d.Profiles, users: d.Users, brands: d.Brands, now: d.Now}
}

func requireAdmin(actor *user.User) error {
	if actor == nil || actor.Role != user.RoleAdmin {
		return errs.ErrForbidden
	}
	return nil
}

// Supplier is the billing settings the caller keeps: an admin's are the
// platform's (the defaults, prefix PG and SAC 998319, until one saved
// them); a reseller's its own (prefix IN and SAC 998319 until it saved
// them); anyone else is refused (403).
func (st *Settings) Supplier(ctx context.Context, actor *user.User) (*taxprofile.Supplier, error) {
	if actor != nil && actor.Role == user.RoleReseller {
		sup, err := st.profiles.ResellerSupplier(ctx, actor.ID)
		if errors.Is(err, taxprofile.ErrNoResellerSupplier) {
			return DefaultResellerSupplier(), nil
		}
		return sup, err
	}
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	return st.profiles.Supplier(ctx)
}

// DefaultResellerSupplier is a reseller's record before it saved one: its
// own default prefix (never the platform's) and the default SAC.
func DefaultResellerSupplier() *taxprofile.Supplier {
	sup := taxprofile.DefaultSupplier()
	sup.InvoicePrefix = taxprofile.DefaultResellerPrefix
	return sup
}

// ResellerSupplier is reseller resellerID's own billing and payee details
// as saved (the supplier block of its customers' invoices, the payee its
// customers pay); taxprofile.ErrNoResellerSupplier when it saved none. No
// caller check: the caller decides whose record it needs.
func (st *Settings) ResellerSupplier(ctx context.Context, resellerID uint64) (*taxprofile.Supplier, error) {
	return st.profiles.ResellerSupplier(ctx, resellerID)
}

// Payee is whom an account pays to add to its balance, and how (Add
// balance; docs/decisions.md, "Resellers: customers pay their reseller").
type Payee struct {
	// Reseller: the account is a reseller's customer and pays its reseller
	// (ResellerID), never the platform.
	Reseller   bool
	ResellerID uint64
	// Name is who is paid, as the payer is shown it: a reseller's brand
	// name, else its legal name, else its account's name; the platform's
	// legal name ("" until an admin sets it).
	Name string
	// Details are the payee's legal name, bank account and UPI address
	// ("" when not set): the reseller's own record for a customer.
	Details taxprofile.Supplier
	// A reseller's support contacts, for a customer to ask it: its brand's,
	// else its account's email and phone. "" for the platform.
	SupportEmail, SupportPhone string
	// Checkout: the checkout top-up (POST /balance/checkout, collected by
	// the platform's payment provider into the platform's account) is
	// offered. Never to a customer: the money is its reseller's.
	Checkout bool
}

// Payable reports whether the payee can be paid (a UPI address or a bank
// account); a customer of a reseller without either is told to ask it.
func (p *Payee) Payable() bool { return p.Details.Payable() }

// Payee is whom actor pays on Add balance: a reseller's customer its
// reseller (the reseller's own record, brand name and support contacts;
// empty details when it saved none), anyone else the platform (the
// supplier's legal name, bank account and UPI address). The account number
// is shown as saved: it is printed on every invoice.
func (st *Settings) Payee(ctx context.Context, actor *user.User) (*Payee, error) {
	if actor == nil {
		return nil, errs.ErrUnauthorized
	}
	if actor.ParentID == nil {
		sup, err := st.profiles.Supplier(ctx)
		if err != nil {
			return nil, err
		}
		return &Payee{Name: sup.LegalName, Details: *sup, Checkout: true}, nil
	}
	rid := *actor.ParentID
	reseller, err := st.users.ByID(ctx, rid)
	if err != nil {
		return nil, fmt.Errorf("reseller %d of user %d: %w", rid, actor.ID, err)
	}
	b, err := st.brands.Get(ctx, rid)
	if err != nil {
		return nil, err
	}
	sup, err := st.profiles.ResellerSupplier(ctx, rid)
	if errors.Is(err, taxprofile.ErrNoResellerSupplier) {
		sup, err = &taxprofile.Supplier{}, nil
	}
	if err != nil {
		return nil, err
	}
	p := &Payee{Reseller: true, ResellerID: rid, Name: firstOf(b.Name, sup.LegalName, reseller.Name),
		SupportEmail: b.SupportEmail, SupportPhone: b.SupportPhone,
		Details: taxprofile.Supplier{LegalName: firstOf(sup.LegalName, b.Name, reseller.Name), BankName: sup.BankName,
			AccountName: sup.AccountName, AccountNumber: sup.AccountNumber, IFSC: sup.IFSC, UPI: sup.UPI}}
	// Only the brand's support contacts are shown: a reseller's sign-in
	// email and phone are its own, not a channel it chose for customers.
	return p, nil
}

// CheckoutTopUp is nil when actor may start a checkout top-up; a reseller's
// customer never may: taxprofile.ErrResellerPayeeMissing while its reseller
// has no payee details, else taxprofile.ErrPayReseller (it pays its reseller
// directly and raises a balance request).
func (st *Settings) CheckoutTopUp(ctx context.Context, actor *user.User) error {
	p, err := st.Payee(ctx, actor)
	switch {
	case err != nil:
		return err
	case p.Checkout:
		return nil
	case !p.Payable():
		return taxprofile.ErrResellerPayeeMissing
	default:
		return taxprofile.ErrPayReseller
	}
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// PutSupplier replaces the caller's billing settings with in: an admin's
// the platform's, a reseller's its own (anyone else 403). Normalised,
// validated (422 with the fields named as in the settings' JSON; the GSTIN
// is optional), saved and audited (billing_settings.update, the record
// before and after; a reseller's targets the reseller's user) in one
// transaction. An empty prefix or SAC is the default (a reseller's prefix
// IN); an empty PAN the GSTIN's.
func (st *Settings) PutSupplier(ctx context.Context, actor *user.User, in taxprofile.Supplier) (*taxprofile.Supplier, error) {
	if actor != nil && actor.Role == user.RoleReseller {
		return st.putResellerSupplier(ctx, actor, in)
	}
	admin := actor
	if err := requireAdmin(admin); err != nil {
		return nil, err
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, err
	}
	err := st.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		before, err := s.TaxProfiles.LockSupplier(ctx)
		if err != nil {
			return err
		}
		now := st.now().UTC()
		in.UpdatedAt = now
		if err := s.TaxProfiles.SaveSupplier(ctx, &in); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, now, admin, audit.BillingSettingsUpdate, audit.TargetBillingSettings, 0,
			supplierSnapshot(before), supplierSnapshot(&in))
	})
	if err != nil {
		return nil, err
	}
	return &in, nil
}

func (st *Settings) putResellerSupplier(ctx context.Context, reseller *user.User, in taxprofile.Supplier) (*taxprofile.Supplier, error) {
	if strings.TrimSpace(in.InvoicePrefix) == "" {
		in.InvoicePrefix = taxprofile.DefaultResellerPrefix
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, err
	}
	err := st.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		before, err := s.TaxProfiles.LockResellerSupplier(ctx, reseller.ID)
		if errors.Is(err, taxprofile.ErrNoResellerSupplier) {
			before, err = DefaultResellerSupplier(), nil
		}
		if err != nil {
			return err
		}
		now := st.now().UTC()
		in.UpdatedAt = now
		if err := s.TaxProfiles.SaveResellerSupplier(ctx, reseller.ID, &in); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, now, reseller, audit.BillingSettingsUpdate, audit.TargetUser, reseller.ID,
			supplierSnapshot(before), supplierSnapshot(&in))
	})
	if err != nil {
		return nil, err
	}
	return &in, nil
}

// Profile is userID's billing profile; taxprofile.ErrNoProfile when none.
func (st *Settings) Profile(ctx context.Context, userID uint64) (*taxprofile.Profile, error) {
	return st.profiles.Profile(ctx, userID)
}

// CheckProfile normalises and validates a profile without saving it
// (fields legal_name, address, state, gstin), so that a request changing
// the account too can refuse before it changes anything.
func (st *Settings) CheckProfile(in taxprofile.Profile) (*taxprofile.Profile, error) {
	in.Normalize()
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return &in, nil
}

// SaveProfile replaces userID's billing profile with in, validated as
// CheckProfile does. The owner's own change: not audited.
func (st *Settings) SaveProfile(ctx context.Context, userID uint64, in taxprofile.Profile) (*taxprofile.Profile, error) {
	p, err := st.CheckProfile(in)
	if err != nil {
		return nil, err
	}
	p.UserID, p.UpdatedAt = userID, st.now().UTC()
	if err := st.profiles.SaveProfile(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// ClearProfile removes userID's billing profile (none: nothing to do); the
// account's invoices then name no recipient details but its name.
func (st *Settings) ClearProfile(ctx context.Context, userID uint64) error {
	return st.profiles.DeleteProfile(ctx, userID)
}

// supplierAudit is the audit's snapshot of the supplier: every field. The
// bank account is recorded in full: it is printed on every invoice, and a
// changed payee account is what an investigation of the log looks for.
type supplierAudit struct {
	LegalName     string `json:"legal_name"`
	Address       string `json:"address"`
	State         string `json:"state"`
	GSTIN         string `json:"gstin"`
	PAN           string `json:"pan"`
	InvoicePrefix string `json:"invoice_prefix"`
	SAC           string `json:"sac_code"`
	BankName      string `json:"bank_name"`
	AccountName   string `json:"account_name"`
	AccountNumber string `json:"account_number"`
	IFSC          string `json:"ifsc"`
	UPI           string `json:"upi"`
}

func supplierSnapshot(s *taxprofile.Supplier) supplierAudit {
	return supplierAudit{LegalName: s.LegalName, Address: s.Address, State: s.State, GSTIN: s.GSTIN, PAN: s.PAN,
		InvoicePrefix: s.InvoicePrefix, SAC: s.SAC, BankName: s.BankName, AccountName: s.AccountName,
		AccountNumber: s.AccountNumber, IFSC: s.IFSC, UPI: s.UPI}
}
