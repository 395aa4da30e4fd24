package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// fund moves amount from reseller r to its customer c (a transfer).
func (e *env) fund(r, c customer, amount string) {
	e.t.Helper()
	e.must(e.do("POST", fmt.Sprintf(panelAPI+"/customers/%d/transfers", c.id), r.token,
		map[string]any{"amount": amount, "direction": "to_customer"}), 201)
}

// setLimits is the admin's PATCH /users/{id} of an account's limits.
func (e *env) setLimits(c customer, payoutLimit, feePercent string) {
	e.t.Helper()
	e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/users/%d", c.id), e.admin,
		map[string]any{"daily_payout_limit": payoutLimit, "collection_fee_percent": feePercent}), 200)
}

// Issue 43 (5): an admin sets a reseller's daily payout limit to 0.00 and
// its collection fee to 5%. A customer it creates starts with those; its
// payout is refused, its collection pays 5%; the reseller cannot set a
// looser value (422); an admin loosening the customer itself changes
// nothing (the stricter of the two applies).
func TestResellersCustomerIsBoundByItsResellersLimits(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "1000.00")
		e.setLimits(r, "0.00", "5")
		c := e.resellersCustomer(r, "0.00")
		e.fund(r, c, "500.00")
		me := e.must(e.do("GET", panelAPI+"/auth/me", c.token, nil), 200)
		if me.str("daily_payout_limit") != "0.00" || me.str("collection_fee_percent") != "5.00" {
			t.Fatalf("the customer's defaults: %s", me.raw)
		}

		payoutRefused := func(what string) {
			t.Helper()
			p := e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout(fmt.Sprintf("p-%d", seq.Add(1)), "100", "123456781234"))
			if p.status != 422 || p.str("error") != "daily_payout_limit_exceeded" {
				t.Fatalf("%s: payout answered %d %s, want 422 daily_payout_limit_exceeded", what, p.status, p.raw)
			}
		}
		collect := func(want string) {
			t.Helper()
			before := e.balance(c)
			id := e.newPayment(c, "100.00")
			e.payByCheckout(id)
			st := e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200).body["data"].(map[string]any)
			if st["fee"] != want {
				t.Fatalf("collection fee %v, want %s (balance before %s)", st["fee"], want, before)
			}
		}
		payoutRefused("customer with its reseller's defaults")
		collect("5.00")

		// The reseller may not loosen its customer: 422, nothing changed.
		limits := fmt.Sprintf(panelAPI+"/customers/%d/limits", c.id)
		for _, body := range []map[string]any{{"daily_payout_limit": "0.01"}, {"collection_fee_percent": "4.99"},
			{"daily_payout_limit": "200000", "collection_fee_percent": "0"}} {
			bad := e.must(e.do("PATCH", limits, r.token, body), 422)
			errsOf := bad.body["errors"].(map[string]any)
			if bad.str("error") != "looser_than_reseller" || len(errsOf) != len(body) {
				t.Fatalf("looser %v: %s", body, bad.raw)
			}
		}
		e.must(e.do("PATCH", limits, r.token, map[string]any{"daily_payout_limit": "abc"}), 422)
		// Stricter is its choice, audited.
		set := e.must(e.do("PATCH", limits, r.token, map[string]any{"collection_fee_percent": "7.50"}), 200)
		if set.str("collection_fee_percent") != "7.50" || set.str("daily_payout_limit") != "0.00" {
			t.Fatalf("stricter fee: %s", set.raw)
		}
		logs := e.must(e.do("GET", fmt.Sprintf(panelAPI+"/audit-logs?action=customer.limits&actor_id=%d", r.id), e.admin, nil), 200)
		if data := logs.body["data"].([]any); len(data) != 1 || !strings.Contains(fmt.Sprint(data[0].(map[string]any)["after"]), "7.50") {
			t.Fatalf("audited: %s", logs.raw)
		}
		collect("7.50")
		// Not its customer, or not a reseller: 404, 403.
		other := e.newCustomer("reseller", "starter", "0.00")
		e.must(e.do("PATCH", limits, other.token, map[string]any{"collection_fee_percent": "10"}), 404)
		e.must(e.do("PATCH", limits, c.token, map[string]any{"collection_fee_percent": "10"}), 403)

		// An admin loosening the customer alone: the reseller's still bind.
		e.setLimits(c, "200000", "0")
		// What it is shown is what applies (and is charged).
		if me := e.must(e.do("GET", panelAPI+"/auth/me", c.token, nil), 200); me.str("daily_payout_limit") != "0.00" || me.str("collection_fee_percent") != "5.00" {
			t.Fatalf("the loosened customer is shown: %s", me.raw)
		}
		payoutRefused("customer an admin loosened")
		collect("5.00")
		// An admin loosening the reseller: the customer's own apply again.
		e.setLimits(r, "200000", "1")
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("after-raise", "100", "123456781234")), 200)
		collect("1.00")
		e.ledgerClean()
	})
}

