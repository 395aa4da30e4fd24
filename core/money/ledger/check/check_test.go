package check_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/money/ledger"
	"paygate/core/money/ledger/check"
	"paygate/core/platform/store/storetest"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func ptr[T any](v T) *T { return &v }

func entry(id uint64, t ledger.Type, amount, before, after string, hit uint64) ledger.Entry {
	e := ledger.Entry{ID: id, UserID: 1, TxnID: "TXN" + string(rune('0'+id)), Type: t, Amount: dec(amount), BalanceBefore: dec(before), BalanceAfter: dec(after), ReferenceType: ledger.RefAdjustment}
	if hit != 0 {
		e.ReferenceType, e.ReferenceID = ledger.RefAPIHit, &hit
	}
	return e
}

func TestCheckLedger(t *testing.T) {
	clean := []ledger.Entry{
		entry(1, ledger.Credit, "10.00", "0.00", "10.00", 0),
		entry(2, ledger.Debit, "1.50", "10.00", "8.50", 100),
		entry(3, ledger.Debit, "1.50", "8.50", "7.00", 101),
		entry(4, ledger.Refund, "1.50", "7.00", "8.50", 101),
	}
	cleanHits := []hitlog.Hit{
		{ID: 100, RequestID: "req_a", Status: hitlog.StatusSuccess, ChargeAmount: dec("1.50")},
		{ID: 101, RequestID: "req_b", Status: hitlog.StatusFailed, Reserved: dec("1.50")},
		{ID: 102, RequestID: "req_c", Status: hitlog.StatusInsufficientBalance},
	}
	cases := []struct {
		name    string
		balance string
		entries []ledger.Entry
		hits    []hitlog.Hit
		want    []string // substrings of the discrepancies, in any order; none = clean
	}{
		{"clean", "8.50", clean, cleanHits, nil},
		{"balance differs", "9.00", clean, cleanHits, []string{"last balance_after 8.50", "credits + refunds - debits = 8.50"}},
		{"broken chain", "8.50", []ledger.Entry{clean[0], entry(2, ledger.Debit, "1.50", "9.00", "7.50", 100), entry(3, ledger.Credit, "1.00", "7.50", "8.50", 0)}, cleanHits[:1],
			[]string{"balance_before 9.00, previous balance_after 10.00", "credits + refunds - debits"}},
		{"wrong arithmetic", "8.00", []ledger.Entry{clean[0], entry(2, ledger.Debit, "1.50", "10.00", "8.00", 100)}, []hitlog.Hit{{ID: 100, RequestID: "req_a", Status: hitlog.StatusSuccess, ChargeAmount: dec("1.50")}},
			[]string{"gives 8.50, not 8.00", "credits + refunds - debits = 8.50"}},
		{"billed hit without debit", "10.00", clean[:1], cleanHits[:1], []string{"req_a charged 1.5000 has 0 debits"}},
		{"failed hit not refunded", "7.00", clean[:3], cleanHits[:2], []string{"req_b has 1 debits (1.50) and 0 refunds"}},
		{"double debit", "7.00", []ledger.Entry{clean[0], clean[1], entry(3, ledger.Debit, "1.50", "8.50", "7.00", 100)}, cleanHits[:1], []string{"req_a charged 1.5000 has 2 debits"}},
		{"pending hit", "8.50", clean[:2], []hitlog.Hit{cleanHits[0], {ID: 103, RequestID: "req_d", Status: hitlog.StatusPending, Reserved: dec("1.00")}}, []string{"req_d is still pending"}},
		{"orphan debit", "8.50", clean[:2], nil, []string{"reference hit id 100"}},
		{"admitted and charged", "8.50", clean[:2], []hitlog.Hit{{ID: 100, RequestID: "req_a", Status: hitlog.StatusSuccess, ChargeAmount: dec("1.50"), Admitted: ptr(dec("1.50"))}}, nil},
		{"served free", "10.00", clean[:1], []hitlog.Hit{{ID: 100, RequestID: "req_free", Status: hitlog.StatusSuccess, ChargeAmount: dec("0"), Admitted: ptr(dec("1.50"))}},
			[]string{"req_free was admitted at 1.5000 but charged 0.0000"}},
		{"charged another price", "8.50", clean[:2], []hitlog.Hit{{ID: 100, RequestID: "req_a", Status: hitlog.StatusSuccess, ChargeAmount: dec("1.50"), Admitted: ptr(dec("2.00"))}},
			[]string{"req_a was admitted at 2.0000 but charged 1.5000"}},
		{"free with its reason", "10.00", clean[:1], []hitlog.Hit{{ID: 100, RequestID: "req_r", Status: hitlog.StatusSuccess, ChargeAmount: dec("0"), Admitted: ptr(dec("1.50")), Uncharged: hitlog.UnchargedHoldReleased}}, nil},
		{"reason but charged", "8.50", clean[:2], []hitlog.Hit{{ID: 100, RequestID: "req_a", Status: hitlog.StatusSuccess, ChargeAmount: dec("1.50"), Admitted: ptr(dec("1.50")), Uncharged: hitlog.UnchargedHoldReleased}},
			[]string{"req_a is marked uncharged (hold_released) but charged 1.5000"}},
		{"before admissions were recorded", "10.00", clean[:1], []hitlog.Hit{{ID: 100, RequestID: "req_old", Status: hitlog.StatusSuccess, ChargeAmount: dec("0")}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := storetest.New().Put(user.User{ID: 1, Balance: dec(c.balance)})
			for _, e := range c.entries {
				db.Put(e)
			}
			for _, h := range c.hits {
				h.UserID = 1
				db.Put(h)
			}
			chk := check.New(check.Deps{Stores: check.StoresOf(db.Stores())})
			ds, joined := checkLedger(t, chk)
			if len(c.want) == 0 && len(ds) != 0 {
				t.Fatalf("clean ledger reported:\n%s", joined)
			}
			for _, w := range c.want {
				if !strings.Contains(joined, w) {
					t.Errorf("missing %q in:\n%s", w, joined)
				}
			}
			if len(c.want) > 0 && len(ds) > len(c.want) {
				t.Errorf("more discrepancies than expected:\n%s", joined)
			}
		})
	}
}

