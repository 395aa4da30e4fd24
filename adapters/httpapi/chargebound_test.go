package httpapi_test

import (
	"fmt"
	"testing"

	"github.com/shopspring/decimal"
)

// TestSellingPriceThatOverflowsIsRefused (issue 43, point 10): a selling
// price of 999999.9999 fits its column but charges 1000000.00, which no hit
// column holds (DECIMAL(10, 4)); it is 422 charge_too_large when set, as
// is a markup that would charge past 999999.99 on any service sold to the
// reseller, and an admin's list price past it. The largest price that fits
// is accepted, and its customer's call is charged and recorded: 200, the
// hit and the debit carry 999999.99, and the ledger check is clean.
func TestSellingPriceThatOverflowsIsRefused(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		svc := e.newService("bound", "1.5000")
		dear := e.newService("dear", "20000.0000") // the reseller's own price 20000.00: a markup of 4900% charges 1000000.00
		r := e.newCustomer("reseller", "starter", "0.00")
		cust := e.resellersCustomer(r, "1000000.00")
		put := func(price string) resp {
			return e.do("PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", svc), r.token, map[string]any{"price": price})
		}

		bad := put("999999.9999")
		if bad.status != 422 || bad.str("error") != "charge_too_large" || len(bad.fieldErrors("price")) != 1 {
			t.Fatalf("999999.9999: %d %s", bad.status, bad.raw)
		}
		m := e.do("PUT", "/api/v1/panel/customer-markup", r.token, map[string]any{"default_markup": "4900.00"})
		if m.status != 422 || m.str("error") != "charge_too_large" || len(m.fieldErrors("default_markup")) != 1 ||
			m.fieldErrors("default_markup")[0] != "makes a call's charge larger than 999999.99 for Service dear" {
			t.Fatalf("markup 4900%%: %d %s", m.status, m.raw)
		}
		list := e.must(e.do("GET", "/api/v1/panel/customer-prices", r.token, nil), 200)
		if row := findService(t, list, svc); row["price"] != nil || list.body["meta"].(map[string]any)["default_markup"] != nil {
			t.Fatalf("a refused price or markup was kept: %s", list.raw)
		}
		// The admin's side of the same bound: a list price that charges 1000000.00.
		if p := e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(dear)), e.admin,
			map[string]any{"user_price": "999999.9999"}); p.status != 422 || len(p.fieldErrors("user_price")) != 1 {
			t.Fatalf("list price 999999.9999: %d %s", p.status, p.raw)
		}

		e.must(e.do("PUT", "/api/v1/panel/customer-markup", r.token, map[string]any{"default_markup": "4899.99"}), 200) // 999998.00 on dear
		set := e.must(put("999999.99"), 200)
		if set.str("effective_price") != "999999.99" {
			t.Fatalf("the largest price: %s", set.raw)
		}
		call := e.must(e.call(cust, "bound", map[string]any{"to": "1"}), 200)
		if call.str("charged") != "999999.9900" || e.balance(cust) != "0.01" {
			t.Fatalf("the call at the largest price: %s, balance %s", call.raw, e.balance(cust))
		}
		var charges []string
		e.store.DB().Raw("SELECT charge_amount FROM api_hit_logs WHERE user_id = ? AND status = 'success'", cust.id).Scan(&charges)
		if len(charges) != 1 || !decimal.RequireFromString(charges[0]).Equal(decimal.RequireFromString("999999.99")) {
			t.Fatalf("hits recorded %v, want one at 999999.99", charges)
		}
		e.ledgerClean()
	})
}
