package customers_test

import (
	"context"
	"testing"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/resale/customers"
)

// withLimits gives account id a daily payout limit and a collection fee.
func (f *fixture) withLimits(id uint64, payoutLimit, fee string) {
	u := f.db.User(id)
	u.DailyPayoutLimit, u.CollectionFeePercent = dec(payoutLimit), dec(fee)
	f.db.Put(u)
}

// A new customer starts with its reseller's limits and fees, not the
// platform's defaults.
func TestCustomerStartsWithItsResellersLimits(t *testing.T) {
	f := newFixture(t)
	f.withLimits(10, "0.00", "5")
	c, err := f.c.Create(context.Background(), f.user(10), customers.NewCustomer{Profile: user.Profile{Name: "Asha", Email: "asha@example.com", Phone: "9876500001"}})
	if err != nil {
		t.Fatal(err)
	}
	f.c.Wait()
	if got := f.db.User(c.ID); !got.DailyPayoutLimit.Equal(dec("0")) || !got.CollectionFeePercent.Equal(dec("5")) {
		t.Fatalf("new customer's limits %s / %s%%, want its reseller's 0.00 / 5%%", got.DailyPayoutLimit, got.CollectionFeePercent)
	}
}

// A reseller sets its customer's limits stricter, never looser than its
// own; only its own customers, only as a reseller.
func TestSetCustomerLimits(t *testing.T) {
	s := func(v string) *string { return &v }
	cases := []struct {
		name          string
		actor, target uint64
		patch         customers.LimitsPatch
		code          string // "" when accepted
		kind          errs.Kind
		payout, fee   string // stored after
	}{
		{"stricter payout limit", 10, 11, customers.LimitsPatch{DailyPayoutLimit: s("100")}, "", 0, "100", "3"},
		{"stricter fee", 10, 11, customers.LimitsPatch{CollectionFeePercent: s("7.25")}, "", 0, "1000", "7.25"},
		{"equal to its own", 10, 11, customers.LimitsPatch{DailyPayoutLimit: s("1000"), CollectionFeePercent: s("3")}, "", 0, "1000", "3"},
		{"payout limit above its own", 10, 11, customers.LimitsPatch{DailyPayoutLimit: s("1000.01")}, "looser_than_reseller", errs.Invalid, "1000", "3"},
		{"fee below its own", 10, 11, customers.LimitsPatch{CollectionFeePercent: s("2.99")}, "looser_than_reseller", errs.Invalid, "1000", "3"},
		{"one looser refuses both", 10, 11, customers.LimitsPatch{DailyPayoutLimit: s("5"), CollectionFeePercent: s("0")}, "looser_than_reseller", errs.Invalid, "1000", "3"},
		{"not an amount", 10, 11, customers.LimitsPatch{DailyPayoutLimit: s("1.234")}, "validation_failed", errs.Invalid, "1000", "3"},
		{"another reseller's customer", 20, 11, customers.LimitsPatch{DailyPayoutLimit: s("1")}, "customer_not_found", errs.NotFound, "1000", "3"},
		{"not a reseller", 30, 11, customers.LimitsPatch{DailyPayoutLimit: s("1")}, "forbidden", errs.Forbidden, "1000", "3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.withLimits(10, "1000", "3")
			f.withLimits(20, "999999", "0")
			f.withLimits(11, "1000", "3")
			_, err := f.c.SetLimits(context.Background(), f.user(c.actor), c.target, c.patch)
			if c.code == "" && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if c.code != "" {
				e, ok := errs.As(err)
				if !ok || e.Kind != c.kind || (c.kind != errs.Forbidden && e.Code != c.code) {
					t.Fatalf("error %v, want %s", err, c.code)
				}
			}
			got := f.db.User(c.target)
			if !got.DailyPayoutLimit.Equal(dec(c.payout)) || !got.CollectionFeePercent.Equal(dec(c.fee)) {
				t.Fatalf("stored %s / %s, want %s / %s", got.DailyPayoutLimit, got.CollectionFeePercent, c.payout, c.fee)
			}
			entries := f.db.AuditEntries()
			if audited := len(entries) == 1 && entries[0].Action == audit.CustomerLimits && entries[0].ActorID == c.actor; audited != (c.code == "") {
				t.Fatalf("audit %+v", entries)
			}
		})
	}
}
