package storecontract

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/resale/brand"
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
		!slices.Equal(got.Hosts(), []string{"acme.example", "panel.acme.example"}) || !got.UpdatedAt.Equal(at) {
		t.Fatalf("read back %+v, %v", got, err)
	}
	// New claims are pending, each with its own token; no host answers yet.
	for _, d := range got.Domains {
		if d.State != brand.DomainPending || !strings.HasPrefix(d.Token, "pgv_") || d.VerifiedAt != nil || d.CheckedAt != nil {
			t.Fatalf("new claim %+v", d)
		}
	}
	if got.Domains[0].Token == got.Domains[1].Token {
		t.Fatal("two claims share a token")
	}
	tokenA := got.Domains[0].Token // acme.example's
	if _, err := st.ResellerOfHost(ctx, "acme.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a pending host answers: %v", err)
	}

	// Another reseller may claim a pending host too (first proof wins).
	if err := st.Save(ctx, b, brand.Input{Name: "Other", Domains: []string{"other.example", "acme.example"}}, at); err != nil {
		t.Fatalf("claiming a pending host: %v", err)
	}
	gb, _ := st.Get(ctx, b)
	if !slices.Equal(gb.Hosts(), []string{"acme.example", "other.example"}) || gb.Domains[0].Token == tokenA {
		t.Fatalf("b's claims %+v", gb.Domains)
	}
	if ids, err := st.Claimants(ctx, "ACME.example"); err != nil || !slices.Equal(ids, []uint64{a, b}) {
		t.Fatalf("Claimants(acme.example) = %v, %v; want [%d %d]", ids, err, a, b)
	}
	if ids, err := st.Claimants(ctx, "nobody.example"); err != nil || len(ids) != 0 {
		t.Fatalf("Claimants of an unclaimed host = %v, %v", ids, err)
	}
	if ok, err := st.HasClaim(ctx, "ACME.example", tokenA); err != nil || !ok {
		t.Fatalf("HasClaim(a's token) = %v, %v", ok, err)
	}
	if ok, _ := st.HasClaim(ctx, "other.example", tokenA); ok {
		t.Fatal("a token answers on another host")
	}
	if ok, _ := st.HasClaim(ctx, "acme.example", ""); ok {
		t.Fatal("an empty token answers")
	}
	if err := st.RecordCheck(ctx, b, "acme.example", "no TXT record", at); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordCheck(ctx, b, "nobody.example", "x", at); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("check of no claim: %v", err)
	}
	if err := st.Verify(ctx, b, "nobody.example", at); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("verify of no claim: %v", err)
	}

	// a proves acme.example first: it answers (any case), b's claim is lost.
	if err := st.Verify(ctx, a, "acme.example", at); err != nil {
		t.Fatal(err)
	}
	if id, err := st.ResellerOfHost(ctx, "ACME.Example"); err != nil || id != a {
		t.Fatalf("ResellerOfHost = %d, %v; want %d", id, err, a)
	}
	if _, err := st.ResellerOfHost(ctx, "nobody.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("unknown host: %v, want NotFound", err)
	}
	got, _ = st.Get(ctx, a)
	if d := got.Domains[0]; d.State != brand.DomainVerified || d.VerifiedAt == nil || !d.VerifiedAt.Equal(at) || d.Problem != "" {
		t.Fatalf("verified claim %+v", d)
	}
	if h, ok := got.FirstVerified(); !ok || h != "acme.example" {
		t.Fatalf("FirstVerified = %q, %v", h, ok)
	}
	gb, _ = st.Get(ctx, b)
	if d := gb.Domains[0]; d.State != brand.DomainLost || d.Problem != "no TXT record" || d.CheckedAt == nil {
		t.Fatalf("b's lost claim %+v", d)
	}
	if err := st.Verify(ctx, b, "acme.example", at); !errors.Is(err, brand.ErrDomainTaken) {
		t.Fatalf("verifying a host verified by another: %v", err)
	}
	// b keeps its lost claim through a save; dropping and adding it again is refused.
	if err := st.Save(ctx, b, brand.Input{Name: "Other", Domains: []string{"other.example", "acme.example"}}, at); err != nil {
		t.Fatalf("keeping a lost claim: %v", err)
	}
	if err := st.Save(ctx, b, brand.Input{Name: "Other", Domains: []string{"other.example"}}, at); err != nil {
		t.Fatal(err)
	}
	err = st.Save(ctx, b, brand.Input{Name: "Changed", Domains: []string{"other.example", "acme.example"}}, at)
	if !errors.Is(err, brand.ErrDomainTaken) {
		t.Fatalf("re-adding a verified host: %v, want ErrDomainTaken", err)
	}
	if got, _ := st.Get(ctx, b); got.Name != "Other" || !slices.Equal(got.Hosts(), []string{"other.example"}) {
		t.Fatalf("a refused save left %+v", got)
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
		!slices.Equal(got.Hosts(), []string{"acme.example", "shop.example"}) {
		t.Fatalf("after a second save: %+v", got)
	}
	if _, err := st.ResellerOfHost(ctx, "panel.acme.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a dropped domain still answers: %v", err)
	}
	// A dropped verified domain is free for another reseller; a verified
	// claim kept through a save stays verified.
	if got.Domains[0].State != brand.DomainVerified {
		t.Fatalf("a kept claim lost its proof: %+v", got.Domains[0])
	}
	if err := st.Verify(ctx, a, "shop.example", later); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ctx, a, brand.Input{Name: "Acme", Domains: []string{"acme.example"}}, later); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ResellerOfHost(ctx, "shop.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a dropped verified domain still answers: %v", err)
	}
	if err := st.Save(ctx, b, brand.Input{Name: "Other", Domains: []string{"panel.acme.example", "shop.example"}}, later); err != nil {
		t.Fatalf("a freed domain: %v", err)
	}
	if err := st.Verify(ctx, b, "shop.example", later); err != nil {
		t.Fatalf("verifying a freed domain: %v", err)
	}
	if err := st.Save(ctx, a, brand.Input{Name: "Acme", Domains: []string{"acme.example", "shop.example"}}, later); !errors.Is(err, brand.ErrDomainTaken) {
		t.Fatalf("taking back a domain verified by another: %v", err)
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
		if err := s.Brands.Verify(ctx, a, "gone.example", later); err != nil {
			return err
		}
		if in, _ := s.Brands.Get(ctx, a); in.Name != "Gone" || !slices.Equal(in.Hosts(), []string{"gone.example"}) {
			t.Errorf("inside the transaction: %+v", in)
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("WithinTx = %v", err)
	}
	got, _ = st.Get(ctx, a)
	if got.Name != "Acme" || got.HasLogo() || !slices.Equal(got.Hosts(), []string{"acme.example"}) || got.Domains[0].State != brand.DomainVerified {
		t.Fatalf("after a rollback: %+v", got)
	}
	if _, err := st.ResellerOfHost(ctx, "gone.example"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a rolled-back domain answers: %v", err)
	}

	// Two resellers proving one host at once: exactly one wins, through
	// the database (a unique key), and the other is told it is taken.
	for _, r := range []uint64{a, b} {
		br, _ := st.Get(ctx, r)
		if err := st.Save(ctx, r, brand.Input{Name: br.Name, Domains: append(br.Hosts(), "race.example")}, later); err != nil {
			t.Fatalf("claim race.example: %v", err)
		}
	}
	var wg sync.WaitGroup
	results := make([]error, 2)
	for i, r := range []uint64{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
				return s.Brands.Verify(ctx, r, "race.example", later)
			})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range results {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, brand.ErrDomainTaken):
			t.Fatalf("the race's loser: %v, want ErrDomainTaken", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d resellers verified race.example, want 1", won)
	}
}
