package resale_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
	"paygate/core/resale"
	"paygate/core/resale/settlement"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// services is the catalog: a fixed list (the fake store does not list).
type services []catalog.Service

func (s services) ByID(_ context.Context, id uint64) (*catalog.Service, error) {
	for i := range s {
		if s[i].ID == id {
			return &s[i], nil
		}
	}
	return nil, catalog.ErrServiceNotFound
}

func (s services) List(_ context.Context, f catalog.Filter) ([]catalog.Service, int64, error) {
	var out []catalog.Service
	for _, x := range s {
		if f.Status == "" || x.Status == f.Status {
			out = append(out, x)
		}
	}
	return out, int64(len(out)), nil
}

// Reseller 5 buys service 1 at 1.00 (its own row) and service 2 at the
// default 0.40; service 3 has no price, service 4 is inactive.
func world() (*resale.Selling, *storetest.DB) {
	db := storetest.New()
	five := uint64(5)
	db.Put(pricing.Price{ServiceID: 1, UserPrice: dec("1.50"), ResellerPrice: dec("1.20"), Status: pricing.StatusActive},
		pricing.Price{ServiceID: 1, UserID: &five, UserPrice: dec("1.50"), ResellerPrice: dec("1.00"), Status: pricing.StatusActive},
		pricing.Price{ServiceID: 2, UserPrice: dec("0.50"), ResellerPrice: dec("0.40"), MinimumHitCharge: dec("0.45"), Status: pricing.StatusActive},
		pricing.Price{ServiceID: 4, UserPrice: dec("9"), ResellerPrice: dec("9"), Status: pricing.StatusActive})
	cat := services{{ID: 1, Name: "SMS", Slug: "sms", Status: catalog.StatusActive}, {ID: 2, Name: "PAN", Slug: "pan", Status: catalog.StatusActive},
		{ID: 3, Name: "Unpriced", Slug: "unpriced", Status: catalog.StatusActive}, {ID: 4, Name: "Old", Slug: "old", Status: catalog.StatusInactive}}
	st := db.Stores()
	return resale.New(store.Narrow(db, resale.TxStoresOf), resale.Stores{Services: cat, Pricing: st.Pricing, Selling: st.CustomerPrices, Commissions: st.Commissions},
		func() time.Time { return time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC) }), db
}

var reseller = &user.User{ID: 5, Role: user.RoleReseller, Status: user.StatusActive}

func TestOnlyResellersSell(t *testing.T) {
	s, _ := world()
	ctx := context.Background()
	for _, u := range []*user.User{nil, {ID: 6, Role: user.RoleUser}, {ID: 1, Role: user.RoleAdmin}} {
		if _, _, err := s.Prices(ctx, u); errs.KindOf(err) != errs.Forbidden {
			t.Errorf("Prices for %+v: %v", u, err)
		}
		if _, err := s.SetPrice(ctx, u, 1, dec("2")); errs.KindOf(err) != errs.Forbidden {
			t.Errorf("SetPrice for %+v: %v", u, err)
		}
		if err := s.DeletePrice(ctx, u, 1); errs.KindOf(err) != errs.Forbidden {
			t.Errorf("DeletePrice for %+v: %v", u, err)
		}
		if _, err := s.SetMarkup(ctx, u, nil); errs.KindOf(err) != errs.Forbidden {
			t.Errorf("SetMarkup for %+v: %v", u, err)
		}
		if _, _, err := s.Commissions(ctx, u, nil, nil, 1, 20); errs.KindOf(err) != errs.Forbidden {
			t.Errorf("Commissions for %+v: %v", u, err)
		}
	}
}

