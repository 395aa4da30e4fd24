package metering_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog/pricing"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
)

// customerFixture is newFixture with a customer (id 12) of the reseller
// (id 11) calling with its own key (id 4).
func customerFixture(t *testing.T) (*fixture, metering.CallInput) {
	f := newFixture(t)
	k, secret := apikey.NewCredentials()
	f.db.Put(user.User{ID: 12, ParentID: ptr(uint64(11)), Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter,
		MonthlyCalls: user.Allowance(user.StarterMonthlyCalls), Balance: dec("50.00"), TotalSpent: dec("0")},
		apikey.Key{ID: 4, UserID: 12, Key: k, SecretHash: apikey.HashSecret(secret), Status: apikey.StatusActive, DailyLimit: 1000})
	in := f.input(`{"phone":"9876543210"}`)
	in.Key, in.Secret = k, secret
	return f, in
}

func (f *fixture) upstreamAnswers(status int) {
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: status, Body: []byte(`{"id":"x"}`)}, nil).Once()
}

func TestCustomerIsChargedItsResellersSellingPrice(t *testing.T) {
	f, in := customerFixture(t)
	_, st := f.app.Invalidating()
	if err := st.CustomerPrices.Set(context.Background(), &pricing.CustomerPrice{ResellerID: 11, ServiceID: 7, Price: dec("1.8000")}); err != nil {
		t.Fatal(err)
	}
	f.upstreamAnswers(200)
	res, _, err := f.app.CallService(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	f.app.Wait()
	if !res.Charged.Equal(dec("1.80")) {
		t.Fatalf("charged %s, want the selling price 1.80", res.Charged)
	}
	h := oneHit(t, f.db)
	if h.Status != hitlog.StatusSuccess || !h.ChargeAmount.Equal(dec("1.80")) || h.ResellerID == nil || *h.ResellerID != 11 ||
		!h.Commission.Equal(dec("0.57")) || !h.CostAmount.Equal(dec("0.40")) {
		t.Fatalf("hit %+v, want charge 1.80, reseller 11, commission 0.57 (1.80 − 1.23)", h)
	}
	if got := f.db.User(12).Balance; !got.Equal(dec("48.20")) {
		t.Fatalf("customer's balance %s, want 48.20", got)
	}
	if got := f.db.User(11); !got.Balance.Equal(dec("10.00")) {
		t.Fatalf("the reseller's balance moved on the metered path: %s", got.Balance)
	}
	for _, e := range f.db.Entries() {
		if e.UserID != 12 || e.Type != ledger.Debit || !e.Amount.Equal(dec("1.80")) {
			t.Fatalf("ledger row %+v, want only the customer's debit of 1.80", e)
		}
	}
}

func TestCustomersFailedCallEarnsNothing(t *testing.T) {
	f, in := customerFixture(t)
	f.upstreamAnswers(500)
	if _, _, err := f.app.CallService(context.Background(), in); err == nil {
		t.Fatal("a failed upstream answered success")
	}
	f.app.Wait()
	h := oneHit(t, f.db)
	if h.Status != hitlog.StatusFailed || !h.Commission.IsZero() || !h.ChargeAmount.IsZero() || h.ResellerID == nil {
		t.Fatalf("failed hit %+v: want no charge and no commission, its reseller kept", h)
	}
	if got := f.db.User(12).Balance; !got.Equal(dec("50.00")) {
		t.Fatalf("customer's balance %s after a refunded call", got)
	}
}

// The customer's charge follows its reseller's changes at once on this
// instance: list price, then markup, then selling price, then the price
// removed.
func TestCustomerChargeFollowsResellersChanges(t *testing.T) {
	f, in := customerFixture(t)
	ctx := context.Background()
	_, st := f.app.Invalidating()
	call := func(want, commission string) {
		t.Helper()
		f.upstreamAnswers(200)
		res, _, err := f.app.CallService(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		f.app.Wait()
		hs := f.db.Hits()
		h := hs[len(hs)-1]
		if !res.Charged.Equal(dec(want)) || !h.Commission.Equal(dec(commission)) {
			t.Fatalf("charged %s, commission %s; want %s, %s", res.Charged, h.Commission, want, commission)
		}
	}
	call("2.00", "0.77") // the user price
	ten := dec("10")
	if err := st.CustomerPrices.SetMarkup(ctx, 11, &ten, f.now); err != nil {
		t.Fatal(err)
	}
	call("1.35", "0.12") // 1.23 × 1.10
	if err := st.CustomerPrices.Set(ctx, &pricing.CustomerPrice{ResellerID: 11, ServiceID: 7, Price: dec("1.50")}); err != nil {
		t.Fatal(err)
	}
	call("1.50", "0.27")
	if err := st.CustomerPrices.Set(ctx, &pricing.CustomerPrice{ResellerID: 11, ServiceID: 7, Price: dec("0.10")}); err != nil {
		t.Fatal(err)
	}
	call("1.23", "0") // never below the reseller's own charge
	if err := st.CustomerPrices.Delete(ctx, 11, 7); err != nil {
		t.Fatal(err)
	}
	call("1.35", "0.12")
}

func TestGatewayOperationOfACustomerIsResold(t *testing.T) {
	f, in := customerFixture(t)
	ctx := context.Background()
	_, st := f.app.Invalidating()
	if err := st.CustomerPrices.Set(ctx, &pricing.CustomerPrice{ResellerID: 11, ServiceID: 7, Price: dec("2.50")}); err != nil {
		t.Fatal(err)
	}
	op := metering.Op{Slug: "sms", RequestID: "req_OP", IP: "203.0.113.9", Creds: metering.Credentials{Key: in.Key, Secret: in.Secret},
		Perform: func(context.Context, *hitlog.Hit) (any, error) { return map[string]string{"ok": "yes"}, nil }}
	c, err := f.app.Meter(ctx, op)
	if err != nil || !c.Charged.Equal(dec("2.50")) {
		t.Fatalf("Meter: %+v, %v", c, err)
	}
	h := oneHit(t, f.db)
	if !h.Commission.Equal(dec("1.27")) || h.ResellerID == nil || *h.ResellerID != 11 {
		t.Fatalf("hit %+v", h)
	}
	op.RequestID = "req_OP2"
	op.Perform = func(context.Context, *hitlog.Hit) (any, error) { return nil, errors.New("provider down") }
	if _, err := f.app.Meter(ctx, op); err == nil {
		t.Fatal("failed operation answered success")
	}
	hs := f.db.Hits()
	if last := hs[len(hs)-1]; last.Status != hitlog.StatusFailed || !last.Commission.IsZero() {
		t.Fatalf("failed operation's hit %+v", last)
	}
}

// A reseller that is blocked, deleted, pending or no longer a reseller
// earns nothing: its customer pays the list price (2.00, what an ordinary
// user pays) and the hit names no reseller; an active reseller's customer
// pays the selling price with the commission on its hit.
func TestCustomerOfAnInactiveResellerPaysTheListPrice(t *testing.T) {
	deleted := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name       string
		reseller   func(u *user.User)
		charge     string
		commission string
		resold     bool
	}{
		{"active reseller", func(*user.User) {}, "1.80", "0.57", true},
		{"blocked", func(u *user.User) { u.Status = user.StatusBlocked }, "2.00", "0", false},
		{"pending", func(u *user.User) { u.Status = user.StatusPending }, "2.00", "0", false},
		{"demoted to user", func(u *user.User) { u.Role = user.RoleUser }, "2.00", "0", false},
		{"promoted to admin", func(u *user.User) { u.Role = user.RoleAdmin }, "2.00", "0", false},
		{"deleted", func(u *user.User) { u.DeletedAt = &deleted }, "2.00", "0", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, in := customerFixture(t)
			r := f.db.User(11)
			c.reseller(&r)
			f.db.Put(r)
			_, st := f.app.Invalidating()
			if err := st.CustomerPrices.Set(context.Background(), &pricing.CustomerPrice{ResellerID: 11, ServiceID: 7, Price: dec("1.8000")}); err != nil {
				t.Fatal(err)
			}
			f.upstreamAnswers(200)
			res, _, err := f.app.CallService(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			f.app.Wait()
			h := oneHit(t, f.db)
			if !res.Charged.Equal(dec(c.charge)) || !h.ChargeAmount.Equal(dec(c.charge)) || !h.Commission.Equal(dec(c.commission)) ||
				(h.ResellerID != nil) != c.resold {
				t.Fatalf("charged %s, hit %+v; want charge %s, commission %s, reseller named %v", res.Charged, h, c.charge, c.commission, c.resold)
			}
			if got := f.db.User(12).Balance; !got.Equal(dec("50.00").Sub(dec(c.charge))) {
				t.Fatalf("customer's balance %s", got)
			}
		})
	}
}
