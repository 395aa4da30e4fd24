package pricing

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
)

// quoteReads is PriceFor's rows in memory: price rows by (service, user)
// with the default under user 0, users, and what resellers set.
type quoteReads struct {
	rows    map[[2]uint64]*Price
	users   map[uint64]*user.User
	selling map[[2]uint64]Selling
}

func (r quoteReads) Applicable(_ context.Context, serviceID, userID uint64) (*Price, error) {
	if p, ok := r.rows[[2]uint64{serviceID, userID}]; ok {
		return p, nil
	}
	if p, ok := r.rows[[2]uint64{serviceID, 0}]; ok {
		return p, nil
	}
	return nil, ErrNotFound
}

func (r quoteReads) ByID(_ context.Context, id uint64) (*user.User, error) {
	if u, ok := r.users[id]; ok {
		return u, nil
	}
	return nil, user.ErrNotFound
}

func (r quoteReads) Selling(_ context.Context, resellerID, serviceID uint64) (Selling, error) {
	return r.selling[[2]uint64{resellerID, serviceID}], nil
}

// TestPriceFor is every case of what a caller is shown and charged: each
// role's column under its row, a reseller's customer's selling price,
// markup or list price, the minimum charge, rounding, and the list price
// when its reseller no longer sells.
func TestPriceFor(t *testing.T) {
	const (
		upi, sms, gst, minimum, unpriced, overridden = 1, 2, 3, 4, 5, 6
		adminID, resellerID, userID, customerID      = 1, 2, 3, 4
		blockedID, demotedID, deletedID              = 5, 6, 7
	)
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	id := func(v uint64) *uint64 { return &v }
	reseller := func(id uint64) *user.User {
		return &user.User{ID: id, Role: user.RoleReseller, Status: user.StatusActive}
	}
	rows := map[[2]uint64]*Price{
		{upi, 0}:                 {AdminCost: d("0.5000"), UserPrice: d("1.0000"), ResellerPrice: d("0.7500")},
		{sms, 0}:                 {AdminCost: d("0.1000"), UserPrice: d("0.2500"), ResellerPrice: d("0.2000")},
		{gst, 0}:                 {AdminCost: d("0.4000"), UserPrice: d("1.0000"), ResellerPrice: d("0.6000")},
		{minimum, 0}:             {AdminCost: d("0.1000"), UserPrice: d("0.3000"), ResellerPrice: d("0.2000"), MinimumHitCharge: d("0.50")},
		{overridden, 0}:          {AdminCost: d("0.1000"), UserPrice: d("2.0000"), ResellerPrice: d("1.0000")},
		{overridden, resellerID}: {AdminCost: d("0.1000"), UserPrice: d("1.8000"), ResellerPrice: d("0.8000")},
		{overridden, userID}:     {AdminCost: d("0.1000"), UserPrice: d("1.2345"), ResellerPrice: d("1.0000")},
	}
	blocked, demoted, deleted := reseller(blockedID), reseller(demotedID), reseller(deletedID)
	blocked.Status, demoted.Role, deleted.DeletedAt = user.StatusBlocked, user.RoleUser, &at
	reads := quoteReads{rows: rows,
		users: map[uint64]*user.User{resellerID: reseller(resellerID), blockedID: blocked, demotedID: demoted, deletedID: deleted},
		selling: map[[2]uint64]Selling{
			{resellerID, upi}: {Price: dp("1.5000"), Markup: dp("20")},
			{resellerID, sms}: {Markup: dp("20")},
			{resellerID, gst}: {Markup: dp("20")},
			// minimum: a selling price under the minimum charge
			{resellerID, minimum}:    {Price: dp("0.2500")},
			{resellerID, overridden}: {Price: dp("1.0050")},
			{blockedID, upi}:         {Price: dp("1.5000")},
			{demotedID, upi}:         {Price: dp("1.5000")},
			{deletedID, upi}:         {Price: dp("1.5000")},
		}}
	r := Reads{Prices: reads, Users: reads, Selling: reads}
	admin := &user.User{ID: adminID, Role: user.RoleAdmin}
	res := reseller(resellerID)
	plain := &user.User{ID: userID, Role: user.RoleUser}
	customerOf := func(parent uint64) *user.User {
		return &user.User{ID: customerID, Role: user.RoleUser, ParentID: id(parent)}
	}
	cases := []struct {
		name       string
		caller     *user.User
		service    uint64
		charge     string
		commission string
		source     Source
		resold     bool
	}{
		{"user: the user price", plain, upi, "1.00", "0", "", false},
		{"reseller: its own price", res, upi, "0.75", "0", "", false},
		{"admin: the admin cost", admin, upi, "0.50", "0", "", false},
		{"user: its own row, rounded half-up", plain, overridden, "1.23", "0", "", false},
		{"reseller: its own row", res, overridden, "0.80", "0", "", false},
		{"user: the minimum charge", plain, minimum, "0.50", "0", "", false},
		{"admin: the minimum charge", admin, minimum, "0.50", "0", "", false},
		{"customer: the selling price", customerOf(resellerID), upi, "1.50", "0.75", SourcePrice, true},
		{"customer: the markup (issue's SMS: listed 0.25)", customerOf(resellerID), sms, "0.24", "0.04", SourceMarkup, true},
		{"customer: the markup below list (GST)", customerOf(resellerID), gst, "0.72", "0.12", SourceMarkup, true},
		{"customer: the minimum charge over the selling price", customerOf(resellerID), minimum, "0.50", "0", SourcePrice, true},
		{"customer: the reseller's row, selling price rounded", customerOf(resellerID), overridden, "1.01", "0.21", SourcePrice, true},
		{"customer of a blocked reseller: the list price", customerOf(blockedID), upi, "1.00", "0", "", false},
		{"customer of a demoted reseller: the list price", customerOf(demotedID), upi, "1.00", "0", "", false},
		{"customer of a deleted reseller: the list price", customerOf(deletedID), upi, "1.00", "0", "", false},
		{"customer of a missing reseller: the list price", customerOf(99), upi, "1.00", "0", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := PriceFor(context.Background(), r, c.service, c.caller)
			if err != nil {
				t.Fatal(err)
			}
			if !q.Charge.Equal(d(c.charge)) || !q.Commission.Equal(d(c.commission)) || q.Source != c.source {
				t.Errorf("charge %s commission %s source %q, want %s %s %q", q.Charge, q.Commission, q.Source, c.charge, c.commission, c.source)
			}
			if (q.Reseller != nil) != c.resold || (c.resold && *q.Reseller != *c.caller.ParentID) {
				t.Errorf("reseller %v, resold %v", q.Reseller, c.resold)
			}
			if q.Row == nil {
				t.Error("no row")
			}
		})
	}
	for _, caller := range []*user.User{plain, customerOf(resellerID)} {
		if _, err := PriceFor(context.Background(), r, unpriced, caller); err != ErrNotFound {
			t.Errorf("unpriced service for %d: %v", caller.ID, err)
		}
	}
}