// Issue 43 (5): a reseller's own daily payout limit counts its customers'
// payouts with its own, also when several customers pay out at once.
func TestResellersPayoutLimitCountsItsCustomers(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "5000.00")
		e.setLimits(r, "500", "0")
		var cs []customer
		for range 3 {
			c := e.resellersCustomer(r, "0.00")
			e.fund(r, c, "1000.00")
			e.setLimits(c, "200000", "0") // each alone could pay out far more
			cs = append(cs, c)
		}
		codes := parallel(12, func(i int) int {
			return e.gw(cs[i%3], "POST", "/api/v1/payout/transfer", bankPayout(fmt.Sprintf("l-%d", i), "100", "123456781234")).status
		})
		if codes[200] != 5 || codes[422] != 7 {
			t.Fatalf("answers %v: want 5 payouts of 100 within the reseller's 500, 7 refused", codes)
		}
		// The reseller's own payout counts against the same 500.
		p := e.gw(r, "POST", "/api/v1/payout/transfer", bankPayout("own-1", "1", "123456781234"))
		if p.status != 422 || p.str("error") != "daily_payout_limit_exceeded" {
			t.Fatalf("the reseller's own payout: %d %s", p.status, p.raw)
		}
		// Its quote and its customers' say what is left.
		q := e.must(e.do("GET", panelAPI+"/payouts/quote?amount=1", r.token, nil), 200)
		if q.str("daily_limit") != "500.00" || q.str("used_today") != "500.00" || q.str("remaining_today") != "0.00" {
			t.Fatalf("reseller's quote: %s", q.raw)
		}
		q = e.must(e.do("GET", panelAPI+"/payouts/quote?amount=1", cs[0].token, nil), 200)
		if q.str("daily_limit") != "500.00" || q.str("remaining_today") != "0.00" {
			t.Fatalf("customer's quote: %s", q.raw)
		}
		e.ledgerClean()
	})
}

// Issue 43 (6): while its reseller is blocked, or no longer a reseller, a
// customer pays the list price (what an ordinary user pays) and its hit
// carries no reseller and no commission; unblocking restores the resale.
// The settlement credits only what the active reseller earned, and the
// ledger check agrees.
func TestBlockedOrDemotedResellerEarnsNothing(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		svc := e.newService("resold-blocked", "1.5000") // list price 1.50
		e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/pricing/%d", e.defaultPriceID(svc)), e.admin,
			map[string]any{"reseller_price": "1.0000"}), 200)
		r := e.newCustomer("reseller", "starter", "0.00")
		c := e.resellersCustomer(r, "20.00")
		e.must(e.do("PUT", fmt.Sprintf(panelAPI+"/customer-prices/%d", svc), r.token, map[string]any{"price": "1.8000"}), 200)

		call := func(what, charge, commission string, resold bool) {
			t.Helper()
			res := e.must(e.call(c, "resold-blocked", map[string]any{"to": "1"}), 200)
			if got := decimal.RequireFromString(res.str("charged")); !got.Equal(decimal.RequireFromString(charge)) {
				t.Fatalf("%s: charged %s, want %s", what, res.raw, charge)
			}
			if err := e.app.Metering.AwaitSettlements(ctx); err != nil {
				t.Fatal(err)
			}
			hit, err := e.store.Stores().Hits.ByRequestID(ctx, res.str("request_id"))
			if err != nil || !hit.ChargeAmount.Equal(decimal.RequireFromString(charge)) || !hit.Commission.Equal(decimal.RequireFromString(commission)) ||
				(hit.ResellerID != nil) != resold {
				t.Fatalf("%s: hit %+v (%v); want charge %s, commission %s, reseller named %v", what, hit, err, charge, commission, resold)
			}
		}
		call("reseller active", "1.80", "0.80", true)
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/users/%d/block", r.id), e.admin, map[string]any{}), 200)
		call("reseller blocked", "1.50", "0", false)
		e.must(e.do("POST", fmt.Sprintf(panelAPI+"/users/%d/activate", r.id), e.admin, map[string]any{}), 200)
		call("reseller unblocked", "1.80", "0.80", true)
		e.must(e.do("PATCH", fmt.Sprintf(panelAPI+"/users/%d", r.id), e.admin, map[string]any{"role": "user"}), 200)
		call("reseller demoted", "1.50", "0", false)

		if _, err := e.app.Commissions.SettleBefore(ctx, time.Now().Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if b := e.balance(customer{token: e.login(r.email, "user-password-1")}); b != "1.60" {
			t.Fatalf("the reseller's balance after settlement: %s, want 1.60 (the two calls while it resold)", b)
		}
		if b := e.balance(c); b != "13.40" {
			t.Fatalf("the customer's balance: %s, want 13.40 (20 − 1.80 − 1.50 − 1.80 − 1.50)", b)
		}
		e.ledgerClean()
	})
}
