package storecontract

import (
	"context"
	"errors"
	"testing"
	"time"

	"paygate/core/billing/taxprofile"
	"paygate/core/platform/store"
)

// TaxProfileContract runs the cases every taxprofile.Store keeps, on a
// fresh, empty store: this fake (its own test) and the database adapter on
// SQLite and MariaDB (adapters/sqlstore), so the fake cannot drift from
// the real store.
func TaxProfileContract(t *testing.T, tx store.Transactor, plain store.Stores) {
	ctx := context.Background()
	at := time.Date(2026, 11, 27, 10, 30, 15, 123456000, time.UTC)
	st := plain.TaxProfiles

	t.Run("supplier", func(t *testing.T) {
		got, err := st.Supplier(ctx)
		if err != nil || *got != *taxprofile.DefaultSupplier() {
			t.Fatalf("never saved: %+v, %v; want the defaults", got, err)
		}
		full := taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited", Address: "4th Floor\nBKC, Mumbai 400051",
			State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F", InvoicePrefix: "PX", SAC: "998314",
			BankName: "HDFC Bank", AccountName: "Paygate Technologies", AccountNumber: "50200012345678", IFSC: "HDFC0000240",
			UPI: "paygate@hdfcbank", UpdatedAt: at}
		if err := st.SaveSupplier(ctx, &full); err != nil {
			t.Fatal(err)
		}
		if got, err = st.Supplier(ctx); err != nil || *got != full {
			t.Fatalf("read back\n%+v (%v)\nwant\n%+v", got, err, full)
		}
		// Saving replaces every field: the absent ones are cleared.
		bare := taxprofile.Supplier{LegalName: "Paygate", Address: "Pune", State: "27", InvoicePrefix: "PG", SAC: "998319",
			UpdatedAt: at.Add(time.Minute)}
		if err := st.SaveSupplier(ctx, &bare); err != nil {
			t.Fatal(err)
		}
		if got, _ = st.Supplier(ctx); *got != bare {
			t.Fatalf("after a second save\n%+v\nwant\n%+v", got, bare)
		}
		// In a transaction: the writer's locked read, its save seen inside,
		// and nothing left behind by a rollback.
		rollback := errors.New("roll back")
		err = tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			locked, err := s.TaxProfiles.LockSupplier(ctx)
			if err != nil || *locked != bare {
				t.Errorf("locked read %+v, %v", locked, err)
			}
			changed := *locked
			changed.LegalName = "Changed"
			if err := s.TaxProfiles.SaveSupplier(ctx, &changed); err != nil {
				return err
			}
			if in, _ := s.TaxProfiles.Supplier(ctx); in.LegalName != "Changed" {
				t.Errorf("inside the transaction: %q", in.LegalName)
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		if got, _ = st.Supplier(ctx); *got != bare {
			t.Fatalf("after the rollback %+v", got)
		}
		err = tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			if _, err := s.TaxProfiles.LockSupplier(ctx); err != nil {
				return err
			}
			return s.TaxProfiles.SaveSupplier(ctx, &full)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ = st.Supplier(ctx); *got != full {
			t.Fatalf("after a committed save %+v", got)
		}
	})

	t.Run("profiles", func(t *testing.T) {
		if _, err := st.Profile(ctx, 41); !errors.Is(err, taxprofile.ErrNoProfile) {
			t.Fatalf("no profile: %v, want billing_profile_not_found", err)
		}
		if err := st.DeleteProfile(ctx, 41); err != nil {
			t.Fatalf("deleting none: %v", err)
		}
		a := taxprofile.Profile{UserID: 41, LegalName: "Asha Traders", Address: "12 MG Road\nBengaluru", State: "29",
			GSTIN: "29AAGCB7383J1Z4", UpdatedAt: at}
		b := taxprofile.Profile{UserID: 42, LegalName: "Ravi Kumar", Address: "Chennai", State: "33", UpdatedAt: at}
		for _, p := range []*taxprofile.Profile{&a, &b} {
			if err := st.SaveProfile(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		for _, want := range []taxprofile.Profile{a, b} {
			if got, err := st.Profile(ctx, want.UserID); err != nil || *got != want {
				t.Fatalf("profile of %d: %+v, %v; want %+v", want.UserID, got, err, want)
			}
		}
		a2 := taxprofile.Profile{UserID: 41, LegalName: "Asha Traders LLP", Address: "Mysuru", State: "29", UpdatedAt: at.Add(time.Hour)}
		if err := st.SaveProfile(ctx, &a2); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.Profile(ctx, 41); *got != a2 {
			t.Fatalf("replaced: %+v, want %+v", got, a2)
		}
		err := tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			c := taxprofile.Profile{UserID: 43, LegalName: "C", Address: "D", State: "07", UpdatedAt: at}
			if err := s.TaxProfiles.SaveProfile(ctx, &c); err != nil {
				return err
			}
			if err := s.TaxProfiles.DeleteProfile(ctx, 42); err != nil {
				return err
			}
			if _, err := s.TaxProfiles.Profile(ctx, 43); err != nil {
				t.Errorf("inside the transaction: %v", err)
			}
			return errors.New("roll back")
		})
		if err == nil {
			t.Fatal("the transaction did not fail")
		}
		if _, err := st.Profile(ctx, 43); !errors.Is(err, taxprofile.ErrNoProfile) {
			t.Fatalf("a rolled-back save left %v", err)
		}
		if got, err := st.Profile(ctx, 42); err != nil || *got != b {
			t.Fatalf("a rolled-back delete: %+v, %v", got, err)
		}
		if err := st.DeleteProfile(ctx, 42); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Profile(ctx, 42); !errors.Is(err, taxprofile.ErrNoProfile) {
			t.Fatalf("deleted: %v", err)
		}
		if got, _ := st.Profile(ctx, 41); *got != a2 {
			t.Fatalf("the other profile: %+v", got)
		}
	})
	t.Run("resellers' own records", func(t *testing.T) {
		if _, err := st.ResellerSupplier(ctx, 51); !errors.Is(err, taxprofile.ErrNoResellerSupplier) {
			t.Fatalf("never saved: %v, want reseller_billing_settings_not_found", err)
		}
		a := taxprofile.Supplier{LegalName: "Asha Digital Services", Address: "12 MG Road\nBengaluru 560001", State: "29",
			GSTIN: "29AAGCB7383J1Z4", PAN: "AAGCB7383J", InvoicePrefix: "AD", SAC: "998319",
			BankName: "ICICI Bank", AccountName: "Asha Digital", AccountNumber: "123456789012", IFSC: "ICIC0000123",
			UPI: "asha@icici", UpdatedAt: at}
		b := taxprofile.Supplier{LegalName: "Ravi Kumar", Address: "Chennai", State: "33", InvoicePrefix: "IN", SAC: "998319",
			UPI: "ravi@okaxis", UpdatedAt: at}
		if err := st.SaveResellerSupplier(ctx, 51, &a); err != nil {
			t.Fatal(err)
		}
		if err := st.SaveResellerSupplier(ctx, 52, &b); err != nil {
			t.Fatal(err)
		}
		for id, want := range map[uint64]taxprofile.Supplier{51: a, 52: b} {
			if got, err := st.ResellerSupplier(ctx, id); err != nil || *got != want {
				t.Fatalf("reseller %d: %+v, %v; want %+v", id, got, err, want)
			}
		}
		// The platform's record is not a reseller's, nor the other way round.
		if got, _ := st.Supplier(ctx); got.LegalName == a.LegalName || got.LegalName == b.LegalName {
			t.Fatalf("the platform's record took a reseller's: %+v", got)
		}
		// Saving replaces every field; a rolled-back save leaves nothing.
		a2 := taxprofile.Supplier{LegalName: "Asha Digital LLP", Address: "Mysuru", State: "29", InvoicePrefix: "IN", SAC: "998319",
			UpdatedAt: at.Add(time.Hour)}
		if err := st.SaveResellerSupplier(ctx, 51, &a2); err != nil {
			t.Fatal(err)
		}
		err := tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			locked, err := s.TaxProfiles.LockResellerSupplier(ctx, 51)
			if err != nil || *locked != a2 {
				t.Errorf("locked read %+v, %v", locked, err)
			}
			if _, err := s.TaxProfiles.LockResellerSupplier(ctx, 53); !errors.Is(err, taxprofile.ErrNoResellerSupplier) {
				t.Errorf("locked read of none: %v", err)
			}
			c := a
			if err := s.TaxProfiles.SaveResellerSupplier(ctx, 53, &c); err != nil {
				return err
			}
			changed := a2
			changed.LegalName = "Changed"
			if err := s.TaxProfiles.SaveResellerSupplier(ctx, 51, &changed); err != nil {
				return err
			}
			if in, _ := s.TaxProfiles.ResellerSupplier(ctx, 51); in.LegalName != "Changed" {
				t.Errorf("inside the transaction: %+v", in)
			}
			return errors.New("roll back")
		})
		if err == nil {
			t.Fatal("the transaction did not fail")
		}
		if got, err := st.ResellerSupplier(ctx, 51); err != nil || *got != a2 {
			t.Fatalf("after the rollback %+v, %v; want %+v", got, err, a2)
		}
		if _, err := st.ResellerSupplier(ctx, 53); !errors.Is(err, taxprofile.ErrNoResellerSupplier) {
			t.Fatalf("a rolled-back insert left %v", err)
		}
		if got, _ := st.ResellerSupplier(ctx, 52); *got != b {
			t.Fatalf("the other reseller: %+v", got)
		}
	})
}
