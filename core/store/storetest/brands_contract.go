package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"paygate/core/brand"
	"paygate/core/errs"
	"paygate/core/store"
)

// BrandContract runs the cases every brand.Store keeps, on a fresh store
// and two resellers a and b that exist in it: the fake (its own test) and
// the database adapter on SQLite and MariaDB. st is tx's plain Stores' Brands.
func BrandContract(t *testing.T, tx store.Transactor, st brand.Store, a, b uint64) {
	ctx := context.Background()
	at := time.Date(2026, 11, 27, 10, 30, 15, 123456000, time.UTC)

	got, err := st.Get(ctx, a)
	if err != nil || got.Name != "" || got.HasLogo() || len(got.Domains) != 0 || got.ResellerID != a {
		t.Fatalf("never saved: %+v, %v", got, err)
	}
	in := brand.Input{Name: "Acme Recharge", SupportEmail: "help@acme.example", SupportPhone: "+919876543210",
		Domains: []string{"panel.acme.example", "acme.example"}}
	if err := st.Save(ctx, a, in, at); err != nil {
		t.Fatal(err)
	}
	got, err = st.Get(ctx, a)
	if err != nil || got.Name != in.Name || got.SupportEmail != in.SupportEmail || got.SupportPhone != in.SupportPhone ||
		!slices.Equal(got.Domains, []string{"acme.example", "panel.acme.example"}) || !got.UpdatedAt.Equal(at) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	// The host is found whatever its case.
	if id, err := st.ResellerOfHost(ctx, "PANEL.Acme.Example"); err != nil || id != a {
		t.Fatalf("ResellerOfHost = %d, %v; want %d", id, err, a)
	}
	if _, err := st.ResellerOfHost(ctx, "nobody.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("unknown host: %v, want NotFound", err)
	}

	// Another reseller asking for a held domain (in any case) changes nothing.
	err = st.Save(ctx, b, brand.Input{Name: "Other", Domains: []string{"other.example", "acme.example"}}, at)
	if !errors.Is(err, brand.ErrDomainTaken) {
		t.Fatalf("taken domain: %v, want ErrDomainTaken", err)
	}
	if got, _ := st.Get(ctx, b); got.Name != "" || len(got.Domains) != 0 {
		t.Fatalf("a refused save left %+v", got)
	}
	if _, err := st.ResellerOfHost(ctx, "other.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a refused save left other.example: %v", err)
	}

	// A logo is kept apart from the brand columns; each write touches only its own.
	if prev, err := st.SetLogo(ctx, a, "logo1.png", "image/png", at); err != nil || prev != "" {
		t.Fatalf("first logo: %q, %v", prev, err)
	}
	if prev, err := st.SetLogo(ctx, b, "logo2.jpg", "image/jpeg", at); err != nil || prev != "" {
		t.Fatalf("logo of a reseller without a row: %q, %v", prev, err)
	}
	later := at.Add(time.Minute)
	in2 := brand.Input{Name: "Acme", Domains: []string{"acme.example", "shop.example"}}
	if err := st.Save(ctx, a, in2, later); err != nil {
		t.Fatal(err)
	}
	got, _ = st.Get(ctx, a)
	if got.LogoPath != "logo1.png" || got.LogoType != "image/png" || got.Name != "Acme" || got.SupportEmail != "" ||
		!slices.Equal(got.Domains, []string{"acme.example", "shop.example"}) {
		t.Fatalf("after a second save: %+v", got)
	}
	if _, err := st.ResellerOfHost(ctx, "panel.acme.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a dropped domain still answers: %v", err)
	}
	// The dropped domain is free for another reseller.
	if err := st.Save(ctx, b, brand.Input{Name: "Other", Domains: []string{"panel.acme.example"}}, later); err != nil {
		t.Fatalf("a freed domain: %v", err)
	}
	if got, _ := st.Get(ctx, b); got.LogoPath != "logo2.jpg" || got.Name != "Other" {
		t.Fatalf("b after its save: %+v", got)
	}
	if prev, err := st.SetLogo(ctx, a, "", "", later); err != nil || prev != "logo1.png" {
		t.Fatalf("removing the logo: %q, %v", prev, err)
	}
	if got, _ := st.Get(ctx, a); got.HasLogo() || got.Name != "Acme" {
		t.Fatalf("after removing the logo: %+v", got)
	}

	// Inside a transaction that rolls back, a save and a logo leave nothing.
	rollback := errors.New("roll back")
	err = tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		if err := s.Brands.Save(ctx, a, brand.Input{Name: "Gone", Domains: []string{"gone.example"}}, later); err != nil {
			return err
		}
		if _, err := s.Brands.SetLogo(ctx, a, "logo3.png", "image/png", later); err != nil {
			return err
		}
		if in, _ := s.Brands.Get(ctx, a); in.Name != "Gone" || !slices.Equal(in.Domains, []string{"gone.example"}) {
			t.Errorf("inside the transaction: %+v", in)
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("WithinTx = %v", err)
	}
	got, _ = st.Get(ctx, a)
	if got.Name != "Acme" || got.HasLogo() || !slices.Equal(got.Domains, []string{"acme.example", "shop.example"}) {
		t.Fatalf("after a rollback: %+v", got)
	}
	if _, err := st.ResellerOfHost(ctx, "gone.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a rolled-back domain answers: %v", err)
	}
}
