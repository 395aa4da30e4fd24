package storecontract

import (
	"fmt"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/gateway/payout"
)

// payoutLimitsContract: the day's counted payouts (pending, processing,
// success; created at or after since) of one user, and of a reseller with
// its customers, another reseller's customer and ordinary users left out.
func payoutLimitsContract(t *testing.T, c *contract) {
	ctx, po := c.ctx, c.s.Payouts
	r := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
	other := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
	c1 := c.user(t, func(u *user.User) { u.ParentID = &r.ID })
	c2 := c.user(t, func(u *user.User) { u.ParentID = &r.ID })
	stranger := c.user(t, func(u *user.User) { u.ParentID = &other.ID })
	plain := c.user(t)
	since := at.Add(-time.Hour)
	add := func(owner *user.User, amount string, st payout.Status, created time.Time) {
		t.Helper()
		n := c.next()
		p := &payout.Payout{PublicID: fmt.Sprintf("pout_contract%d", n), UserID: owner.ID, APIKeyID: 1, RequestID: fmt.Sprintf("req-%d", n),
			ReferenceID: fmt.Sprintf("ref-%d", n), Beneficiary: payout.Beneficiary{Type: payout.BankAccount, Name: "Asha",
				AccountNumber: "123456781234", IFSC: "HDFC0001234"}, Amount: dec(amount), Fee: dec("5"), Mode: payout.ModeIMPS,
			Status: st, CreatedAt: created, UpdatedAt: created}
		if err := po.Create(ctx, p); err != nil {
			t.Fatalf("create payout: %v", err)
		}
	}
	add(r, "100.00", payout.StatusSuccess, at)
	add(r, "1.00", payout.StatusFailed, at)
	add(c1, "20.00", payout.StatusPending, at)
	add(c1, "7.00", payout.StatusProcessing, at)
	add(c1, "1000.00", payout.StatusSuccess, since.Add(-time.Second)) // yesterday
	add(c2, "3.00", payout.StatusSuccess, since)
	add(c2, "2.00", payout.StatusReversed, at)
	add(stranger, "50.00", payout.StatusSuccess, at)
	add(plain, "60.00", payout.StatusSuccess, at)
	add(other, "70.00", payout.StatusSuccess, at)

	for _, w := range []struct {
		name string
		id   uint64
		want string
	}{{"the reseller and its customers", r.ID, "130.00"}, {"the other reseller and its customer", other.ID, "120.00"},
		{"an ordinary user alone", plain.ID, "60.00"}} {
		got, err := po.CountedSinceWithCustomers(ctx, w.id, since)
		if err != nil || !got.Equal(dec(w.want)) {
			t.Errorf("CountedSinceWithCustomers, %s: %s, %v; want %s", w.name, got, err, w.want)
		}
	}
	if got, err := po.CountedSince(ctx, c1.ID, since); err != nil || !got.Equal(dec("27.00")) {
		t.Errorf("CountedSince of one customer: %s, %v; want 27.00", got, err)
	}
}