// TestPreviewResale: the reseller's cost, the list price and the
// customer's charge, and whether the customer pays less than the list.
func TestPreviewResale(t *testing.T) {
	gst := Price{UserPrice: d("1.0000"), ResellerPrice: d("0.6000")}
	sms := Price{UserPrice: d("0.2500"), ResellerPrice: d("0.2000")}
	withMin := Price{UserPrice: d("0.3000"), ResellerPrice: d("0.2000"), MinimumHitCharge: d("0.50")}
	cases := []struct {
		name               string
		row                Price
		selling, markup    *decimal.Decimal
		cost, list, charge string
		below              bool
		source             Source
	}{
		{"markup below the list", gst, nil, dp("20"), "0.60", "1.00", "0.72", true, SourceMarkup},
		{"markup at the list", gst, nil, dp("66.67"), "0.60", "1.00", "1.00", false, SourceMarkup},
		{"sms markup rounds below the list", sms, nil, dp("20"), "0.20", "0.25", "0.24", true, SourceMarkup},
		{"selling price over the list", gst, dp("1.5000"), dp("20"), "0.60", "1.00", "1.50", false, SourcePrice},
		{"selling price below the list", gst, dp("0.9000"), nil, "0.60", "1.00", "0.90", true, SourcePrice},
		{"the list price", gst, nil, nil, "0.60", "1.00", "1.00", false, SourceList},
		{"the minimum charge lifts both", withMin, dp("0.2500"), nil, "0.50", "0.50", "0.50", false, SourcePrice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := PreviewResale(&c.row, c.selling, c.markup)
			if !p.Cost.Equal(d(c.cost)) || !p.List.Equal(d(c.list)) || !p.Charge.Equal(d(c.charge)) || p.BelowList != c.below || p.Source != c.source {
				t.Errorf("got %+v, want cost %s list %s charge %s below %v source %s", p, c.cost, c.list, c.charge, c.below, c.source)
			}
			if r := Resell(&c.row, c.selling, c.markup); !r.Charge.Equal(p.Charge) {
				t.Errorf("preview %s, resale %s", p.Charge, r.Charge)
			}
		})
	}
}
