package check_test

import (
	"context"
	"strings"
	"testing"

	"paygate/core/accounts/user"
	"paygate/core/gateway/payment"
	"paygate/core/money/ledger"
	"paygate/core/money/ledger/check"
	"paygate/core/platform/store/storetest"
)

// TestCheckLedgerPayments: every successful payment credited its user once
// with its amount and debited its recorded fee once; no other payment moved
// money. Each case is one user's books; want is the discrepancies expected.
func TestCheckLedgerPayments(t *testing.T) {
	ref := func(id uint64) *uint64 { return &id }
	credit := func(id uint64, amount string) ledger.Entry {
		return ledger.Entry{Type: ledger.Credit, Amount: dec(amount), ReferenceType: ledger.RefPayment, ReferenceID: ref(id)}
	}
	fee := func(id uint64, amount string) ledger.Entry {
		return ledger.Entry{Type: ledger.Debit, Amount: dec(amount), ReferenceType: ledger.RefPaymentFee, ReferenceID: ref(id)}
	}
	pay := func(id uint64, st payment.Status, amount, fee string, purpose payment.Purpose) payment.Payment {
		return payment.Payment{ID: id, PublicID: "pay_" + string(rune('A'+id)), UserID: 1, Amount: dec(amount), Fee: dec(fee), Status: st, Purpose: purpose}
	}
	for _, c := range []struct {
		name     string
		payments []payment.Payment
		entries  []ledger.Entry
		want     []string
	}{
		{"credit and fee", []payment.Payment{pay(1, payment.StatusSuccess, "100", "2.50", payment.PurposeCollection)},
			[]ledger.Entry{credit(1, "100"), fee(1, "2.50")}, nil},
		{"no fee", []payment.Payment{pay(1, payment.StatusSuccess, "100", "0", payment.PurposeCollection),
			pay(2, payment.StatusSuccess, "50", "0", payment.PurposeBalance), pay(3, payment.StatusFailed, "9", "0", "")},
			[]ledger.Entry{credit(1, "100"), credit(2, "50")}, nil},
		{"credited twice", []payment.Payment{pay(1, payment.StatusSuccess, "100", "0", payment.PurposeCollection)},
			[]ledger.Entry{credit(1, "100"), credit(1, "100")}, []string{"has 2 credits"}},
		{"never credited", []payment.Payment{pay(1, payment.StatusSuccess, "100", "0", payment.PurposeCollection)},
			nil, []string{"has 0 credits"}},
		{"wrong amount", []payment.Payment{pay(1, payment.StatusSuccess, "100", "0", payment.PurposeCollection)},
			[]ledger.Entry{credit(1, "10")}, []string{"totalling 10.00"}},
		{"fee missing", []payment.Payment{pay(1, payment.StatusSuccess, "100", "1.00", payment.PurposeCollection)},
			[]ledger.Entry{credit(1, "100")}, []string{"has 0 fee debits"}},
		{"fee on a balance payment", []payment.Payment{pay(1, payment.StatusSuccess, "100", "1.00", payment.PurposeBalance)},
			[]ledger.Entry{credit(1, "100"), fee(1, "1.00")}, []string{"balance payment"}},
		{"expired but credited", []payment.Payment{pay(1, payment.StatusExpired, "100", "0", payment.PurposeCollection)},
			[]ledger.Entry{credit(1, "100")}, []string{"expired payment"}},
		{"unknown payment", nil, []ledger.Entry{credit(9, "100")}, []string{"payment id 9 that is not this user's"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := storetest.New()
			bal := dec("0")
			for i, e := range c.entries {
				e.ID, e.UserID, e.TxnID, e.BalanceBefore = uint64(i+1), 1, "TXN"+string(rune('a'+i)), bal
				e.BalanceAfter, _ = ledger.Apply(bal, e.Type, e.Amount)
				bal = e.BalanceAfter
				db.Put(e)
			}
			db.Put(user.User{ID: 1, Balance: bal})
			for _, p := range c.payments {
				db.Put(p)
			}
			ds, err := check.New(check.Deps{Stores: check.StoresOf(db.Stores())}).Check(context.Background())
			if err != nil || len(ds) != len(c.want) {
				t.Fatalf("discrepancies %v, err %v; want %v", ds, err, c.want)
			}
			for _, w := range c.want {
				if !strings.Contains(ds[0].What, w) {
					t.Errorf("want %q in %v", w, ds)
				}
			}
		})
	}
}
