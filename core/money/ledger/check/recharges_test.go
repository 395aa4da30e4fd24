package check_test

import (
	"context"
	"strings"
	"testing"

	"paygate/core/accounts/user"
	"paygate/core/gateway/recharge"
	"paygate/core/money/ledger"
	"paygate/core/money/ledger/check"
	"paygate/core/platform/store/storetest"
)

// TestCheckLedgerRechargesOnALiveSystem: recharge 7 failed (and was
// refunded) between the recharge read and the ledger read, and recharge 8
// was created after the recharge read. Neither is a discrepancy; the same
// ledger with recharge 7 still pending on a second read, or 8 another
// user's, is.
func TestCheckLedgerRechargesOnALiveSystem(t *testing.T) {
	rc := func(id uint64) *uint64 { return &id }
	entries := []ledger.Entry{
		{ID: 1, UserID: 1, TxnID: "TXN1", Type: ledger.Credit, Amount: dec("100"), BalanceBefore: dec("0"), BalanceAfter: dec("100"), ReferenceType: ledger.RefAdjustment},
		{ID: 2, UserID: 1, TxnID: "TXN2", Type: ledger.Debit, Amount: dec("10"), BalanceBefore: dec("100"), BalanceAfter: dec("90"), ReferenceType: ledger.RefRecharge, ReferenceID: rc(7)},
		{ID: 3, UserID: 1, TxnID: "TXN3", Type: ledger.Debit, Amount: dec("20"), BalanceBefore: dec("90"), BalanceAfter: dec("70"), ReferenceType: ledger.RefRecharge, ReferenceID: rc(8)},
		{ID: 4, UserID: 1, TxnID: "TXN4", Type: ledger.Refund, Amount: dec("10"), BalanceBefore: dec("70"), BalanceAfter: dec("80"), ReferenceType: ledger.RefRecharge, ReferenceID: rc(7)},
	}
	r7 := recharge.Recharge{ID: 7, UserID: 1, ReferenceID: "r7", Amount: dec("10"), Status: recharge.StatusPending}
	for _, c := range []struct {
		name    string
		reread7 recharge.Status
		owner8  uint64
		want    []string
	}{
		{"moved on between the reads", recharge.StatusFailed, 1, nil},
		{"real discrepancies", recharge.StatusPending, 2, []string{"pending recharge r7 has 1 refunds", "recharge id 8 that is not this user's"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := storetest.New().Put(user.User{ID: 1, Balance: dec("80")}, r7)
			for _, e := range entries {
				db.Put(e)
			}
			// Between the read of the recharges and the ledger's, r7 moves
			// on (or not) and recharge 8 arrives.
			db.OnCall("Ledger.ForEachByUser", func() error {
				if db.Calls("Recharges.ForEachByUser") == 0 {
					t.Error("ledger read before the recharges")
				}
				again := r7
				again.Status = c.reread7
				db.Put(again, recharge.Recharge{ID: 8, UserID: c.owner8, Amount: dec("20"), Status: recharge.StatusPending})
				return nil
			})
			chk := check.New(check.Deps{Stores: check.StoresOf(db.Stores())})
			ds, err := chk.Check(context.Background())
			if err != nil || len(ds) != len(c.want) {
				t.Fatalf("discrepancies %v, err %v; want %v", ds, err, c.want)
			}
			for i, w := range c.want {
				found := false
				for _, d := range ds {
					found = found || strings.Contains(d.What, w)
				}
				if !found {
					t.Errorf("want %q (#%d) in %v", w, i, ds)
				}
			}
		})
	}
}
