package storecontract

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/catalog/pricing"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/platform/store"
	"paygate/core/resale/settlement"
)

// customerPricesContract: a selling price is set (then replaced), read with
// the default markup in one read, listed by reseller, deleted once; the
// markup is set and cleared.
func customerPricesContract(t *testing.T, c *contract) {
	ctx, cp := c.ctx, c.s.CustomerPrices
	r1 := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
	r2 := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
	a, b := c.service(t), c.service(t)

	got, err := cp.Selling(ctx, r1.ID, a.ID)
	if err != nil || got.Price != nil || got.Markup != nil {
		t.Fatalf("nothing set: %+v, %v", got, err)
	}
	p := &pricing.CustomerPrice{ResellerID: r1.ID, ServiceID: a.ID, Price: dec("1.2345"), UpdatedAt: at}
	if err := cp.Set(ctx, p); err != nil || p.ID == 0 {
		t.Fatalf("Set: %+v, %v", p, err)
	}
	first := p.ID
	p2 := &pricing.CustomerPrice{ResellerID: r1.ID, ServiceID: a.ID, Price: dec("2.5"), UpdatedAt: at.Add(time.Minute)}
	if err := cp.Set(ctx, p2); err != nil || p2.ID != first || !p2.Price.Equal(dec("2.5")) {
		t.Fatalf("Set again replaces: %+v, %v", p2, err)
	}
	if err := cp.Set(ctx, &pricing.CustomerPrice{ResellerID: r1.ID, ServiceID: b.ID, Price: dec("3"), UpdatedAt: at}); err != nil {
		t.Fatal(err)
	}
	if err := cp.Set(ctx, &pricing.CustomerPrice{ResellerID: r2.ID, ServiceID: a.ID, Price: dec("9"), UpdatedAt: at}); err != nil {
		t.Fatal(err)
	}
	ten := dec("10.50")
	if err := cp.SetMarkup(ctx, r1.ID, &ten, at); err != nil {
		t.Fatal(err)
	}
	got, err = cp.Selling(ctx, r1.ID, a.ID)
	if err != nil || got.Price == nil || !got.Price.Equal(dec("2.5")) || got.Markup == nil || !got.Markup.Equal(ten) {
		t.Fatalf("Selling: %+v, %v", got, err)
	}
	list, err := cp.ListByReseller(ctx, r1.ID)
	if err != nil || len(list) != 2 || list[0].ServiceID != a.ID || list[1].ServiceID != b.ID || !list[1].Price.Equal(dec("3")) {
		t.Fatalf("ListByReseller: %+v, %v", list, err)
	}
	if err := cp.Delete(ctx, r1.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := cp.Delete(ctx, r1.ID, a.ID); !errors.Is(err, pricing.ErrCustomerPriceNotFound) {
		t.Fatalf("a second Delete: %v", err)
	}
	if got, _ = cp.Selling(ctx, r1.ID, a.ID); got.Price != nil || got.Markup == nil {
		t.Fatalf("after Delete: %+v", got)
	}
	if got, _ = cp.Selling(ctx, r2.ID, a.ID); got.Price == nil || !got.Price.Equal(dec("9")) || got.Markup != nil {
		t.Fatalf("the other reseller's: %+v", got)
	}
	if m, err := cp.Markup(ctx, r1.ID); err != nil || m == nil || !m.Equal(ten) {
		t.Fatalf("Markup: %v, %v", m, err)
	}
	if err := cp.SetMarkup(ctx, r1.ID, nil, at); err != nil {
		t.Fatal(err)
	}
	if m, err := cp.Markup(ctx, r1.ID); err != nil || m != nil {
		t.Fatalf("Markup cleared: %v, %v", m, err)
	}
}

// commissionsContract: the resellers are the parents of users; the hits of
// their customers are found and summed by span (success commissions,
// pending counted); a reseller's hour is settled once, also when two
// transactions race (the loser rolls back).
func commissionsContract(t *testing.T, c *contract) {
	ctx, cs := c.ctx, c.s.Commissions
	reseller := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
	rid := reseller.ID
	customer := c.user(t, func(u *user.User) { u.ParentID = &rid })
	svc := c.service(t)
	key := c.key(t, customer, 1000)
	hour := at.Truncate(time.Hour)
	n := 0
	hit := func(created time.Time, st hitlog.Status, commission string) uint64 {
		t.Helper()
		n++
		h := hitlog.Hit{UserID: customer.ID, ServiceID: svc.ID, APIKeyID: key.ID, RequestID: "cm-" + string(rune('a'+n)) + created.Format("150405"),
			RequestPayload: "{}", ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1",
			Status: st, ResellerID: &rid, Commission: dec(commission), CreatedAt: created, UpdatedAt: created}
		if err := c.s.Hits.Insert(ctx, &h); err != nil {
			t.Fatal(err)
		}
		return h.ID
	}
	hit(hour.Add(10*time.Minute), hitlog.StatusSuccess, "0.1000")
	second := hit(hour.Add(20*time.Minute), hitlog.StatusSuccess, "0.2000")
	failed := hit(hour.Add(30*time.Minute), hitlog.StatusFailed, "0")
	hit(hour.Add(59*time.Minute), hitlog.StatusPending, "0")
	nextHour := hit(hour.Add(time.Hour), hitlog.StatusSuccess, "5.0000") // the next hour

	ids, err := cs.Resellers(ctx)
	if err != nil || !containsID(ids, rid) || containsID(ids, customer.ID) {
		t.Fatalf("Resellers: %v, %v", ids, err)
	}
	next, err := cs.NextHitAt(ctx, rid, hour, hour.Add(2*time.Hour))
	if err != nil || next == nil || !next.Equal(hour.Add(10*time.Minute)) {
		t.Fatalf("NextHitAt: %v, %v", next, err)
	}
	if next, err = cs.NextHitAt(ctx, rid, hour.Add(2*time.Hour), hour.Add(3*time.Hour)); err != nil || next != nil {
		t.Fatalf("NextHitAt past the hits: %v, %v", next, err)
	}
	a, err := cs.Accrued(ctx, rid, hour, hour.Add(time.Hour))
	if err != nil || a.Hits != 2 || !a.Amount.Equal(dec("0.3")) || a.Pending != 1 {
		t.Fatalf("Accrued: %+v, %v", a, err)
	}
	// An open hold of its customer taken before the span's end counts as
	// pending (its calls may still write hits dated inside it) until it is
	// released; one taken after, or another reseller's customer's, does
	// not.
	otherReseller := c.user(t, func(u *user.User) { u.Role = user.RoleReseller })
	oid := otherReseller.ID
	theirs := c.user(t, func(u *user.User) { u.ParentID = &oid })
	theirKey := c.key(t, theirs, 1000)
	var mine hold.Hold
	for i, h := range []hold.Hold{
		{UserID: customer.ID, KeyID: key.ID, CreatedAt: hour.Add(30 * time.Minute)},
		{UserID: theirs.ID, KeyID: theirKey.ID, CreatedAt: hour.Add(30 * time.Minute)},
	} {
		h.Day, h.Unit, h.Calls, h.UsedMoney, h.ExpiresAt = "2026-01-01", dec("1"), 8, decimal.Zero, h.CreatedAt.Add(time.Second)
		if err := c.s.Holds.Insert(ctx, &h); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			mine = h
		}
	}
	if a, err = cs.Accrued(ctx, rid, hour, hour.Add(time.Hour)); err != nil || a.Pending != 2 {
		t.Fatalf("Accrued with its customer's open hold: %+v, %v", a, err)
	}
	if a, err = cs.Accrued(ctx, rid, hour.Add(-time.Hour), hour); err != nil || a.Pending != 0 || a.Hits != 0 {
		t.Fatalf("Accrued of the hour before the hold: %+v, %v", a, err)
	}
	if _, err := c.s.Holds.Delete(ctx, mine.ID); err != nil {
		t.Fatal(err)
	}
	if a, err = cs.Accrued(ctx, rid, hour, hour.Add(time.Hour)); err != nil || a.Pending != 1 {
		t.Fatalf("Accrued after the hold's release: %+v, %v; want only the pending hit", a, err)
	}

	// A settlement claims the hour's successful hits with a commission
	// and records what they sum to.
	settle := func(s store.Stores) error {
		st := &settlement.Settlement{ResellerID: rid, HourStart: hour, CreatedAt: at}
		if err := s.Commissions.Insert(ctx, st); err != nil {
			return err
		}
		a, err := s.Commissions.Claim(ctx, st.ID, rid, hour, hour.Add(time.Hour))
		if err != nil {
			return err
		}
		if a.Hits != 2 || !a.Amount.Equal(dec("0.3")) {
			return fmt.Errorf("claim: %+v", a)
		}
		tx := uint64(77)
		st.Hits, st.Amount, st.TransactionID = a.Hits, a.Amount.Round(2), &tx
		return s.Commissions.SetCredit(ctx, st)
	}
	if err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error { return settle(s) }); err != nil {
		t.Fatal(err)
	}
	err = c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error { return settle(s) })
	if !errors.Is(err, settlement.ErrAlreadySettled) {
		t.Fatalf("a second settlement: %v, want ErrAlreadySettled", err)
	}
	to := hour.Add(time.Hour)
	list, err := cs.List(ctx, settlement.Filter{ResellerID: &rid, From: &hour, To: &to})
	if err != nil || len(list) != 1 || !list[0].Amount.Equal(dec("0.30")) || list[0].Hits != 2 || !list[0].HourStart.Equal(hour) ||
		list[0].TransactionID == nil || *list[0].TransactionID != 77 {
		t.Fatalf("List: %+v, %v", list, err)
	}
	if list, _ = cs.List(ctx, settlement.Filter{ResellerID: &rid, From: &to}); len(list) != 0 {
		t.Fatalf("List after the hour: %+v", list)
	}
	first := list0(t, cs, rid, hour)
	if a, err = cs.Accrued(ctx, rid, hour, hour.Add(time.Hour)); err != nil || a.Hits != 0 || !a.Amount.IsZero() || a.Pending != 1 {
		t.Fatalf("Accrued of a settled hour: %+v, %v; want its claimed hits left out", a, err)
	}
	if a, err = cs.Credited(ctx, first); err != nil || a.Hits != 2 || !a.Amount.Equal(dec("0.3")) {
		t.Fatalf("Credited: %+v, %v", a, err)
	}
	// A settlement keyed by another hour start (a local half hour, written
	// before hours were UTC) that overlaps claims none of the hits already
	// claimed.
	err = c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		half := hour.Add(-30 * time.Minute)
		st := &settlement.Settlement{ResellerID: rid, HourStart: half, CreatedAt: at}
		if err := s.Commissions.Insert(ctx, st); err != nil {
			return err
		}
		if a, err := s.Commissions.Claim(ctx, st.ID, rid, half, half.Add(time.Hour)); err != nil || a.Hits != 0 || !a.Amount.IsZero() {
			return fmt.Errorf("an overlapping claim: %+v, %v", a, err)
		}
		return errors.New("roll back")
	})
	if err == nil || err.Error() != "roll back" {
		t.Fatal(err)
	}
	// A refund cancels a hit's commission: a settled one becomes a reversal
	// of its settlement, due until taken; an unsettled one simply earns
	// nothing; a hit without commission, or cancelled already, is left alone.
	cancel := func(id uint64) settlement.Cancelled {
		t.Helper()
		var out settlement.Cancelled
		if err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) (err error) {
			out, err = s.Commissions.CancelHit(ctx, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := cancel(second); !got.Amount.Equal(dec("0.2")) || got.ResellerID != rid || got.SettlementID == nil || *got.SettlementID != first.ID {
		t.Fatalf("CancelHit of a settled hit: %+v", got)
	}
	if got := cancel(second); !got.Amount.IsZero() {
		t.Fatalf("CancelHit again: %+v", got)
	}
	if got := cancel(failed); !got.Amount.IsZero() {
		t.Fatalf("CancelHit of a failed hit: %+v", got)
	}
	if got := cancel(nextHour); !got.Amount.Equal(dec("5")) || got.SettlementID != nil {
		t.Fatalf("CancelHit of an unsettled hit: %+v", got)
	}
	if a, err = cs.Accrued(ctx, rid, to, to.Add(time.Hour)); err != nil || !a.Amount.IsZero() {
		t.Fatalf("Accrued after a cancel: %+v, %v", a, err)
	}
	if h, err := c.s.Hits.ByRequestID(ctx, "cm-c"+hour.Add(20*time.Minute).Format("150405")); err != nil || !h.Commission.IsZero() ||
		h.CommissionSettlementID == nil || *h.CommissionSettlementID != first.ID {
		t.Fatalf("the cancelled hit: %+v, %v", h, err)
	}
	first = list0(t, cs, rid, hour)
	if a, err = cs.Credited(ctx, first); err != nil || a.Hits != 2 || !a.Amount.Equal(dec("0.1")) || !first.Reversed.Equal(dec("0.2")) ||
		!first.Due().Equal(dec("0.2")) {
		t.Fatalf("after the cancel: %+v, credited %+v, %v", first, a, err)
	}
	owed := func() []settlement.Settlement {
		t.Helper()
		var out []settlement.Settlement
		if err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) (err error) {
			out, err = s.Commissions.Owed(ctx, rid)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if o := owed(); len(o) != 1 || o[0].ID != first.ID {
		t.Fatalf("Owed: %+v", o)
	}
	if err := cs.TakeReversal(ctx, first.ID, dec("0.15")); err != nil {
		t.Fatal(err)
	}
	if first = list0(t, cs, rid, hour); !first.ReversalTaken.Equal(dec("0.15")) || !first.Due().Equal(dec("0.05")) {
		t.Fatalf("after taking 0.15: %+v", first)
	}
	if err := cs.TakeReversal(ctx, first.ID, dec("0.05")); err != nil {
		t.Fatal(err)
	}
	if o := owed(); len(o) != 0 {
		t.Fatalf("Owed once taken: %+v", o)
	}
	// Pages: two more hours settled; Limit rows after Offset, oldest first;
	// Count ignores the page.
	for i := 1; i <= 2; i++ {
		st := &settlement.Settlement{ResellerID: rid, HourStart: hour.Add(time.Duration(i) * time.Hour), Hits: 1, Amount: dec("0.10"), CreatedAt: at}
		if err := cs.Insert(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	all := settlement.Filter{ResellerID: &rid}
	if n, err := cs.Count(ctx, all); err != nil || n != 3 {
		t.Fatalf("Count: %d, %v", n, err)
	}
	paged := all
	paged.Offset, paged.Limit = 1, 5
	if list, err = cs.List(ctx, paged); err != nil || len(list) != 2 || !list[0].HourStart.Equal(to) || !list[1].HourStart.Equal(to.Add(time.Hour)) {
		t.Fatalf("List from the second: %+v, %v", list, err)
	}
	paged.Offset, paged.Limit = 0, 1
	if list, err = cs.List(ctx, paged); err != nil || len(list) != 1 || !list[0].HourStart.Equal(hour) {
		t.Fatalf("List's first: %+v, %v", list, err)
	}
	if n, err := cs.Count(ctx, paged); err != nil || n != 3 {
		t.Fatalf("Count of a paged filter: %d, %v", n, err)
	}
	paged.Offset = 3
	if list, err = cs.List(ctx, paged); err != nil || len(list) != 0 {
		t.Fatalf("List past the end: %+v, %v", list, err)
	}
	later := settlement.Filter{ResellerID: &rid, From: &to}
	if n, err := cs.Count(ctx, later); err != nil || n != 2 {
		t.Fatalf("Count from the second hour: %d, %v", n, err)
	}
}

// list0 is resellerID's settlement of hour.
func list0(t *testing.T, cs settlement.Settlements, resellerID uint64, hour time.Time) settlement.Settlement {
	t.Helper()
	to := hour.Add(time.Hour)
	list, err := cs.List(context.Background(), settlement.Filter{ResellerID: &resellerID, From: &hour, To: &to})
	if err != nil || len(list) != 1 {
		t.Fatalf("the settlement of %s: %+v, %v", hour, list, err)
	}
	return list[0]
}

func containsID(ids []uint64, id uint64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