// TestCheckLedgerHolds: the held money must be what the open holds have
// not charged, within the balance; a mismatch is read again before it is
// reported.
func TestCheckLedgerHolds(t *testing.T) {
	cases := []struct {
		name  string
		held  string
		holds []hold.Hold
		want  []string
	}{
		{"held by open holds", "4.00", []hold.Hold{
			{ID: 1, Unit: dec("1.50"), Calls: 2, UsedMoney: decimal.Zero}, {ID: 2, Unit: dec("0.50"), Calls: 4, UsedCalls: 2, UsedMoney: dec("1.00")}}, nil},
		{"held without a hold", "1.00", nil, []string{"held 1.00, open holds' unused money 0.00"}},
		{"hold charged past its calls", "0.00", []hold.Hold{{ID: 5, Unit: dec("0.50"), Calls: 2, UsedCalls: 3, UsedMoney: dec("1.50")}},
			[]string{"hold 5 charged 3 calls (1.50) of 2 (1.00)", "held 0.00, open holds' unused money -0.50"}},
		{"held over the balance", "9.00", []hold.Hold{{ID: 6, Unit: dec("1.00"), Calls: 9, UsedMoney: decimal.Zero}},
			[]string{"held 9.00 outside the balance 8.50"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := storetest.New().Put(user.User{ID: 1, Balance: dec("8.50"), HeldAmount: dec(c.held)}, entry(1, ledger.Credit, "8.50", "0.00", "8.50", 0))
			for _, h := range c.holds {
				h.UserID = 1
				db.Put(h)
			}
			reads := 1
			if len(c.want) > 0 && c.name != "held over the balance" {
				reads = 3 // a mismatch is read twice more before it is reported
			}
			chk := check.New(check.Deps{Stores: check.StoresOf(db.Stores())})
			ds, joined := checkLedger(t, chk)
			if n, m := db.Calls("Users.ByID"), db.Calls("Holds.ByUser"); n != reads || m != reads {
				t.Errorf("user read %d times, holds %d; want %d", n, m, reads)
			}
			if len(ds) != len(c.want) {
				t.Fatalf("discrepancies:\n%s\nwant %q", joined, c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(joined, w) {
					t.Errorf("missing %q in:\n%s", w, joined)
				}
			}
		})
	}
}

// checkLedger runs the ledger check and returns its discrepancies, also
// one per line.
func checkLedger(t *testing.T, chk *check.Checker) ([]check.Discrepancy, string) {
	t.Helper()
	ds, err := chk.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, d := range ds {
		all = append(all, d.String())
	}
	return ds, strings.Join(all, "\n")
}
