package check_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/gateway/payout"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/money/ledger/check"
	"paygate/core/money/transfer"
	"paygate/core/platform/store/storetest"
	"paygate/core/resale/settlement"
)

// transfersOf is a fixed list of transfers.
type transfersOf []transfer.Transfer

func (ts transfersOf) ForEach(_ context.Context, fn func(transfer.Transfer) error) error {
	for _, t := range ts {
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
}

func TestCheckResellersMoney(t *testing.T) {
	hour := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	one, three := uint64(1), uint64(3)
	type world struct {
		transfers transfersOf
		entries   []ledger.Entry
		hits      []hitlog.Hit
		settle    []settlement.Settlement
		balances  map[uint64]string
		payouts   []payout.Payout
	}
	// Reseller 1 sends 5.00 to customer 2 (transfer 7), takes 1.00 back
	// (transfer 8); its hour's commission 0.75 is settled (settlement 3).
	e := func(id, user uint64, typ ledger.Type, amount, before, after, ref string, refID uint64) ledger.Entry {
		return ledger.Entry{ID: id, UserID: user, TxnID: "T" + string(rune('A'+id)), Type: typ, Amount: dec(amount), BalanceBefore: dec(before),
			BalanceAfter: dec(after), ReferenceType: ref, ReferenceID: &refID}
	}
	clean := func() world {
		return world{
			transfers: transfersOf{{ID: 7, ResellerID: 1, CustomerID: 2, Direction: "to_customer", Amount: dec("5.00")},
				{ID: 8, ResellerID: 1, CustomerID: 2, Direction: "from_customer", Amount: dec("1.00")}},
			entries: []ledger.Entry{
				e(1, 1, ledger.Credit, "10.00", "0.00", "10.00", ledger.RefAdjustment, 0),
				e(2, 1, ledger.Debit, "5.00", "10.00", "5.00", "transfer", 7),
				e(3, 2, ledger.Credit, "5.00", "0.00", "5.00", "transfer", 7),
				e(4, 2, ledger.Debit, "1.00", "5.00", "4.00", "transfer", 8),
				e(5, 1, ledger.Credit, "1.00", "5.00", "6.00", "transfer", 8),
				e(6, 1, ledger.Credit, "0.75", "6.00", "6.75", settlement.RefCommission, 3),
			},
			hits: []hitlog.Hit{
				{ID: 50, UserID: 2, RequestID: "h1", Status: hitlog.StatusSuccess, ResellerID: &one, Commission: dec("0.25"), CreatedAt: hour,
					CommissionSettlementID: &three},
				{ID: 51, UserID: 2, RequestID: "h2", Status: hitlog.StatusSuccess, ResellerID: &one, Commission: dec("0.50"), CreatedAt: hour.Add(59 * time.Minute),
					CommissionSettlementID: &three},
				{ID: 52, UserID: 2, RequestID: "h3", Status: hitlog.StatusFailed, ResellerID: &one, Commission: dec("0"), CreatedAt: hour.Add(time.Minute)},
				{ID: 53, UserID: 2, RequestID: "h4", Status: hitlog.StatusSuccess, ResellerID: &one, Commission: dec("9"), CreatedAt: hour.Add(time.Hour)},
			},
			settle:   []settlement.Settlement{{ID: 3, ResellerID: 1, HourStart: hour, Hits: 2, Amount: dec("0.75")}},
			balances: map[uint64]string{1: "6.75", 2: "4.00"},
		}
	}
	// refundedFee: customer 2's call h2 (hit 51) charged 0.50 as the fee
	// of payout 9, which failed; the amount and the fee came back.
	refundedFee := func(w *world) {
		w.hits[1].ChargeAmount = dec("0.50")
		w.payouts = append(w.payouts, payout.Payout{ID: 9, PublicID: "po_fail", UserID: 2, RequestID: "h2", Amount: dec("1.00"), Fee: dec("0.50"),
			Status: payout.StatusFailed, CreatedAt: hour})
		w.entries = append(w.entries,
			e(9, 2, ledger.Debit, "0.50", "4.00", "3.50", ledger.RefAPIHit, 51),
			e(10, 2, ledger.Debit, "1.00", "3.50", "2.50", ledger.RefPayout, 9),
			e(11, 2, ledger.Refund, "1.00", "2.50", "3.50", ledger.RefPayout, 9),
			e(12, 2, ledger.Refund, "0.50", "3.50", "4.00", ledger.RefPayoutFee, 9))
	}
	cases := []struct {
		name   string
		change func(w *world)
		want   []string
	}{
		// Issue 43 (1), exactly: the fee of a failed payout was refunded
		// after its hour was settled; the call kept its commission and no
		// reversal was booked.
		{"the issue's case: a refunded fee's commission kept", refundedFee,
			[]string{"payout po_fail's fee was refunded, but its call h2 still earns its reseller 0.5000 of commission"}},
		{"a refunded fee's commission cancelled, its reversal due", func(w *world) {
			refundedFee(w)
			w.hits[1].Commission = dec("0")
			w.settle[0].Reversed = dec("0.50")
		}, nil},
		{"clean", func(*world) {}, nil},
		{"a transfer's credit missing", func(w *world) { w.entries[2].ReferenceType = ledger.RefAdjustment },
			[]string{"transfer 7: no credit of 5.00 on user 2"}},
		{"a transfer credited the wrong side", func(w *world) { w.entries[4].UserID = 2 }, []string{"transfer 8: unexpected credit of 1.00 on user 2"}},
		{"a transfer's amounts differ", func(w *world) { w.transfers[0].Amount = dec("6.00") }, []string{"transfer 7: debit on user 1 is 5.00, not 6.00", "transfer 7: credit on user 2 is 5.00, not 6.00"}},
		{"an entry of a transfer that does not exist", func(w *world) { w.transfers = w.transfers[:1] }, []string{"reference transfer id 8, which does not exist"}},
		{"a settlement its hits do not add up to", func(w *world) { w.hits[1].Commission = dec("0.40") },
			[]string{"settlement 3: of 2026-11-27T09:00:00Z credits 0.75; its hits billed and not refunded earned 0.6500, reversals 0.0000"}},
		{"a refunded call's commission", func(w *world) {
			w.hits[2].Commission, w.hits[2].Status, w.hits[2].CommissionSettlementID = dec("0.10"), hitlog.StatusSuccess, &three
		}, []string{"earned 0.8500"}},
		// Issue 43 (1): the call's charge was refunded after its hour was
		// settled (its commission cancelled), and no reversal was booked.
		{"a refund after settlement, no reversal", func(w *world) { w.hits[1].Commission = dec("0") },
			[]string{"settlement 3: of 2026-11-27T09:00:00Z credits 0.75; its hits billed and not refunded earned 0.2500, reversals 0.0000"}},
		{"a refund after settlement, reversed and taken back", func(w *world) {
			w.hits[1].Commission = dec("0")
			w.settle[0].Reversed, w.settle[0].ReversalTaken = dec("0.50"), dec("0.50")
			w.entries = append(w.entries, e(7, 1, ledger.Debit, "0.50", "6.75", "6.25", settlement.RefCommission, 3))
			w.balances[1] = "6.25"
		}, nil},
		{"a refund after settlement, reversal carried forward", func(w *world) {
			w.hits[1].Commission = dec("0")
			w.settle[0].Reversed, w.settle[0].ReversalTaken = dec("0.50"), dec("0.20")
			w.entries = append(w.entries, e(7, 1, ledger.Debit, "0.20", "6.75", "6.55", settlement.RefCommission, 3))
			w.balances[1] = "6.55"
		}, nil},
		{"a reversal recorded taken but never debited", func(w *world) {
			w.hits[1].Commission = dec("0")
			w.settle[0].Reversed, w.settle[0].ReversalTaken = dec("0.50"), dec("0.50")
		}, []string{"commission settlement 3: records 0.50 of reversals taken back, its 0 debits total 0.00"}},
		{"a reversal debited twice", func(w *world) {
			w.hits[1].Commission = dec("0")
			w.settle[0].Reversed, w.settle[0].ReversalTaken = dec("0.50"), dec("0.50")
			w.entries = append(w.entries, e(7, 1, ledger.Debit, "0.50", "6.75", "6.25", settlement.RefCommission, 3),
				e(8, 1, ledger.Debit, "0.50", "6.25", "5.75", settlement.RefCommission, 3))
			w.balances[1] = "5.75"
		}, []string{"records 0.50 of reversals taken back, its 2 debits total 1.00"}},
		{"more taken back than reversed", func(w *world) {
			w.settle[0].ReversalTaken = dec("0.10")
			w.entries = append(w.entries, e(7, 1, ledger.Debit, "0.10", "6.75", "6.65", settlement.RefCommission, 3))
			w.balances[1] = "6.65"
		}, []string{"took back 0.10, more than its reversals of 0.0000"}},
		{"a settlement credited twice", func(w *world) {
			w.entries = append(w.entries, e(7, 1, ledger.Credit, "0.75", "6.75", "7.50", settlement.RefCommission, 3))
			w.balances[1] = "7.50"
		}, []string{"commission settlement 3: unexpected credit of 0.75 on user 1"}},
		{"a settlement never credited", func(w *world) { w.entries = w.entries[:5]; w.balances[1] = "6.00" }, []string{"commission settlement 3: no credit of 0.75 on user 1"}},
		{"a commission credit without a settlement", func(w *world) { w.settle = nil }, []string{"reference commission settlement id 3, which does not exist"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := clean()
			c.change(&w)
			db := storetest.New()
			for id, b := range w.balances {
				db.Put(user.User{ID: id, Balance: dec(b)})
			}
			for _, x := range w.entries {
				db.Put(x)
			}
			for _, h := range w.hits {
				db.Put(h)
			}
			for _, s := range w.settle {
				if err := db.Stores().Commissions.Insert(context.Background(), &s); err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range w.payouts {
				db.Put(p)
			}
			st := check.StoresOf(db.Stores())
			st.Transfers = w.transfers
			ds, err := check.New(check.Deps{Stores: st}).Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ds {
				if strings.Contains(d.What, "transfer") || strings.Contains(d.What, "commission") || strings.Contains(d.What, "settlement") ||
					strings.Contains(d.What, "payout") || strings.Contains(d.What, "h2") {
					got = append(got, d.String())
				}
			}
			if len(c.want) == 0 && len(got) > 0 {
				t.Fatalf("clean books reported: %v", got)
			}
			for _, want := range c.want {
				found := false
				for _, g := range got {
					found = found || strings.Contains(g, want)
				}
				if !found {
					t.Errorf("missing %q in %v", want, got)
				}
			}
		})
	}
}
