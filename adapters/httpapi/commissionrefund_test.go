package httpapi_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// payoutServiceID is the payout-transfer service's id, read from r's
// selling-price list.
func (e *env) payoutServiceID(r customer) uint64 {
	e.t.Helper()
	for _, x := range e.must(e.do("GET", "/api/v1/panel/customer-prices", r.token, nil), 200).body["data"].([]any) {
		if row := x.(map[string]any); row["slug"] == "payout-transfer" {
			return uint64(row["service_id"].(float64))
		}
	}
	e.t.Fatal("the payout service is not listed")
	return 0
}

// settleCommissions runs the settlement as the CLI does, over every hour
// closed before two hours from now (the current hour included).
func (e *env) settleCommissions() {
	e.t.Helper()
	if _, err := e.app.Commissions.SettleBefore(context.Background(), time.Now().Add(2*time.Hour)); err != nil {
		e.t.Fatal(err)
	}
}

// commissionRows are r's settlements as GET /commissions shows them.
func (e *env) commissionRows(r customer) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	for _, x := range e.must(e.do("GET", "/api/v1/panel/commissions", r.token, nil), 200).body["data"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// Issue 43 (1), the repro: a reseller sells payout-transfer at 50,000.00
// (its own cost 5.00) and funds its customer with 50,010.00; the
// customer's ₹1.00 payout to an account ending 0000 fails and the amount
// and the fee come back. The fee's commission must not be credited: the
// reseller ends with nothing, the customer with 50,010.00, and no money
// is made. In the second variant the hour was settled before the payout
// failed: the next settlement takes the 49,995.00 back (a commission
// debit). In the third the reseller has moved the commission on before
// the refund: the reversal is carried forward, shown, and taken once the
// reseller has money again. The ledger check is clean throughout.
func TestRefundedFeeEarnsNoCommission(t *testing.T) {
	for _, variant := range []string{"refund then settle", "settle then refund", "reversal carried forward"} {
		t.Run(variant, func(t *testing.T) {
			each(t, func(t *testing.T, e *env) {
				r := e.newCustomer("reseller", "starter", "50010.00")
				cust := e.resellersCustomer(r, "0.00")
				transfers := fmt.Sprintf(panelAPI+"/customers/%d/transfers", cust.id)
				e.must(e.do("PUT", fmt.Sprintf(panelAPI+"/customer-prices/%d", e.payoutServiceID(r)), r.token, map[string]any{"price": "50000.00"}), 200)
				e.must(e.do("POST", transfers, r.token, map[string]any{"amount": "50010.00", "direction": "to_customer"}), 201)
				p := e.must(e.gw(cust, "POST", "/api/v1/payout/transfer", bankPayout("fail-1", "1.00", "123456780000")), 200)
				if c := p.str("charged"); c != "50000.0000" {
					t.Fatalf("payout: %s", p.raw)
				}
				e.settled()
				if variant != "refund then settle" {
					e.settleCommissions()
					if b := e.balance(r); b != "49995.00" {
						t.Fatalf("reseller's balance after the first settlement %s", b)
					}
					e.ledgerClean()
				}
				if variant == "reversal carried forward" {
					// The reseller moves its commission on before the refund.
					e.must(e.do("POST", transfers, r.token, map[string]any{"amount": "49995.00", "direction": "to_customer"}), 201)
				}
				e.payoutRounds(10 * time.Second)
				if s := e.payoutStatus(cust, "reference_id=fail-1")["status"]; s != "failed" {
					t.Fatalf("payout %v", s)
				}
				e.settleCommissions()
				e.ledgerClean()
				rb, cb := e.balance(r), e.balance(cust)
				if variant == "reversal carried forward" {
					// Nothing to take: the reversal waits, shown on the settlement.
					if rb != "0.00" || cb != "100005.00" {
						t.Fatalf("balances before the carried reversal is taken: reseller %s, customer %s", rb, cb)
					}
					rows := e.commissionRows(r)
					if len(rows) != 1 || rows[0]["reversed"] != "49995.00" || rows[0]["reversal_taken"] != "0.00" || rows[0]["reversal_due"] != "49995.00" {
						t.Fatalf("commissions %v", rows)
					}
					e.must(e.do("POST", transfers, r.token, map[string]any{"amount": "60000.00", "direction": "from_customer"}), 201)
					e.settleCommissions()
					e.ledgerClean()
					rb, cb = e.balance(r), e.balance(cust)
				}
				// 50,010.00 went in; 50,010.00 is held between them.
				total := decimal.RequireFromString(rb).Add(decimal.RequireFromString(cb))
				if !total.Equal(decimal.RequireFromString("50010.00")) {
					t.Fatalf("money made: reseller %s + customer %s = %s, 50010.00 went in", rb, cb, total)
				}
				if variant == "refund then settle" && (rb != "0.00" || cb != "50010.00") {
					t.Fatalf("reseller %s, customer %s; want 0.00 and 50010.00", rb, cb)
				}
				// The reseller's dashboard: nothing settled, net; nothing accrued.
				totals := e.must(e.do("GET", panelAPI+"/reseller/dashboard", r.token, nil), 200).body["totals"].(map[string]any)
				if totals["commission_settled"] != "0.00" || decimal.RequireFromString(totals["commission_accrued"].(string)).Sign() != 0 {
					t.Errorf("dashboard totals %v", totals)
				}
				for _, row := range e.commissionRows(r) {
					net := decimal.RequireFromString(row["amount"].(string))
					if rv, ok := row["reversal_taken"].(string); ok {
						net = net.Sub(decimal.RequireFromString(rv))
					}
					if !net.IsZero() || row["reversal_due"] != "0.00" {
						t.Errorf("net commission of a refunded fee: %v", row)
					}
				}
			})
		})
	}
}
