package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/money/ledger"
	"paygate/core/resale/settlement"
)

// resellersCustomer is a customer r creates through the customers API: it
// sets its password through the mailed link, gets balance (an admin's
// credit) and an API key.
func (e *env) resellersCustomer(r customer, balance string) customer {
	e.t.Helper()
	n := seq.Add(1)
	email := fmt.Sprintf("customer%d@example.com", n)
	u := e.must(e.do("POST", panelAPI+"/customers", r.token, map[string]any{"name": "Customer", "email": email,
		"phone": fmt.Sprintf("93%08d", n)}), 201)
	link := e.link(email, resetPrefix)
	e.must(e.do("POST", panelAPI+"/auth/reset-password", "", map[string]any{"email": email, "token": link.Query().Get("token"),
		"password": "customer-password-1"}), 200)
	c := customer{id: u.num("id"), email: email, token: e.login(email, "customer-password-1")}
	if balance != "0.00" {
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/users/%d/balance-adjustments", c.id), e.admin,
			map[string]any{"type": "credit", "amount": balance, "description": "top-up"}), 201)
	}
	k := e.must(e.do("POST", panelAPI+"/api-keys", c.token, map[string]any{"name": "test key"}), 201)
	c.key, c.secret, c.keyID = k.str("key"), k.str("secret"), k.num("id")
	return c
}

