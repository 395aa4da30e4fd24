package httpapi_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/metering/hitlog"
)

// Every answered call is charged, also right after a credit made outside
// the metering path (issue: calls on holds were served free after one).
// An Enterprise user (calls run on holds) is drained by calls; then, three
// rounds in a row, the balance is credited (by an admin adjustment, a
// balance-request approval or a checkout payment), 300 calls are fired at
// once, the captures are awaited, and the money charged must be exactly the
// answered calls × the price; the ledger check, which sees a successful hit
// charged less than it was admitted for, must stay clean.
func TestEveryAnsweredCallIsChargedAfterACredit(t *testing.T) {
	const calls, rounds = 300, 3
	price := decimal.RequireFromString("0.50")
	credits := []struct {
		name   string
		amount string
		credit func(e *env, c customer, amount string)
	}{
		{"admin adjustment", "100.00", func(e *env, c customer, amount string) {
			e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
				map[string]any{"type": "credit", "amount": amount, "description": "credit"}), 201)
		}},
		{"balance request", "100.00", func(e *env, c customer, amount string) {
			id := e.must(e.upload(c.token, map[string]string{"amount": amount, "utr_number": newUTR()}), 201).num("id")
			e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", id), e.admin, nil), 200)
		}},
		{"checkout payment", "100.00", func(e *env, c customer, amount string) {
			id := e.must(e.do("POST", "/api/v1/panel/balance/checkout", c.token, map[string]any{"amount": amount}), 201).str("payment_id")
			e.payByCheckout(id)
		}},
	}
	each(t, func(t *testing.T, e *env) {
		e.newService("charged", price.StringFixed(4))
		for _, cr := range credits {
			t.Run(cr.name, func(t *testing.T) {
				c := e.newCustomer("user", "enterprise", "2.00")
				// Drained by calls: the writer's last view of the row is a
				// balance of 0.00.
				if codes := hammer(8, func() int { return e.call(c, "charged", map[string]any{}).status }); codes[200] != 4 || codes[402] != 4 {
					t.Fatalf("draining: statuses %v", codes)
				}
				e.settled()
				if b := e.balance(c); b != "0.00" {
					t.Fatalf("balance after draining %s", b)
				}
				answered := int64(4)
				for round := 1; round <= rounds; round++ {
					before := decimal.RequireFromString(e.balance(c))
					cr.credit(e, c, cr.amount)
					codes := hammer(calls, func() int { return e.call(c, "charged", map[string]any{}).status })
					e.settled()
					after := decimal.RequireFromString(e.balance(c))
					charged := before.Add(decimal.RequireFromString(cr.amount)).Sub(after)
					ok := int64(codes[200])
					answered += ok
					if want := price.Mul(decimal.NewFromInt(ok)); !charged.Equal(want) || codes[200]+codes[402] != calls {
						t.Fatalf("round %d: statuses %v; charged %s for %d answered calls, want %s (balance %s → %s)",
							round, codes, charged.StringFixed(2), ok, want.StringFixed(2), before.StringFixed(2), after.StringFixed(2))
					}
					if ok != 200 {
						t.Fatalf("round %d: %d calls answered, want the 200 that %s pays for (statuses %v)", round, ok, cr.amount, codes)
					}
				}
				if got := total(e.must(e.do("GET", "/api/v1/panel/hit-logs?status=success", c.token, nil), 200)); got != answered {
					t.Fatalf("%d successful hits for %d answered calls", got, answered)
				}
				e.ledgerClean()
			})
		}
	})
}

// settled waits until the charges of the calls answered so far are written.
func (e *env) settled() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.app.Metering.AwaitSettlements(ctx); err != nil {
		e.t.Fatal(err)
	}
}

// Each call's hit records the charge it was admitted for, on holds and the
// per-call way; the ledger check reports a successful hit charged less
// than that, unless the hit records why it was not charged.
func TestLedgerCheckSeesCallsServedFree(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		svc := e.newService("admitted", "0.5000")
		ctx := context.Background()
		hits := e.store.Stores().Hits
		for _, plan := range []string{"enterprise", "starter"} { // on a hold; the per-call way
			c := e.newCustomer("user", plan, "5.00")
			id := e.must(e.call(c, "admitted", map[string]any{}), 200).str("request_id")
			e.settled()
			h, err := hits.ByRequestID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if h.Admitted == nil || !h.Admitted.Equal(decimal.RequireFromString("0.50")) || !h.ChargeAmount.Equal(*h.Admitted) || h.Uncharged != "" {
				t.Fatalf("%s: hit admitted %v, charged %s, uncharged %q", plan, h.Admitted, h.ChargeAmount, h.Uncharged)
			}
		}
		e.ledgerClean()

		c := e.newCustomer("user", "enterprise", "0.00")
		half := decimal.RequireFromString("0.50")
		plant := func(requestID, uncharged string) {
			h := &hitlog.Hit{UserID: c.id, ServiceID: svc, APIKeyID: c.keyID, RequestID: requestID, RequestPayload: "{}",
				Status: hitlog.StatusSuccess, ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero,
				Admitted: &half, Uncharged: uncharged, CreatedAt: time.Now().UTC()}
			if err := hits.Insert(ctx, h); err != nil {
				t.Fatal(err)
			}
		}
		plant("req_released", hitlog.UnchargedHoldReleased)
		e.ledgerClean() // a call recovery left uncharged, with its reason
		plant("req_free", "")
		ds, err := e.app.Ledger.Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("user %d: successful hit req_free was admitted at 0.5000 but charged 0.0000", c.id)
		if len(ds) != 1 || ds[0].String() != want {
			t.Fatalf("discrepancies %v, want [%s]", ds, want)
		}
	})
}
