package httpapi_test

import (
	"fmt"
	"testing"
)

// TestShownPriceIsCharged: what GET /panel/services, GET
// /panel/services/{id} and a service's docs example show a caller is what
// a call charges it (the answer's charged and the balance's change), for a
// user, a reseller, an admin, a reseller's customer under a selling price,
// a markup (the SMS: listed 0.25, charged 0.24; over the minimum
// charge, the markup is over the reseller's raised own charge), the minimum
// charge and rounding, and a customer of a blocked reseller (list price).
func TestShownPriceIsCharged(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		type svc struct {
			slug                           string
			user, reseller, admin, minimum string
			selling                        string // the reseller's selling price, "" for none (its markup applies)
			id                             uint64
		}
		services := []*svc{
			{slug: "shown-upi", user: "1.0000", reseller: "0.7500", admin: "0.5000", minimum: "0.00", selling: "1.5000"},
			{slug: "shown-sms", user: "0.2500", reseller: "0.2000", admin: "0.1000", minimum: "0.00"},
			{slug: "shown-min", user: "0.3000", reseller: "0.2000", admin: "0.1000", minimum: "0.50"},
			{slug: "shown-round", user: "1.2345", reseller: "1.0000", admin: "0.5000", minimum: "0.00", selling: "1.0050"},
		}
		r := e.newCustomer("reseller", "starter", "50.00")
		blockedReseller := e.newCustomer("reseller", "starter", "0.00")
		for _, s := range services {
			s.id = e.newService(s.slug, s.user)
			e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(s.id)), e.admin, map[string]any{
				"reseller_price": s.reseller, "admin_cost": s.admin, "minimum_hit_charge": s.minimum}), 200)
			e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/services/%d/docs", s.id), e.admin, map[string]any{
				"endpoint": "/api/v1/" + s.slug, "method": "POST", "description": "A priced service",
				"request_params":   map[string]any{"to": map[string]any{"type": "string"}},
				"response_example": map[string]any{"success": true, "charged": "9.9900", "balance_left": "90.01"},
				"error_codes":      map[string]string{"402": "Insufficient balance"},
			}), 200)
			if s.selling != "" {
				e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", s.id), r.token, map[string]any{"price": s.selling}), 200)
				e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", s.id), blockedReseller.token, map[string]any{"price": s.selling}), 200)
			}
		}
		e.must(e.do("PUT", "/api/v1/panel/customer-markup", r.token, map[string]any{"default_markup": "20.00"}), 200)
		cust := e.resellersCustomer(r, "50.00")
		orphan := e.resellersCustomer(blockedReseller, "50.00")
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", blockedReseller.id), e.admin, nil), 200)
		u := e.newCustomer("user", "starter", "50.00")
		admin := customer{token: e.admin}
		admin.id = e.must(e.do("GET", "/api/v1/panel/auth/me", e.admin, nil), 200).num("id")
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", admin.id), e.admin,
			map[string]any{"type": "credit", "amount": "50.00", "description": "top-up"}), 201)
		k := e.must(e.do("POST", "/api/v1/panel/api-keys", e.admin, map[string]any{"name": "admin key"}), 201)
		admin.key, admin.secret = k.str("key"), k.str("secret")

		callers := []struct {
			name string
			who  customer
			want map[string]string // what each service costs the caller
		}{
			{"user", u, map[string]string{"shown-upi": "1.00", "shown-sms": "0.25", "shown-min": "0.50", "shown-round": "1.23"}},
			{"reseller", r, map[string]string{"shown-upi": "0.75", "shown-sms": "0.20", "shown-min": "0.50", "shown-round": "1.00"}},
			{"admin", admin, map[string]string{"shown-upi": "0.50", "shown-sms": "0.10", "shown-min": "0.50", "shown-round": "0.50"}},
			{"customer", cust, map[string]string{"shown-upi": "1.50", "shown-sms": "0.24", "shown-min": "0.60", "shown-round": "1.01"}},
			{"customer of a blocked reseller", orphan, map[string]string{"shown-upi": "1.00", "shown-sms": "0.25", "shown-min": "0.50", "shown-round": "1.23"}},
		}
		for _, c := range callers {
			list := e.must(e.do("GET", "/api/v1/panel/services?per_page=100", c.who.token, nil), 200)
			listed := map[uint64]any{}
			for _, row := range list.body["data"].([]any) {
				m := row.(map[string]any)
				listed[uint64(m["id"].(float64))] = m["price"]
			}
			for _, s := range services {
				want := c.want[s.slug]
				one := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d", s.id), c.who.token, nil), 200)
				if one.body["price"] != want || listed[s.id] != want {
					t.Errorf("%s, %s: detail %v, list %v, want %s", c.name, s.slug, one.body["price"], listed[s.id], want)
				}
				example := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/docs", s.id), c.who.token, nil), 200).
					body["response_example"].(map[string]any)
				if c.name != "admin" && !dec(t, fmt.Sprint(example["charged"])).Equal(dec(t, want)) {
					t.Errorf("%s, %s: docs example charged %v, want %s", c.name, s.slug, example["charged"], want)
				}
				before := dec(t, e.balance(c.who))
				got := e.must(e.call(c.who, s.slug, map[string]any{"to": "1"}), 200)
				after := dec(t, e.balance(c.who))
				if charged := dec(t, got.str("charged")); !charged.Equal(dec(t, want)) || !before.Sub(after).Equal(charged) {
					t.Errorf("%s, %s: shown %s, charged %s, balance %s → %s", c.name, s.slug, want, charged, before, after)
				}
			}
		}
		// Admins read the docs as stored.
		stored := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/docs", services[0].id), e.admin, nil), 200)
		if ex := stored.body["response_example"].(map[string]any); ex["charged"] != "9.9900" || ex["balance_left"] != "90.01" {
			t.Errorf("admin's docs example %v", ex)
		}
		e.ledgerClean()
	})
}