func TestSellingPricesAndMarkup(t *testing.T) {
	s, _ := world()
	ctx := context.Background()
	rows, markup, err := s.Prices(ctx, reseller)
	if err != nil || markup != nil || len(rows) != 2 {
		t.Fatalf("Prices: %+v, %v, %v; want the 2 active, priced services", rows, markup, err)
	}
	if r := rows[0]; r.ServiceID != 1 || !r.Cost.Equal(dec("1.00")) || !r.Effective.Equal(dec("1.50")) || !r.Margin.Equal(dec("0.50")) || r.Source != pricing.SourceList {
		t.Fatalf("service 1 at list price: %+v", r)
	}
	if r := rows[1]; !r.Cost.Equal(dec("0.45")) || !r.Effective.Equal(dec("0.50")) {
		t.Fatalf("service 2 (minimum 0.45): %+v", r)
	}
	if _, err := s.SetPrice(ctx, reseller, 1, dec("0.99")); !errors.Is(err, pricing.ErrBelowCost) {
		t.Fatalf("below cost: %v", err)
	}
	if _, err := s.SetPrice(ctx, reseller, 1, dec("-1")); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("negative: %v", err)
	}
	for _, id := range []uint64{3, 4, 99} {
		if _, err := s.SetPrice(ctx, reseller, id, dec("5")); !errors.Is(err, catalog.ErrServiceNotFound) {
			t.Errorf("service %d: %v, want not found", id, err)
		}
	}
	row, err := s.SetPrice(ctx, reseller, 1, dec("1.2345"))
	if err != nil || row.Price == nil || !row.Effective.Equal(dec("1.23")) || !row.Margin.Equal(dec("0.23")) || row.Source != pricing.SourcePrice {
		t.Fatalf("SetPrice: %+v, %v", row, err)
	}
	if _, err := s.SetMarkup(ctx, reseller, ptr(dec("-5"))); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("negative markup: %v", err)
	}
	if m, err := s.SetMarkup(ctx, reseller, ptr(dec("20"))); err != nil || !m.Equal(dec("20")) {
		t.Fatalf("SetMarkup: %v, %v", m, err)
	}
	rows, markup, _ = s.Prices(ctx, reseller)
	if markup == nil || rows[0].Source != pricing.SourcePrice || rows[1].Source != pricing.SourceMarkup || !rows[1].Effective.Equal(dec("0.54")) {
		t.Fatalf("after price and markup: %+v, %v", rows, markup)
	}
	if err := s.DeletePrice(ctx, reseller, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePrice(ctx, reseller, 1); !errors.Is(err, pricing.ErrCustomerPriceNotFound) {
		t.Fatalf("a second delete: %v", err)
	}
	if _, err := s.SetMarkup(ctx, reseller, nil); err != nil {
		t.Fatal(err)
	}
	if rows, markup, _ = s.Prices(ctx, reseller); markup != nil || rows[0].Source != pricing.SourceList {
		t.Fatalf("cleared: %+v, %v", rows, markup)
	}
}

