package parties_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/parties"
	"paygate/core/billing/taxprofile"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

var (
	admin    = &user.User{ID: 1, Role: user.RoleAdmin}
	customer = &user.User{ID: 7, Role: user.RoleUser}
	at       = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
)

func newSettings() (*parties.Settings, *storetest.DB) {
	db := storetest.New()
	return parties.New(parties.Deps{Tx: store.Narrow(db, parties.TxStoresOf), Profiles: db.Stores().TaxProfiles, Users: db.Stores().Users,
		Brands: db.Stores().Brands, Now: func() time.Time { return at }}), db
}

func auditEntries(t *testing.T, db *storetest.DB) []audit.Entry {
	t.Helper()
	es, _, err := db.Stores().Audit.List(context.Background(), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestPutSupplier: an admin's save is normalised, stored and audited with
// the record before and after; a refused one (422) and a non-admin's (403)
// change nothing.
func TestPutSupplier(t *testing.T) {
	ctx := context.Background()
	st, db := newSettings()
	got, err := st.Supplier(ctx, admin)
	if err != nil || got.InvoicePrefix != "PG" || got.SAC != "998319" || !got.UpdatedAt.IsZero() {
		t.Fatalf("before any save: %+v, %v", got, err)
	}
	in := taxprofile.Supplier{LegalName: " Paygate Technologies ", Address: "BKC\r\nMumbai", State: "27", GSTIN: "27aapfu0939f1zv",
		UPI: "PayGate@HDFCBank"}
	saved, err := st.PutSupplier(ctx, admin, in)
	if err != nil {
		t.Fatal(err)
	}
	want := taxprofile.Supplier{LegalName: "Paygate Technologies", Address: "BKC\nMumbai", State: "27", GSTIN: "27AAPFU0939F1ZV",
		PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319", UPI: "paygate@hdfcbank", UpdatedAt: at}
	if *saved != want {
		t.Fatalf("saved\n%+v\nwant\n%+v", saved, want)
	}
	if got, _ := st.Supplier(ctx, admin); *got != want {
		t.Fatalf("read back %+v", got)
	}
	es := auditEntries(t, db)
	if len(es) != 1 || es[0].Action != "billing_settings.update" || es[0].TargetType != "billing_settings" || es[0].TargetID != nil ||
		es[0].ActorID != admin.ID {
		t.Fatalf("audit %+v", es)
	}
	var before, after map[string]any
	_ = json.Unmarshal(es[0].Before, &before)
	_ = json.Unmarshal(es[0].After, &after)
	if before["legal_name"] != "" || before["invoice_prefix"] != "PG" || after["gstin"] != "27AAPFU0939F1ZV" || after["pan"] != "AAPFU0939F" {
		t.Fatalf("audit before %v after %v", before, after)
	}

	_, err = st.PutSupplier(ctx, admin, taxprofile.Supplier{LegalName: "X", Address: "Y", State: "29", GSTIN: "27AAPFU0939F1ZV"})
	if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || len(e.Fields["gstin"]) == 0 {
		t.Fatalf("GSTIN of another state: %v", err)
	}
	if _, err := st.PutSupplier(ctx, customer, want); !errors.Is(err, errs.ErrForbidden) {
		t.Fatalf("a user's save: %v", err)
	}
	if _, err := st.Supplier(ctx, customer); !errors.Is(err, errs.ErrForbidden) {
		t.Fatalf("a user's read: %v", err)
	}
	if got, _ := st.Supplier(ctx, admin); *got != want || len(auditEntries(t, db)) != 1 {
		t.Fatalf("after refused saves: %+v", got)
	}
}

// TestProfiles: a profile saved normalised under its owner's id, replaced,
// refused with field errors, cleared.
func TestProfiles(t *testing.T) {
	ctx := context.Background()
	st, db := newSettings()
	if _, err := st.Profile(ctx, customer.ID); !errors.Is(err, taxprofile.ErrNoProfile) {
		t.Fatalf("no profile yet: %v", err)
	}
	p, err := st.SaveProfile(ctx, customer.ID, taxprofile.Profile{UserID: 99, LegalName: "Asha Traders", Address: " 12 MG Road \n Bengaluru ",
		State: "29", GSTIN: " 29aagcb7383j1z4 "})
	if err != nil {
		t.Fatal(err)
	}
	want := taxprofile.Profile{UserID: customer.ID, LegalName: "Asha Traders", Address: "12 MG Road\nBengaluru", State: "29",
		GSTIN: "29AAGCB7383J1Z4", UpdatedAt: at}
	if *p != want {
		t.Fatalf("saved %+v, want %+v", p, want)
	}
	if got, err := st.Profile(ctx, customer.ID); err != nil || *got != want {
		t.Fatalf("read back %+v, %v", got, err)
	}
	_, err = st.SaveProfile(ctx, customer.ID, taxprofile.Profile{LegalName: "Asha", Address: "Pune", State: "27", GSTIN: "29AAGCB7383J1Z4"})
	if e, ok := errs.As(err); !ok || len(e.Fields["gstin"]) == 0 {
		t.Fatalf("state mismatch: %v", err)
	}
	if got, _ := st.Profile(ctx, customer.ID); *got != want {
		t.Fatalf("a refused save changed the profile: %+v", got)
	}
	if _, err := st.SaveProfile(ctx, customer.ID, taxprofile.Profile{LegalName: "Asha", Address: "Pune", State: "27"}); err != nil {
		t.Fatalf("unregistered: %v", err)
	}
	if err := st.ClearProfile(ctx, customer.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Profile(ctx, customer.ID); !errors.Is(err, taxprofile.ErrNoProfile) {
		t.Fatalf("cleared: %v", err)
	}
	if len(auditEntries(t, db)) != 0 {
		t.Fatal("an owner's profile change was audited")
	}
}

// TestResellerSupplier: a reseller reads and saves its own record (the
// defaults, prefix IN, until it saved one; GSTIN optional), audited with
// the reseller as target; the platform's record and another reseller's stay
// as they were; a customer is refused.
func TestResellerSupplier(t *testing.T) {
	ctx := context.Background()
	st, db := newSettings()
	reseller := &user.User{ID: 20, Role: user.RoleReseller}
	other := &user.User{ID: 21, Role: user.RoleReseller}
	got, err := st.Supplier(ctx, reseller)
	if err != nil || *got != *parties.DefaultResellerSupplier() || got.InvoicePrefix != "IN" {
		t.Fatalf("before any save: %+v, %v", got, err)
	}
	if _, err := st.ResellerSupplier(ctx, reseller.ID); !errors.Is(err, taxprofile.ErrNoResellerSupplier) {
		t.Fatalf("none saved: %v", err)
	}
	in := taxprofile.Supplier{LegalName: " Asha Digital ", Address: "12 MG Road\nBengaluru", State: "29",
		BankName: "ICICI Bank", AccountName: "Asha Digital", AccountNumber: "123456789012", IFSC: "icic0000123", UPI: "Asha@ICICI"}
	saved, err := st.PutSupplier(ctx, reseller, in)
	if err != nil {
		e, _ := errs.As(err)
		t.Fatal(err, e.Fields)
	}
	want := taxprofile.Supplier{LegalName: "Asha Digital", Address: "12 MG Road\nBengaluru", State: "29", InvoicePrefix: "IN",
		SAC: "998319", BankName: "ICICI Bank", AccountName: "Asha Digital", AccountNumber: "123456789012", IFSC: "ICIC0000123",
		UPI: "asha@icici", UpdatedAt: at}
	if *saved != want {
		t.Fatalf("saved\n%+v\nwant\n%+v", saved, want)
	}
	for _, read := range []func() (*taxprofile.Supplier, error){
		func() (*taxprofile.Supplier, error) { return st.Supplier(ctx, reseller) },
		func() (*taxprofile.Supplier, error) { return st.ResellerSupplier(ctx, reseller.ID) },
	} {
		if got, err := read(); err != nil || *got != want {
			t.Fatalf("read back %+v, %v", got, err)
		}
	}
	if got, _ := st.Supplier(ctx, admin); *got != *taxprofile.DefaultSupplier() {
		t.Fatalf("the platform's record changed: %+v", got)
	}
	if got, _ := st.Supplier(ctx, other); *got != *parties.DefaultResellerSupplier() {
		t.Fatalf("another reseller sees %+v", got)
	}
	es := auditEntries(t, db)
	if len(es) != 1 || es[0].Action != "billing_settings.update" || es[0].TargetType != "user" || es[0].TargetID == nil ||
		*es[0].TargetID != reseller.ID || es[0].ActorID != reseller.ID {
		t.Fatalf("audit %+v", es)
	}
	var before, after map[string]any
	_ = json.Unmarshal(es[0].Before, &before)
	_ = json.Unmarshal(es[0].After, &after)
	if before["legal_name"] != "" || before["invoice_prefix"] != "IN" || after["upi"] != "asha@icici" || after["gstin"] != "" {
		t.Fatalf("audit before %v after %v", before, after)
	}
	_, err = st.PutSupplier(ctx, reseller, taxprofile.Supplier{LegalName: "X", Address: "Y", State: "29", UPI: "not a vpa"})
	if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || len(e.Fields["upi"]) == 0 {
		t.Fatalf("a wrong UPI address: %v", err)
	}
	customerOf := &user.User{ID: 30, Role: user.RoleUser, ParentID: &reseller.ID}
	if _, err := st.PutSupplier(ctx, customerOf, want); !errors.Is(err, errs.ErrForbidden) {
		t.Fatalf("a customer's save: %v", err)
	}
	if got, _ := st.Supplier(ctx, reseller); *got != want || len(auditEntries(t, db)) != 1 {
		t.Fatalf("after refused saves: %+v", got)
	}
}

// TestPayeeAndCheckoutTopUp: whom each account pays and whether it may top
// up by the platform's checkout: a customer its reseller (never by
// checkout: reseller_payee_missing without the reseller's details, else
// pay_reseller_directly), with its brand's support contacts only (never
// the reseller's sign-in email or phone); everyone else the platform, by
// checkout.
func TestPayeeAndCheckoutTopUp(t *testing.T) {
	ctx := context.Background()
	st, db := newSettings()
	users := db.Stores().Users
	reseller := &user.User{Name: "Asha", Email: "asha@example.com", Phone: "9812345678", Role: user.RoleReseller,
		Status: user.StatusActive, Plan: user.PlanStarter, PasswordHash: "x"}
	if err := users.Create(ctx, reseller); err != nil {
		t.Fatal(err)
	}
	cust := &user.User{ID: 99, Role: user.RoleUser, ParentID: &reseller.ID}
	p, err := st.Payee(ctx, cust)
	if err != nil || !p.Reseller || p.ResellerID != reseller.ID || p.Name != "Asha" || p.Payable() || p.Checkout ||
		p.SupportEmail != "" || p.SupportPhone != "" {
		t.Fatalf("a customer of a reseller without details: %+v, %v", p, err)
	}
	if err := st.CheckoutTopUp(ctx, cust); !errors.Is(err, taxprofile.ErrResellerPayeeMissing) {
		t.Fatalf("checkout without details: %v", err)
	}
	rec := taxprofile.Supplier{LegalName: "Asha Digital", Address: "Pune", State: "27", UPI: "asha@icici"}
	if _, err := st.PutSupplier(ctx, reseller, rec); err != nil {
		t.Fatal(err)
	}
	if p, _ = st.Payee(ctx, cust); p.Name != "Asha Digital" || p.Details.UPI != "asha@icici" || !p.Payable() || p.Checkout {
		t.Fatalf("with details: %+v", p)
	}
	if err := st.CheckoutTopUp(ctx, cust); !errors.Is(err, taxprofile.ErrPayReseller) {
		t.Fatalf("checkout with details: %v", err)
	}
	for _, u := range []*user.User{reseller, customer, admin} {
		p, err := st.Payee(ctx, u)
		if err != nil || p.Reseller || !p.Checkout || p.Details.UPI != "" || st.CheckoutTopUp(ctx, u) != nil {
			t.Fatalf("%d pays %+v, %v", u.ID, p, err)
		}
	}
	if _, err := st.Payee(ctx, nil); !errors.Is(err, errs.ErrUnauthorized) {
		t.Fatalf("nobody: %v", err)
	}
}
