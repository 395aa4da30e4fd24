package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"paygate/core/billing/issuing"
	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
)

// linesBySAC maps an invoice's line descriptions to their SAC.
func linesBySAC(doc map[string]any) map[string]string {
	out := map[string]string{}
	for _, l := range doc["lines"].([]any) {
		m := l.(map[string]any)
		out[m["description"].(string)] = m["sac"].(string)
	}
	return out
}

// TestServiceSACOnInvoiceLines: the built-in services that move money
// carry 997158 and the others none (the supplier's default); an admin sets
// a service's SAC in its record (a wrong one is 422 and changes nothing);
// the month's draft and its issued invoice carry each service's SAC on its
// line, 997158 on the payout's and on the collection fees' (which no
// service bills), and the supplier's default on a service without one.
func TestServiceSACOnInvoiceLines(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		if err := e.store.Stores().TaxProfiles.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited",
			Address: "Mumbai", State: "27", GSTIN: "27AAPFU0939F1ZV", InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		builtins := map[string]any{"payment-create": "997158", "recharge-mobile": "997158", "payout-transfer": "997158",
			"account-verify": nil, "account-open": nil}
		for _, s := range e.must(e.do("GET", "/api/v1/panel/services?category=gateway&per_page=100", e.admin, nil), 200).body["data"].([]any) {
			m := s.(map[string]any)
			want, ok := builtins[m["slug"].(string)]
			if !ok {
				continue
			}
			if m["sac_code"] != want {
				t.Errorf("built-in %s: sac_code %v, want %v", m["slug"], m["sac_code"], want)
			}
			delete(builtins, m["slug"].(string))
		}
		if len(builtins) != 0 {
			t.Fatalf("built-in services not listed: %v", builtins)
		}

		maps := e.newService("maps", "1.18")
		sms := e.newService("sms", "0.59")
		if r := e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/services/%d", maps), e.admin, map[string]any{"sac_code": "998314"}), 200); r.str("sac_code") != "998314" {
			t.Fatalf("set SAC: %s", r.raw)
		}
		for _, bad := range []string{"12345", "848319", "9983140"} {
			r := e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/services/%d", sms), e.admin, map[string]any{"sac_code": bad}), 422)
			if r.body["errors"].(map[string]any)["sac_code"] == nil {
				t.Fatalf("SAC %q: %s", bad, r.raw)
			}
		}
		if r := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d", sms), e.admin, nil), 200); r.body["sac_code"] != nil {
			t.Fatalf("a refused SAC was kept: %s", r.raw)
		}

		c := e.newCustomer("user", "enterprise", "100.00")
		e.must(e.call(c, "maps", map[string]any{}), 200)
		e.must(e.call(c, "sms", map[string]any{}), 200)
		e.must(e.gw(c, "POST", "/api/v1/payout/transfer", bankPayout("sac-1", "10", "123456781234")), 200)
		e.must(e.setFee(c, "2.00"), 200)
		e.payByCheckout(e.newPayment(c, "50.00")) // a collection fee of 1.00

		want := map[string]string{"Service maps": "998314", "Service sms": "998319", "Payout (money transfer)": "997158", "Collection fees": "997158"}
		draft := e.must(e.do("GET", "/api/v1/panel/invoices/upcoming", c.token, nil), 200)
		if got := linesBySAC(draft.body); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("draft lines' SAC %v, want %v\n%s", got, want, draft.raw)
		}
		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); err != nil || res.Invoices != 1 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		list := e.must(e.do("GET", "/api/v1/panel/invoices", c.token, nil), 200).body["data"].([]any)
		inv := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/invoices/%d", uint64(list[0].(map[string]any)["id"].(float64))), c.token, nil), 200)
		if got := linesBySAC(inv.body); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("invoice lines' SAC %v, want %v\n%s", got, want, inv.raw)
		}
		e.ledgerClean()
	})
}

// TestIssuedMonthHasNoDraft: a month issued for an account has no draft:
// 204 with no body, for its owner and for an admin reading it, so the
// Invoices page shows no "This month so far" card of a closed month. Here
// the month is closed early (its run at an instant after its end, as
// `invoices issue --allow-future` would) while a reseller without a
// billing record holds its customer's invoice back: the platform's
// customer, issued, has no draft; the held customer still has one (its
// month is open for it) until the reseller saves its record and the
// month is issued and finished.
func TestIssuedMonthHasNoDraft(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		if err := e.store.Stores().TaxProfiles.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited",
			Address: "Mumbai", State: "27", GSTIN: "27AAPFU0939F1ZV", InvoicePrefix: "PG", SAC: "998319"}); err != nil {
			t.Fatal(err)
		}
		svc := e.newService("echo", "1.18")
		c := e.newCustomer("user", "enterprise", "100.00")
		r := e.newCustomer("reseller", "enterprise", "10.00")
		rc := e.resellersCustomer(r, "20.00")
		e.must(e.do("PUT", fmt.Sprintf(panelAPI+"/customer-prices/%d", svc), r.token, map[string]any{"price": "2.00"}), 200)
		e.must(e.call(c, "echo", map[string]any{}), 200)
		e.must(e.call(rc, "echo", map[string]any{}), 200)
		e.settled()
		upcoming := func(token string, userID uint64) resp {
			q := ""
			if userID != 0 {
				q = fmt.Sprintf("?user_id=%d", userID)
			}
			return e.do("GET", "/api/v1/panel/invoices/upcoming"+q, token, nil)
		}
		none := func(r resp, who string) {
			t.Helper()
			if r.status != 204 || r.raw != "" {
				t.Fatalf("%s: the draft of an issued month: %d %q", who, r.status, r.raw)
			}
		}
		for _, tok := range []string{c.token, rc.token} {
			if d := e.must(upcoming(tok, 0), 200); len(d.body["lines"].([]any)) != 1 {
				t.Fatalf("the draft before the month is issued: %s", d.raw)
			}
		}

		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		if _, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); !errors.Is(err, issuing.ErrResellerBillingMissing) {
			t.Fatalf("issue with a reseller's record missing: %v", err)
		}
		if l := e.must(e.do("GET", "/api/v1/panel/invoices", c.token, nil), 200).body["data"].([]any); len(l) != 1 {
			t.Fatalf("the platform's customer was not invoiced: %v", l)
		}
		none(upcoming(c.token, 0), "the owner")
		none(upcoming(e.admin, c.id), "the admin")
		if d := e.must(upcoming(rc.token, 0), 200); len(d.body["lines"].([]any)) != 1 {
			t.Fatalf("the held customer's draft: %s", d.raw)
		}

		e.must(e.do("PUT", "/api/v1/panel/settings/billing", r.token, resellerBilling), 200)
		if res, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); err != nil || res.Invoices != 2 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		none(upcoming(rc.token, 0), "the reseller's customer")
		none(upcoming(r.token, 0), "the reseller")
		none(upcoming(e.admin, rc.id), "the admin")
		e.ledgerClean()
	})
}
