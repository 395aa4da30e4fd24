package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/core/accounts/user"
	"paygate/core/app"
	"paygate/core/billing/taxprofile"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
)

// invoiceFixture is a migrated database with the supplier's settings in
// Maharashtra, and accounts charged collection fees at given instants.
type invoiceFixture struct {
	*billingFixture
}

func newInvoiceFixture(t *testing.T, url string) *invoiceFixture {
	f := &invoiceFixture{newBillingFixture(t, url)}
	sup := &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited", Address: "1 Marine Drive\nMumbai 400020",
		State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319"}
	if err := f.store.Stores().TaxProfiles.SaveSupplier(context.Background(), sup); err != nil {
		t.Fatal(err)
	}
	return f
}

// app is another instance's use cases on its own connection to the
// database, invoicing at 18%.
func (f *invoiceFixture) instance() *app.App {
	f.t.Helper()
	s, err := sqlstore.Open(context.Background(), f.url, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { s.Close() })
	return app.New(app.Deps{Tx: s, Stores: s.Stores(), Names: s.Names(), Exports: s.Exports(), Config: app.Config{Location: kolkata, GSTRate: decimal.NewFromInt(18)}})
}

// charge debits a collection fee of amount from user id at instant at.
func (f *invoiceFixture) charge(id uint64, amount string, at time.Time) {
	f.t.Helper()
	err := f.store.WithinTx(context.Background(), func(ctx context.Context, s store.Stores) error {
		u, err := s.Users.LockByID(ctx, id)
		if err != nil {
			return err
		}
		ref := id
		if _, err := store.Post(ctx, s.Books(), at, false, u, ledger.Debit, decimal.RequireFromString(amount), ledger.RefPaymentFee, &ref, "Collection fee"); err != nil {
			return err
		}
		return s.Users.SaveBalance(ctx, u)
	})
	if err != nil {
		f.t.Fatal(err)
	}
}

type issuedRow struct {
	UserID uint64
	Number string
	Series string
	Seq    int64
	Kind   string
	Gross  string
}

func (f *invoiceFixture) issued() []issuedRow {
	f.t.Helper()
	var rows []issuedRow
	if err := f.store.DB().Raw("SELECT user_id, number, series, seq, kind, gross FROM invoices ORDER BY series, seq").Scan(&rows).Error; err != nil {
		f.t.Fatal(err)
	}
	return rows
}

// TestInvoiceNumbersHoldUnderConcurrency: two instances and the operator's
// `server invoices issue` issue November at once for 200 charged accounts:
// 200 invoices, one each, numbered PG/26-27/000001 to 000200 without a gap
// or a duplicate; running again issues nothing; an account without a
// billable charge gets none. March 2027 issued on 1 April starts the
// 27-28 series at 1.
func TestInvoiceNumbersHoldUnderConcurrency(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newInvoiceFixture(t, url)
		const n = 200
		nov := time.Date(2026, 11, 15, 12, 0, 0, 0, kolkata)
		var ids []uint64
		for i := range n {
			id := f.user(fmt.Sprintf("c%d@example.com", i), user.PlanStarter, "100.00")
			f.charge(id, "11.80", nov)
			ids = append(ids, id)
		}
		f.user("idle@example.com", user.PlanStarter, "100.00") // a top-up is no supply
		at := time.Date(2026, 12, 1, 0, 5, 0, 0, kolkata)
		a, b := f.instance(), f.instance()
		var wg sync.WaitGroup
		errs := make([]error, 3)
		wg.Go(func() { _, errs[0] = a.Invoicing.Issue(context.Background(), "2026-11", at) })
		wg.Go(func() { _, errs[1] = b.Invoicing.Issue(context.Background(), "2026-11", at) })
		wg.Go(func() {
			env := map[string]string{"DATABASE_URL": url, "TIMEZONE": "Asia/Kolkata"}
			errs[2] = run(context.Background(), []string{"invoices", "issue", "--month", "2026-11", "--at", at.Format(time.RFC3339)},
				func(k string) string { return env[k] }, &syncBuffer{})
		})
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("issuer %d: %v", i, err)
			}
		}
		rows := f.issued()
		if len(rows) != n {
			t.Fatalf("%d invoices, want %d", len(rows), n)
		}
		owners := map[uint64]bool{}
		for i, r := range rows {
			want := fmt.Sprintf("PG/26-27/%06d", i+1)
			if r.Series != "PG/26-27" || r.Seq != int64(i+1) || r.Number != want || r.Kind != "invoice" {
				t.Fatalf("invoice %d: %+v, want number %s", i, r, want)
			}
			if owners[r.UserID] {
				t.Fatalf("user %d invoiced twice", r.UserID)
			}
			owners[r.UserID] = true
		}
		for _, id := range ids {
			if !owners[id] {
				t.Fatalf("user %d has no invoice", id)
			}
		}
		if res, err := a.Invoicing.Issue(context.Background(), "2026-11", at.Add(time.Hour)); err != nil || res.Invoices != 0 {
			t.Fatalf("again: %+v %v", res, err)
		}
		if _, err := a.Invoicing.Issue(context.Background(), "2026-12", at); err == nil || !strings.Contains(err.Error(), "not ended") {
			t.Fatalf("a month not over: %v", err)
		}

		f.charge(ids[0], "5.90", time.Date(2027, 3, 31, 23, 0, 0, 0, kolkata))
		if res, err := a.Invoicing.Issue(context.Background(), "2027-03", time.Date(2027, 4, 1, 0, 1, 0, 0, kolkata)); err != nil || res.Invoices != 1 {
			t.Fatalf("March: %+v %v", res, err)
		}
		if last := f.issued(); last[len(last)-1].Number != "PG/27-28/000001" && last[0].Number != "PG/27-28/000001" {
			t.Fatalf("the new financial year's first number: %+v", last)
		}
	})
}

// TestInvoicingWaitsForTheSupplierSettings: a month nobody was charged in
// is finished without documents even before the billing settings exist; a
// month with charges is refused (409) until they are complete, then issued.
func TestInvoicingWaitsForTheSupplierSettings(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newBillingFixture(t, url)
		a := (&invoiceFixture{f}).instance()
		ctx := context.Background()
		if _, err := a.Invoicing.Issue(ctx, "2026-10", time.Date(2026, 11, 1, 0, 5, 0, 0, kolkata)); err != nil {
			t.Fatalf("a month without charges: %v", err)
		}
		id := f.user("c@example.com", user.PlanStarter, "100.00")
		(&invoiceFixture{f}).charge(id, "11.80", time.Date(2026, 11, 3, 10, 0, 0, 0, kolkata))
		dec1 := time.Date(2026, 12, 1, 0, 5, 0, 0, kolkata)
		if _, err := a.Invoicing.Issue(ctx, "2026-11", dec1); !errors.Is(err, taxprofile.ErrSupplierIncomplete) {
			t.Fatalf("charges without settings: %v, want billing_settings_incomplete", err)
		}
		if err := f.store.Stores().TaxProfiles.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate", Address: "Mumbai",
			State: "27", GSTIN: "27AAPFU0939F1ZV", InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		if res, err := a.Invoicing.Issue(ctx, "2026-11", dec1); err != nil || res.Invoices != 1 {
			t.Fatalf("after the settings: %+v %v", res, err)
		}
	})
}