// A reseller sets its selling price; its customer's call is charged it
// (the hit and the debit carry it), the hit carries the reseller's
// commission; the hour's settlement credits the reseller once; a failed
// call earns nothing; the ledger check agrees.
func TestResellersCustomerPaysTheSellingPrice(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		svc := e.newService("resold", "1.5000") // user and reseller price 1.50
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(svc)), e.admin,
			map[string]any{"reseller_price": "1.0000"}), 200)
		r := e.newCustomer("reseller", "starter", "0.00")
		cust := e.resellersCustomer(r, "20.00")
		plain := e.newCustomer("user", "starter", "20.00")

		// The list: no price, no markup → the list price.
		list := e.must(e.do("GET", "/api/v1/panel/customer-prices", r.token, nil), 200)
		row := findService(t, list, svc)
		if row["cost"] != "1.00" || row["price"] != nil || row["effective_price"] != "1.50" || row["margin"] != "0.50" || row["source"] != "list" {
			t.Fatalf("list row %v", row)
		}
		if meta := list.body["meta"].(map[string]any); meta["default_markup"] != nil {
			t.Fatalf("meta %v", meta)
		}
		// Below its own price: 422 below_cost on price.
		bad := e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", svc), r.token, map[string]any{"price": "0.9999"}), 422)
		if bad.body["error"] != "below_cost" || !strings.Contains(bad.raw, `"price"`) {
			t.Fatalf("below cost: %s", bad.raw)
		}
		e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", svc), r.token, map[string]any{"price": "abc"}), 422)
		e.must(e.do("PUT", "/api/v1/panel/customer-prices/999999", r.token, map[string]any{"price": "2.00"}), 404)
		set := e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", svc), r.token, map[string]any{"price": "1.8000"}), 200)
		if set.str("price") != "1.8000" || set.str("effective_price") != "1.80" || set.str("margin") != "0.80" || set.str("source") != "price" {
			t.Fatalf("set: %s", set.raw)
		}
		m := e.must(e.do("PUT", "/api/v1/panel/customer-markup", r.token, map[string]any{"default_markup": "10.00"}), 200)
		if m.str("default_markup") != "10.00" {
			t.Fatalf("markup: %s", m.raw)
		}
		e.must(e.do("PUT", "/api/v1/panel/customer-markup", r.token, map[string]any{}), 422)

		// The customer's call: charged 1.80; an ordinary user's 1.50.
		ok := e.must(e.call(cust, "resold", map[string]any{"to": "1"}), 200)
		if ok.str("charged") != "1.8000" && ok.str("charged") != "1.80" {
			t.Fatalf("customer charged %s", ok.raw)
		}
		other := e.must(e.call(plain, "resold", map[string]any{"to": "1"}), 200)
		if c := other.str("charged"); c != "1.5000" && c != "1.50" {
			t.Fatalf("ordinary caller charged %s", other.raw)
		}
		// A failed call: refunded, no commission.
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })
		failed := e.call(cust, "resold", map[string]any{"to": "2"})
		if failed.status < 500 {
			t.Fatalf("failed upstream answered %d", failed.status)
		}
		if err := e.app.Metering.AwaitSettlements(ctx); err != nil {
			t.Fatal(err)
		}
		hit, err := e.store.Stores().Hits.ByRequestID(ctx, ok.str("request_id"))
		if err != nil || !hit.ChargeAmount.Equal(decimal.RequireFromString("1.80")) || !hit.Commission.Equal(decimal.RequireFromString("0.80")) ||
			hit.ResellerID == nil || *hit.ResellerID != r.id {
			t.Fatalf("the customer's hit %+v, %v", hit, err)
		}
		var debit bool
		err = e.store.Stores().Ledger.ForEachByUser(ctx, cust.id, func(en ledger.Entry) error {
			if en.Type == ledger.Debit && en.ReferenceType == ledger.RefAPIHit && *en.ReferenceID == hit.ID {
				debit = en.Amount.Equal(decimal.RequireFromString("1.80"))
			}
			return nil
		})
		if err != nil || !debit {
			t.Fatalf("no debit of 1.80 for the customer's hit (%v)", err)
		}
		if b := e.balance(r); b != "0.00" {
			t.Fatalf("the reseller's balance moved on the metered path: %s", b)
		}

		// Settlement: once, whoever runs it.
		for range 2 {
			if _, err := e.app.Commissions.SettleBefore(ctx, time.Now().Add(2*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if b := e.balance(r); b != "0.80" {
			t.Fatalf("the reseller's balance after settlement: %s, want 0.80", b)
		}
		page := e.must(e.do("GET", "/api/v1/panel/commissions", r.token, nil), 200)
		cs := page.body["data"].([]any)
		if len(cs) != 1 || cs[0].(map[string]any)["amount"] != "0.80" || cs[0].(map[string]any)["hits"] != float64(1) ||
			page.body["meta"].(map[string]any)["total"] != float64(1) {
			t.Fatalf("commissions %s", page.raw)
		}
		// Paged by the database: a page past the end is empty, the total kept.
		past := e.must(e.do("GET", "/api/v1/panel/commissions?page=2&per_page=1", r.token, nil), 200)
		if len(past.body["data"].([]any)) != 0 || past.body["meta"].(map[string]any)["total"] != float64(1) {
			t.Fatalf("page 2: %s", past.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/commissions?per_page=101", r.token, nil), 422)
		txs := e.must(e.do("GET", "/api/v1/panel/transactions?type=credit", r.token, nil), 200).body["data"].([]any)
		credits := 0
		for _, x := range txs {
			if x.(map[string]any)["reference_type"] == settlement.RefCommission {
				credits++
			}
		}
		if credits != 1 {
			t.Fatalf("%d commission credits: %v", credits, txs)
		}
		// Removing the price: the markup applies (1.00 × 1.10).
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/customer-prices/%d", svc), r.token, nil), 204)
		e.must(e.do("DELETE", fmt.Sprintf("/api/v1/panel/customer-prices/%d", svc), r.token, nil), 404)
		row = findService(t, e.must(e.do("GET", "/api/v1/panel/customer-prices", r.token, nil), 200), svc)
		if row["effective_price"] != "1.10" || row["source"] != "markup" {
			t.Fatalf("after delete: %v", row)
		}
		// Each change is in the admins' audit log, by the reseller, with
		// its before and after; the refused ones are not.
		logs := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/audit-logs?target_type=service&target_id=%d", svc), e.admin, nil), 200)
		var actions []string
		for _, x := range logs.body["data"].([]any) {
			entry := x.(map[string]any)
			if strings.HasPrefix(entry["action"].(string), "customer_price.") {
				actions = append(actions, entry["action"].(string))
				if uint64(entry["actor_id"].(float64)) != r.id {
					t.Errorf("entry by %v: %v", entry["actor_id"], entry)
				}
			}
		}
		if strings.Join(actions, ",") != "customer_price.delete,customer_price.set" {
			t.Errorf("audited price changes (newest first): %v", actions)
		}
		marks := e.must(e.do("GET", "/api/v1/panel/audit-logs?action=customer_markup.set", e.admin, nil), 200).body["data"].([]any)
		if len(marks) != 1 || !strings.Contains(fmt.Sprint(marks[0].(map[string]any)["after"]), "10") {
			t.Errorf("audited markup changes: %v", marks)
		}
		// Others: 403.
		e.must(e.do("GET", "/api/v1/panel/customer-prices", plain.token, nil), 403)
		e.must(e.do("GET", "/api/v1/panel/commissions", cust.token, nil), 403)
		e.ledgerClean()
	})
}

func findService(t *testing.T, list resp, id uint64) map[string]any {
	t.Helper()
	for _, x := range list.body["data"].([]any) {
		if row := x.(map[string]any); uint64(row["service_id"].(float64)) == id {
			return row
		}
	}
	t.Fatalf("service %d not listed: %s", id, list.raw)
	return nil
}

// A reseller's customer is quoted the payout fee it will be charged: its
// reseller's selling price of the payout service, not the list price.
func TestResellersCustomerIsQuotedTheSellingPayoutFee(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "0.00")
		cust := e.resellersCustomer(r, "100.00")
		var payout uint64
		for _, x := range e.must(e.do("GET", "/api/v1/panel/customer-prices", r.token, nil), 200).body["data"].([]any) {
			if row := x.(map[string]any); row["slug"] == "payout-transfer" {
				payout = uint64(row["service_id"].(float64))
			}
		}
		if payout == 0 {
			t.Fatal("the payout service is not listed")
		}
		quote := func(c customer) string {
			return e.must(e.do("GET", "/api/v1/panel/payouts/quote?amount=10", c.token, nil), 200).str("fee")
		}
		if f := quote(cust); f != "5.0000" && f != "5.00" {
			t.Fatalf("fee before a selling price: %s", f)
		}
		e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/customer-prices/%d", payout), r.token, map[string]any{"price": "7.25"}), 200)
		if f := quote(cust); f != "7.2500" && f != "7.25" {
			t.Fatalf("customer's fee %s, want its reseller's selling price 7.25", f)
		}
		if f := quote(e.newCustomer("user", "starter", "100.00")); f != "5.0000" && f != "5.00" {
			t.Fatalf("an ordinary user's fee %s", f)
		}
	})
}