// Every change of a selling price or the markup is audited with the change,
// before and after; a refused change writes no entry.
func TestSellingChangesAreAudited(t *testing.T) {
	s, db := world()
	ctx := context.Background()
	type want struct {
		action, target string
		id             uint64
		before, after  string
	}
	check := func(ws ...want) {
		t.Helper()
		got := db.AuditEntries()
		if len(got) != len(ws) {
			t.Fatalf("%d audit entries, want %d: %+v", len(got), len(ws), got)
		}
		for i, w := range ws {
			e := got[i]
			if e.ActorID != 5 || e.Action != w.action || e.TargetType != w.target || e.TargetID == nil || *e.TargetID != w.id ||
				string(e.Before) != w.before || string(e.After) != w.after {
				t.Errorf("entry %d = %s %s %v %s → %s; want %+v", i, e.Action, e.TargetType, e.TargetID, e.Before, e.After, w)
			}
		}
	}
	if _, err := s.SetPrice(ctx, reseller, 1, dec("0.99")); !errors.Is(err, pricing.ErrBelowCost) {
		t.Fatal(err)
	}
	if err := s.DeletePrice(ctx, reseller, 1); !errors.Is(err, pricing.ErrCustomerPriceNotFound) {
		t.Fatal(err)
	}
	check()
	mustSet := func(price string) {
		t.Helper()
		if _, err := s.SetPrice(ctx, reseller, 1, dec(price)); err != nil {
			t.Fatal(err)
		}
	}
	mustSet("1.2345")
	mustSet("2")
	if _, err := s.SetMarkup(ctx, reseller, ptr(dec("12.5"))); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePrice(ctx, reseller, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetMarkup(ctx, reseller, nil); err != nil {
		t.Fatal(err)
	}
	check(
		want{"customer_price.set", "service", 1, "", `{"reseller_id":5,"service_id":1,"price":"1.2345"}`},
		want{"customer_price.set", "service", 1, `{"reseller_id":5,"service_id":1,"price":"1.2345"}`, `{"reseller_id":5,"service_id":1,"price":"2"}`},
		want{"customer_markup.set", "user", 5, `{"default_markup":null}`, `{"default_markup":"12.5"}`},
		want{"customer_price.delete", "service", 1, `{"reseller_id":5,"service_id":1,"price":"2"}`, ""},
		want{"customer_markup.set", "user", 5, `{"default_markup":"12.5"}`, `{"default_markup":null}`},
	)
}

func TestCommissionsList(t *testing.T) {
	s, db := world()
	ctx := context.Background()
	h := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	for i, rid := range []uint64{5, 5, 6, 5} {
		st := &settlement.Settlement{ResellerID: rid, HourStart: h.Add(time.Duration(i) * time.Hour), Hits: 1, Amount: dec("0.10")}
		if err := db.Stores().Commissions.Insert(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	all, n, err := s.Commissions(ctx, reseller, nil, nil, 1, 20)
	if err != nil || len(all) != 3 || n != 3 {
		t.Fatalf("all: %+v, %d, %v", all, n, err)
	}
	// Pages of 2: the oldest two, then the third; past the end, none.
	for _, c := range []struct{ page, rows int }{{1, 2}, {2, 1}, {3, 0}} {
		got, n, err := s.Commissions(ctx, reseller, nil, nil, c.page, 2)
		if err != nil || len(got) != c.rows || n != 3 {
			t.Fatalf("page %d of 2: %+v, %d, %v", c.page, got, n, err)
		}
		if c.rows > 0 && !got[0].HourStart.Equal(all[(c.page-1)*2].HourStart) {
			t.Errorf("page %d starts at %s, want %s", c.page, got[0].HourStart, all[(c.page-1)*2].HourStart)
		}
	}
	from, to := h.Add(time.Hour), h.Add(3*time.Hour)
	some, n, err := s.Commissions(ctx, reseller, &from, &to, 1, 20)
	if err != nil || len(some) != 2 || n != 2 || !some[0].HourStart.Equal(from) || !some[1].HourStart.Equal(to) {
		t.Fatalf("from %s to %s (inclusive): %+v, %v", from, to, some, err)
	}
	if _, _, err := s.Commissions(ctx, reseller, &to, &from, 1, 20); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("from after to: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestChargesThatOverflowAreRefused: a selling price or a markup whose
// customer's charge would not fit the hit log (pricing.MaxCharge) is 422
// charge_too_large when it is set, and nothing is stored or audited; the
// largest that fits is accepted (issue 43, point 10).
func TestChargesThatOverflowAreRefused(t *testing.T) {
	_, db := world()
	ctx := context.Background()
	// Service 5 costs the reseller 10000.00: a markup of 9900% makes 1000000.00.
	db.Put(pricing.Price{ServiceID: 5, UserPrice: dec("20000"), ResellerPrice: dec("10000"), Status: pricing.StatusActive})
	s := resale.New(store.Narrow(db, resale.TxStoresOf), resale.Stores{Services: services{{ID: 1, Name: "SMS", Slug: "sms", Status: catalog.StatusActive},
		{ID: 5, Name: "Bulk KYC", Slug: "bulk-kyc", Status: catalog.StatusActive}}, Pricing: db.Stores().Pricing,
		Selling: db.Stores().CustomerPrices, Commissions: db.Stores().Commissions}, nil)

	_, err := s.SetPrice(ctx, reseller, 1, dec("999999.9999"))
	if e, ok := errs.As(err); !ok || !errors.Is(err, pricing.ErrChargeTooLarge) || e.Kind != errs.Invalid || len(e.Fields["price"]) != 1 {
		t.Fatalf("999999.9999: %v", err)
	}
	_, err = s.SetMarkup(ctx, reseller, new(dec("9900")))
	if e, ok := errs.As(err); !ok || !errors.Is(err, pricing.ErrChargeTooLarge) || len(e.Fields["default_markup"]) != 1 ||
		e.Fields["default_markup"][0] != "makes a call's charge larger than 999999.99 for Bulk KYC" {
		t.Fatalf("markup 9900: %v", err)
	}
	// The preview refuses them as saving would.
	if _, _, err := s.Preview(ctx, reseller, resale.Change{Markup: new(dec("9900"))}); !errors.Is(err, pricing.ErrChargeTooLarge) {
		t.Fatalf("preview of markup 9900: %v", err)
	}
	if _, _, err := s.Preview(ctx, reseller, resale.Change{ServiceID: new(uint64(1)), Price: new(dec("999999.9999"))}); !errors.Is(err, pricing.ErrChargeTooLarge) {
		t.Fatalf("preview of 999999.9999: %v", err)
	}
	if sel, _ := db.Stores().CustomerPrices.Selling(ctx, reseller.ID, 1); sel.Price != nil || sel.Markup != nil || len(db.AuditEntries()) != 0 {
		t.Fatalf("a refused change was kept: %+v, %d audit entries", sel, len(db.AuditEntries()))
	}

	if r, err := s.SetPrice(ctx, reseller, 1, dec("999999.9900")); err != nil || r.Effective.StringFixed(2) != "999999.99" {
		t.Fatalf("the largest price: %+v %v", r, err)
	}
	if m, err := s.SetMarkup(ctx, reseller, new(dec("9899.99"))); err != nil || m.String() != "9899.99" {
		t.Fatalf("the largest markup: %v %v", m, err)
	}
}

// Preview shows, changing nothing, each service's cost, list price, what
// customers pay now and would pay under a markup or one selling price, and
// flags a customer price below the list price; it refuses what SetPrice
// and SetMarkup refuse.
func TestPreview(t *testing.T) {
	s, db := world()
	ctx := context.Background()
	if _, _, err := s.Preview(ctx, &user.User{ID: 6, Role: user.RoleUser}, resale.Change{}); errs.KindOf(err) != errs.Forbidden {
		t.Fatalf("a user previews: %v", err)
	}
	// Service 1: cost 1.00, list 1.50; service 2: cost 0.45 (minimum), list 0.50.
	rows, markup, err := s.Preview(ctx, reseller, resale.Change{Markup: ptr(dec("20"))})
	if err != nil || len(rows) != 2 || markup == nil || !markup.Equal(dec("20")) {
		t.Fatalf("Preview: %+v, %v, %v", rows, markup, err)
	}
	want := []struct {
		cost, list, current, charge string
		below                       bool
	}{{"1.00", "1.50", "1.50", "1.20", true}, {"0.45", "0.50", "0.50", "0.54", false}}
	for i, w := range want {
		r := rows[i]
		if !r.Cost.Equal(dec(w.cost)) || !r.List.Equal(dec(w.list)) || !r.Current.Equal(dec(w.current)) || !r.Charge.Equal(dec(w.charge)) ||
			r.BelowList != w.below || r.Source != pricing.SourceMarkup {
			t.Errorf("row %d: %+v, want %+v", i, r, w)
		}
	}
	if m, _ := db.Stores().CustomerPrices.Markup(ctx, reseller.ID); m != nil {
		t.Fatalf("preview saved the markup %v", m)
	}
	// One selling price: that service changes, the other keeps the current markup (none).
	rows, _, err = s.Preview(ctx, reseller, resale.Change{ServiceID: ptr(uint64(1)), Price: ptr(dec("1.1000"))})
	if err != nil || !rows[0].Charge.Equal(dec("1.10")) || !rows[0].BelowList || rows[0].Source != pricing.SourcePrice ||
		!rows[1].Charge.Equal(dec("0.50")) || rows[1].BelowList || rows[1].Source != pricing.SourceList {
		t.Fatalf("single price: %+v, %v", rows, err)
	}
	if _, _, err := s.Preview(ctx, reseller, resale.Change{ServiceID: ptr(uint64(1)), Price: ptr(dec("0.99"))}); !errors.Is(err, pricing.ErrBelowCost) {
		t.Errorf("below cost: %v", err)
	}
	if _, _, err := s.Preview(ctx, reseller, resale.Change{ServiceID: ptr(uint64(3)), Price: ptr(dec("5"))}); !errors.Is(err, catalog.ErrServiceNotFound) {
		t.Errorf("unpriced service: %v", err)
	}
	for _, ch := range []resale.Change{{Markup: ptr(dec("-1"))}, {ServiceID: ptr(uint64(1))}, {Price: ptr(dec("2"))}, {ServiceID: ptr(uint64(1)), Price: ptr(dec("-2"))}} {
		if _, _, err := s.Preview(ctx, reseller, ch); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%+v: %v, want invalid", ch, err)
		}
	}
}
