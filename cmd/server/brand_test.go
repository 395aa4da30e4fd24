package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
)

// TestBrandVerifyDomainCommand: `server brand verify-domain HOST` marks the
// only pending claim on HOST verified on the operator's word, audited with
// actor 0 and "by":"operator"; several claimants need --reseller; a host
// verified by another reseller is refused (first proof wins, and the
// loser's own check is then 409 too); running it again changes nothing.
func TestBrandVerifyDomainCommand(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newBillingFixture(t, url)
		ctx := context.Background()
		st := f.store.Stores()
		var a, b, c uint64
		for i, id := range []*uint64{&a, &b, &c} {
			*id = f.user(fmt.Sprintf("reseller%d@example.com", i), user.PlanStarter, "0")
			if err := f.store.DB().Exec("UPDATE users SET role = ? WHERE id = ?", user.RoleReseller, *id).Error; err != nil {
				t.Fatal(err)
			}
		}
		claim := func(id uint64, name string, hosts ...string) {
			t.Helper()
			if err := st.Brands.Save(ctx, id, brand.Input{Name: name, Domains: hosts}, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		claim(a, "Acme", "shop.example")
		claim(b, "Squatter", "shop.example")
		claim(c, "Solo", "solo.example")
		cli := func(args ...string) (string, error) {
			out := &syncBuffer{}
			err := run(ctx, append([]string{"brand", "verify-domain"}, args...), f.env, out)
			return out.String(), err
		}
		refused := func(want string, args ...string) {
			t.Helper()
			if out, err := cli(args...); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("verify-domain %v = %v (output %s), want an error saying %q", args, err, out, want)
			}
		}
		verifiedBy := func(host string) uint64 {
			t.Helper()
			id, err := st.Brands.ResellerOfHost(ctx, host)
			if errs.KindOf(err) == errs.NotFound {
				return 0
			} else if err != nil {
				t.Fatal(err)
			}
			return id
		}
		entries := func() []audit.Entry {
			t.Helper()
			es, _, err := st.Audit.List(ctx, audit.Filter{Action: audit.BrandDomainVerify})
			if err != nil {
				t.Fatal(err)
			}
			return es
		}

		// Bad usage and claims that are not there change nothing.
		refused("usage: brand verify-domain")
		refused("usage: brand verify-domain", "shop.example", "other.example")
		refused("not an account id", "shop.example", "--reseller", "x")
		refused(`"http://shop.example/" is not a host name`, "http://shop.example/")
		refused("no reseller claims nobody.example", "nobody.example")
		refused(fmt.Sprintf("reseller #%d does not claim shop.example", c), "shop.example", "--reseller", fmt.Sprint(c))
		// Two resellers claim shop.example: the operator must pick one.
		refused(fmt.Sprintf("2 resellers claim shop.example (#%d, #%d): choose one with --reseller", a, b), "shop.example")
		if id := verifiedBy("shop.example"); id != 0 || len(entries()) != 0 {
			t.Fatalf("refused commands verified #%d, audited %d", id, len(entries()))
		}

		// The operator vouches for a's claim (any case, flag before or after the host).
		out, err := cli("--reseller", fmt.Sprint(a), "SHOP.Example")
		if err != nil || !strings.Contains(out, fmt.Sprintf("shop.example verified for reseller #%d", a)) {
			t.Fatalf("verify-domain --reseller a: %v\n%s", err, out)
		}
		if id := verifiedBy("shop.example"); id != a {
			t.Fatalf("shop.example answers reseller #%d, want #%d", id, a)
		}
		ba, _ := st.Brands.Get(ctx, a)
		bb, _ := st.Brands.Get(ctx, b)
		if ba.Domains[0].State != brand.DomainVerified || ba.Domains[0].VerifiedAt == nil || bb.Domains[0].State != brand.DomainLost {
			t.Fatalf("after the operator's word: a %+v, b %+v", ba.Domains, bb.Domains)
		}
		if pub, err := f.app.Brands.ForHost(ctx, "shop.example"); err != nil || pub.Name != "Acme" {
			t.Fatalf("shop.example shows %+v, %v", pub, err)
		}
		es := entries()
		if len(es) != 1 || es[0].ActorID != audit.Operator || es[0].TargetID == nil || *es[0].TargetID != a ||
			string(es[0].Before) != `{"host":"shop.example","state":"pending"}` ||
			string(es[0].After) != `{"host":"shop.example","state":"verified","by":"operator"}` {
			t.Fatalf("audit entries %+v", es)
		}

		// First proof wins: b is refused, by the operator and by its own check.
		refused(fmt.Sprintf("shop.example is already verified by reseller #%d", a), "shop.example", "--reseller", fmt.Sprint(b))
		refused(fmt.Sprintf("shop.example is already verified by reseller #%d", a), "shop.example") // b's claim is lost
		_, err = f.app.Brands.VerifyDomain(ctx, &user.User{ID: b, Role: user.RoleReseller}, "shop.example")
		if !errors.Is(err, brand.ErrDomainTaken) {
			t.Fatalf("b's own check after the operator's word: %v", err)
		}
		// Again for a: nothing changes, nothing more is audited.
		if out, err := cli("shop.example", "--reseller="+fmt.Sprint(a)); err != nil || !strings.Contains(out, "already verified") {
			t.Fatalf("again: %v\n%s", err, out)
		}

		// The only claim on a host needs no --reseller.
		if out, err := cli("solo.example"); err != nil || !strings.Contains(out, fmt.Sprintf("solo.example verified for reseller #%d", c)) {
			t.Fatalf("verify-domain solo.example: %v\n%s", err, out)
		}
		if out, err := cli("solo.example"); err != nil || !strings.Contains(out, "already verified") {
			t.Fatalf("solo.example again: %v\n%s", err, out)
		}
		if id := verifiedBy("solo.example"); id != c || len(entries()) != 2 {
			t.Fatalf("solo.example answers #%d; %d audit entries, want 2", id, len(entries()))
		}
		f.ledgerClean()
	})
}