// A reseller previews a markup or one selling price before saving it:
// per service its own cost, the list price, what its customers pay now and
// would pay, flagged when below the list price (the GST lookup:
// 1.00 → 0.72 under a 20% markup over 0.60); nothing is saved; the
// previewed price is what its customer is then shown and charged.
func TestCustomerPricePreview(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		gst, upi := e.newService("gst-lookup", "1.0000"), e.newService("upi-verify", "1.0000")
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(gst)), e.admin, map[string]any{"reseller_price": "0.6000"}), 200)
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/pricing/%d", e.defaultPriceID(upi)), e.admin, map[string]any{"reseller_price": "0.7500"}), 200)
		r := e.newCustomer("reseller", "starter", "0.00")
		cust := e.resellersCustomer(r, "20.00")
		check := func(list resp, id uint64, cost, listPrice, current, customer, source string, below bool) {
			t.Helper()
			row := findService(t, list, id)
			if row["cost"] != cost || row["list_price"] != listPrice || row["current_price"] != current || row["customer_price"] != customer ||
				row["source"] != source || row["below_list"] != below {
				t.Errorf("service %d: %v, want cost %s list %s current %s customer %s %s below %v", id, row, cost, listPrice, current, customer, source, below)
			}
		}

		pv := e.must(e.do("GET", "/api/v1/panel/customer-prices/preview?markup=20", r.token, nil), 200)
		check(pv, gst, "0.60", "1.00", "1.00", "0.72", "markup", true)
		check(pv, upi, "0.75", "1.00", "1.00", "0.90", "markup", true)
		if meta := pv.body["meta"].(map[string]any); meta["default_markup"] != "20.00" || meta["below_list"].(float64) < 2 {
			t.Errorf("meta %v", meta)
		}
		// Nothing saved: the list still has no markup, the customer still pays the list price.
		list := e.must(e.do("GET", "/api/v1/panel/customer-prices", r.token, nil), 200)
		if list.body["meta"].(map[string]any)["default_markup"] != nil {
			t.Fatalf("the preview saved the markup: %s", list.raw)
		}
		if row := findService(t, list, gst); row["effective_price"] != "1.00" || row["list_price"] != "1.00" || row["below_list"] != false {
			t.Errorf("list row %v", row)
		}
		if p := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d", gst), cust.token, nil), 200).body["price"]; p != "1.00" {
			t.Errorf("customer shown %v before saving", p)
		}

		// Saved, the previewed price is what the customer is shown and charged.
		e.must(e.do("PUT", "/api/v1/panel/customer-markup", r.token, map[string]any{"default_markup": "20"}), 200)
		if row := findService(t, e.must(e.do("GET", "/api/v1/panel/customer-prices", r.token, nil), 200), gst); row["effective_price"] != "0.72" || row["below_list"] != true {
			t.Errorf("list row after saving %v", row)
		}
		if p := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d", gst), cust.token, nil), 200).body["price"]; p != "0.72" {
			t.Errorf("customer shown %v, previewed 0.72", p)
		}
		before := e.balance(cust)
		if c := e.must(e.call(cust, "gst-lookup", map[string]any{"to": "1"}), 200).str("charged"); c != "0.7200" {
			t.Errorf("customer charged %s, previewed 0.72", c)
		}
		if after := e.balance(cust); before != "20.00" || after != "19.28" {
			t.Errorf("balance %s → %s", before, after)
		}

		// One selling price: that service changes, the others keep the markup.
		one := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/customer-prices/preview?service_id=%d&price=1.2", gst), r.token, nil), 200)
		check(one, gst, "0.60", "1.00", "0.72", "1.20", "price", false)
		check(one, upi, "0.75", "1.00", "0.90", "0.90", "markup", true)
		if one.body["meta"].(map[string]any)["default_markup"] != "20.00" {
			t.Errorf("meta %v", one.body["meta"])
		}

		// Refused as saving would be, or as bad input.
		bad := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/customer-prices/preview?service_id=%d&price=0.59", gst), r.token, nil), 422)
		if bad.body["error"] != "below_cost" {
			t.Errorf("below cost: %s", bad.raw)
		}
		for _, q := range []string{"markup=abc", "markup=-1", "markup=1.234", "price=1.00", fmt.Sprintf("service_id=%d", gst), "service_id=x&price=1"} {
			e.must(e.do("GET", "/api/v1/panel/customer-prices/preview?"+q, r.token, nil), 422)
		}
		e.must(e.do("GET", "/api/v1/panel/customer-prices/preview?service_id=999999&price=1.00", r.token, nil), 404)
		e.must(e.do("GET", "/api/v1/panel/customer-prices/preview?markup=20", cust.token, nil), 403)
		e.must(e.do("GET", "/api/v1/panel/customer-prices/preview?markup=20", e.admin, nil), 403)
		e.ledgerClean()
	})
}
