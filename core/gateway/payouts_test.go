package gateway_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/events/webhook"
	"paygate/core/gateway"
	"paygate/core/gateway/payout"
	payoutmocks "paygate/core/gateway/payout/mocks"
	"paygate/core/metering"
	"paygate/core/money/ledger"
	"paygate/core/money/ledger/check"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"
)

// poFixture is a payout's world: user 11 with 1,000.00, a daily payout
// limit of 2,000.00 and a webhook; payout-transfer priced 5.00; a mocked
// payout provider.
type poFixture struct {
	*fixture
	provider *payoutmocks.MockProvider
}

func newPayoutFixture(t *testing.T) *poFixture {
	f := &poFixture{fixture: &fixture{db: storetest.New(), now: time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC)},
		provider: payoutmocks.NewMockProvider(t)}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app, f.meter = wire(t, f.db, gateway.Deps{Now: func() time.Time { return f.now },
		Config: gateway.Config{Location: loc}, Payouts: f.provider}, loc)
	var k string
	k, f.secret = apikey.NewCredentials()
	f.key = &apikey.Key{ID: 3, UserID: 11, Key: k, SecretHash: apikey.HashSecret(f.secret), Status: apikey.StatusActive, DailyLimit: 1000}
	hook := "https://shop.example/hooks"
	f.db.Put(*f.key, user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter,
		Balance: dec("1000.00"), DailyPayoutLimit: dec("2000.00"), WebhookURL: &hook},
		catalog.Service{ID: 24, Slug: gateway.SlugPayoutTransfer, Status: catalog.StatusActive, Builtin: true},
		pricing.Price{ServiceID: 24, UserPrice: dec("5.00"), Status: pricing.StatusActive},
		ledger.Entry{UserID: 11, Type: ledger.Credit, Amount: dec("1000"), BalanceBefore: dec("0"), BalanceAfter: dec("1000.00")})
	return f
}

func bankRequest(ref, amount, account string) payout.Request {
	return payout.Request{Beneficiary: payout.Beneficiary{Type: "bank_account", Name: "Asha Traders", AccountNumber: account,
		IFSC: "hdfc0001234"}, Amount: amount, ReferenceID: ref}
}

func (f *poFixture) transfer(req payout.Request) (*gateway.PayoutResult, error) {
	return f.app.Transfer(context.Background(), gateway.PayoutInput{RequestID: "req_" + req.ReferenceID,
		Creds: metering.Credentials{Secret: f.secret}, Request: req})
}

func (f *poFixture) payoutRow(t *testing.T, id uint64) payout.Payout {
	t.Helper()
	for _, p := range f.db.Payouts() {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no payout %d", id)
	return payout.Payout{}
}

// ledgerClean fails the test when the ledger check finds anything.
func (f *poFixture) ledgerClean(t *testing.T) {
	t.Helper()
	ds, err := check.New(check.Deps{Stores: check.StoresOf(f.db.Stores()), Now: func() time.Time { return f.now }}).Check(context.Background())
	if err != nil || len(ds) > 0 {
		t.Fatalf("ledger check: %v %+v", err, ds)
	}
}

func (f *poFixture) eventTypes() []webhook.EventType {
	var out []webhook.EventType
	for _, e := range f.db.Events() {
		out = append(out, e.Type)
	}
	return out
}

// TestTransferDebitsAmountAndFeeBeforeAsking: the fee (the call's charge)
// and the amount are debited before the provider sees the payout, which it
// accepts: processing, first check 3 s on, live (the provider does not say
// it is a sandbox), account number masked in the hit log.
func TestTransferDebitsAmountAndFeeBeforeAsking(t *testing.T) {
	f := newPayoutFixture(t)
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, p payout.Payout) (payout.Outcome, error) {
		providerDeadline(t, ctx)
		if u := f.stored(); !u.Balance.Equal(dec("895.00")) {
			t.Errorf("balance when the provider is asked: %s", u.Balance)
		}
		if p.Beneficiary.AccountNumber != "123456789012" || p.Beneficiary.IFSC != "HDFC0001234" || p.Mode != payout.ModeIMPS {
			t.Errorf("provider got %+v", p)
		}
		return payout.Outcome{Status: payout.StatusProcessing}, nil
	}).Once()
	res, err := f.transfer(bankRequest("po-1", "100", "123456789012"))
	if err != nil {
		t.Fatal(err)
	}
	p := f.payoutRow(t, res.Payout.ID)
	if p.Status != payout.StatusProcessing || !p.Fee.Equal(dec("5")) || p.SubmittedAt == nil || p.NextCheckAt == nil ||
		!p.NextCheckAt.Equal(f.now.Add(payout.FirstCheck)) || !p.Livemode || !strings.HasPrefix(p.PublicID, "pout_") {
		t.Fatalf("payout %+v", p)
	}
	if !res.Charged.Equal(dec("5")) || !res.BalanceLeft.Equal(dec("895.00")) {
		t.Fatalf("charge %+v", res.Charge)
	}
	var amountDebits int
	for _, e := range f.entries(ledger.Debit) {
		if e.ReferenceType == ledger.RefPayout && e.Amount.Equal(dec("100")) && *e.ReferenceID == p.ID {
			amountDebits++
		}
	}
	if amountDebits != 1 || len(f.entries(ledger.Debit)) != 2 {
		t.Fatalf("debits %+v", f.entries(ledger.Debit))
	}
	if h := f.hitOf(t, "req_po-1"); strings.Contains(h.RequestPayload, "123456789012") || !strings.Contains(h.RequestPayload, "XXXXXXXX9012") {
		t.Fatalf("hit payload %s", h.RequestPayload)
	}
	f.ledgerClean(t)
}

// TestTransferShortOfAmountPlusFeeIsRefused: 996.00 + 5.00 fee is more
// than 1,000.00: 402, no payout, no money moved, the provider never asked.
func TestTransferShortOfAmountPlusFeeIsRefused(t *testing.T) {
	f := newPayoutFixture(t)
	_, err := f.transfer(bankRequest("po-1", "996", "123456789012"))
	if !errors.Is(err, ledger.ErrInsufficientBalance) {
		t.Fatalf("err %v", err)
	}
	if len(f.db.Payouts()) != 0 || len(f.db.Entries()) != 1 || !f.stored().Balance.Equal(dec("1000.00")) {
		t.Fatalf("payouts %+v ledger %+v", f.db.Payouts(), f.db.Entries())
	}
}

// TestTransferDailyLimitCountsTodaysLivePayouts: the limit (2,000.00)
// counts pending, processing and successful payouts of the local day, not
// failed ones nor yesterday's; a payout past it is 422 and changes nothing.
func TestTransferDailyLimitCountsTodaysLivePayouts(t *testing.T) {
	f := newPayoutFixture(t)
	f.db.Put(user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter,
		Balance: dec("5000.00"), DailyPayoutLimit: dec("2000.00")})
	// 18:45 UTC is 00:15 in Kolkata: 18:20 UTC was yesterday there.
	yesterday := f.now.Add(-25 * time.Minute)
	f.db.Put(
		payout.Payout{ID: 1, UserID: 11, ReferenceID: "old", Amount: dec("1500"), Status: payout.StatusSuccess, CreatedAt: yesterday},
		payout.Payout{ID: 2, UserID: 11, ReferenceID: "a", Amount: dec("900"), Status: payout.StatusProcessing, CreatedAt: f.now},
		payout.Payout{ID: 3, UserID: 11, ReferenceID: "b", Amount: dec("1000"), Status: payout.StatusFailed, CreatedAt: f.now},
		payout.Payout{ID: 4, UserID: 11, ReferenceID: "c", Amount: dec("600"), Status: payout.StatusSuccess, CreatedAt: f.now},
	)
	_, err := f.transfer(bankRequest("po-2", "500.01", "123456789012"))
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != "daily_payout_limit_exceeded" || len(e.Fields["amount"]) != 1 ||
		!strings.Contains(e.Fields["amount"][0], "500.00") {
		t.Fatalf("err %#v", err)
	}
	if len(f.db.Payouts()) != 4 || len(f.db.Entries()) != 1 {
		t.Fatalf("payouts %d ledger %+v", len(f.db.Payouts()), f.db.Entries())
	}
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusProcessing}, nil).Once()
	if _, err := f.transfer(bankRequest("po-3", "500.00", "123456789012")); err != nil {
		t.Fatalf("exactly the rest of the limit: %v", err)
	}
}

// TestTransferRetryAnswersTheSamePayout: the same reference_id and request
// is answered from the first payout, unbilled; another request with it is
// 409 and changes nothing.
func TestTransferRetryAnswersTheSamePayout(t *testing.T) {
	f := newPayoutFixture(t)
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusProcessing}, nil).Once()
	first, err := f.transfer(bankRequest("po-1", "100", "123456789012"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.transfer(bankRequest("po-1", "100.00", "123456789012"))
	if err != nil || !again.Replayed || again.Payout.PublicID != first.Payout.PublicID || !again.Charged.IsZero() {
		t.Fatalf("retry %+v %v", again, err)
	}
	if _, err := f.transfer(bankRequest("po-1", "101", "123456789012")); !errors.Is(err, payout.ErrReferenceReused) {
		t.Fatalf("other request: %v", err)
	}
	if len(f.db.Payouts()) != 1 || len(f.entries(ledger.Debit)) != 2 || !f.stored().Balance.Equal(dec("895.00")) {
		t.Fatalf("payouts %d debits %+v", len(f.db.Payouts()), f.entries(ledger.Debit))
	}
	f.ledgerClean(t)
}

// TestCheckPayoutsFailureRefundsAmountAndFeeOnce: a failure found by the
// worker gives back the amount and the fee, emits payout.failed, and ends
// the row's checks; a second round and a late duplicate answer change
// nothing.
func TestCheckPayoutsFailureRefundsAmountAndFeeOnce(t *testing.T) {
	f := newPayoutFixture(t)
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusProcessing}, nil).Once()
	res, err := f.transfer(bankRequest("po-1", "100", "123456780000"))
	if err != nil {
		t.Fatal(err)
	}
	f.provider.EXPECT().Check(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusFailed, Reason: "Account closed"}, nil).Once()
	f.now = f.now.Add(payout.FirstCheck)
	if n, err := f.app.CheckPayouts(context.Background(), 10); n != 1 || err != nil {
		t.Fatalf("round: %d %v", n, err)
	}
	p := f.payoutRow(t, res.Payout.ID)
	if p.Status != payout.StatusFailed || p.NextCheckAt != nil || p.ProcessedAt == nil || p.FailReason == nil || *p.FailReason != "Account closed" {
		t.Fatalf("payout %+v", p)
	}
	if !f.stored().Balance.Equal(dec("1000.00")) {
		t.Fatalf("balance %s", f.stored().Balance)
	}
	refunds := map[string]string{}
	for _, e := range f.entries(ledger.Refund) {
		refunds[e.ReferenceType] = e.Amount.StringFixed(2)
	}
	if len(f.entries(ledger.Refund)) != 2 || refunds[ledger.RefPayout] != "100.00" || refunds[ledger.RefPayoutFee] != "5.00" {
		t.Fatalf("refunds %+v", f.entries(ledger.Refund))
	}
	f.now = f.now.Add(time.Hour)
	if n, err := f.app.CheckPayouts(context.Background(), 10); n != 0 || err != nil {
		t.Fatalf("second round: %d %v", n, err)
	}
	if ts := f.eventTypes(); len(ts) != 1 || ts[0] != webhook.PayoutFailed {
		t.Fatalf("events %v", ts)
	}
	f.ledgerClean(t)
}

// TestCheckPayoutsSuccessThenReversal: a success records the UTR and is
// still watched; the reversal gives back the amount (not the fee) once,
// with payout.success then payout.reversed.
func TestCheckPayoutsSuccessThenReversal(t *testing.T) {
	f := newPayoutFixture(t)
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusProcessing}, nil).Once()
	res, err := f.transfer(bankRequest("po-1", "100", "123456789999"))
	if err != nil {
		t.Fatal(err)
	}
	f.provider.EXPECT().Check(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusSuccess, UTR: "123456789012"}, nil).Once()
	f.now = f.now.Add(payout.FirstCheck)
	if n, _ := f.app.CheckPayouts(context.Background(), 10); n != 1 {
		t.Fatalf("success round moved %d", n)
	}
	p := f.payoutRow(t, res.Payout.ID)
	if p.Status != payout.StatusSuccess || p.UTR == nil || *p.UTR != "123456789012" || p.NextCheckAt == nil {
		t.Fatalf("payout %+v", p)
	}
	f.ledgerClean(t)
	f.provider.EXPECT().Check(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusReversed}, nil).Once()
	f.now = f.now.Add(time.Minute)
	if n, _ := f.app.CheckPayouts(context.Background(), 10); n != 1 {
		t.Fatalf("reversal round moved %d", n)
	}
	p = f.payoutRow(t, res.Payout.ID)
	if p.Status != payout.StatusReversed || p.ReversedAt == nil || p.NextCheckAt != nil {
		t.Fatalf("payout %+v", p)
	}
	if !f.stored().Balance.Equal(dec("995.00")) {
		t.Fatalf("balance %s, want the fee kept", f.stored().Balance)
	}
	if ts := f.eventTypes(); len(ts) != 2 || ts[0] != webhook.PayoutSuccess || ts[1] != webhook.PayoutReversed {
		t.Fatalf("events %v", ts)
	}
	f.ledgerClean(t)
}

// TestUnansweredPayoutIsSubmittedAgainAfterTheGrace: no answer leaves the
// payout pending and unsubmitted; the worker leaves it to the request
// during the grace, then submits it again with the same reference.
func TestUnansweredPayoutIsSubmittedAgainAfterTheGrace(t *testing.T) {
	f := newPayoutFixture(t)
	var refs []string
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, p payout.Payout) (payout.Outcome, error) {
		refs = append(refs, p.ProviderReference())
		if len(refs) == 1 {
			return payout.Outcome{}, context.DeadlineExceeded
		}
		return payout.Outcome{Status: payout.StatusProcessing}, nil
	}).Twice()
	res, err := f.transfer(bankRequest("po-1", "100", "123456789012"))
	if err != nil || res.Payout.Status != payout.StatusPending || res.Payout.SubmittedAt != nil {
		t.Fatalf("%+v %v", res, err)
	}
	f.now = f.now.Add(payout.SubmitGrace(15*time.Second) - time.Second)
	if n, _ := f.app.CheckPayouts(context.Background(), 10); n != 0 || len(refs) != 1 {
		t.Fatalf("submitted during the grace: %v", refs)
	}
	f.now = f.now.Add(time.Second)
	if n, err := f.app.CheckPayouts(context.Background(), 10); n != 1 || err != nil {
		t.Fatalf("round %d %v", n, err)
	}
	if p := f.payoutRow(t, res.Payout.ID); p.Status != payout.StatusProcessing || p.Attempts != 1 || len(refs) != 2 || refs[0] != refs[1] {
		t.Fatalf("payout %+v refs %v", p, refs)
	}
	f.ledgerClean(t)
}

// TestCheckPayoutsTwoWorkersMoveOnce: two rounds over the same due payout
// at once: one claims it, so one refund.
func TestCheckPayoutsTwoWorkersMoveOnce(t *testing.T) {
	f := newPayoutFixture(t)
	sub := f.now.Add(-time.Minute)
	f.db.Put(payout.Payout{ID: 9, PublicID: payout.NewPublicID(), UserID: 11, ReferenceID: "r", Amount: dec("100"), Fee: dec("0"),
		Beneficiary: payout.Beneficiary{Type: "vpa", Name: "A", VPA: "fail@upi"}, Mode: payout.ModeUPI, Status: payout.StatusProcessing,
		CreatedAt: sub, SubmittedAt: &sub, NextCheckAt: &sub},
		ledger.Entry{UserID: 11, Type: ledger.Debit, Amount: dec("100"), BalanceBefore: dec("1100.00"), BalanceAfter: dec("1000.00"),
			ReferenceType: ledger.RefPayout, ReferenceID: ptr(uint64(9))})
	f.provider.EXPECT().Check(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusFailed}, nil).Maybe()
	done := make(chan int, 2)
	for range 2 {
		go func() {
			n, _ := f.app.CheckPayouts(context.Background(), 10)
			done <- n
		}()
	}
	if a, b := <-done, <-done; a+b != 1 {
		t.Fatalf("moved %d + %d", a, b)
	}
	if rs := f.entries(ledger.Refund); len(rs) != 1 || !rs[0].Amount.Equal(dec("100")) {
		t.Fatalf("refunds %+v", rs)
	}
}

func ptr[T any](v T) *T { return &v }

// TestRefusedAtSubmitGivesAmountAndFeeBack: a provider that refuses the
// payout at once: the answer says failed, and once the call is settled
// the amount and the fee come back, once.
func TestRefusedAtSubmitGivesAmountAndFeeBack(t *testing.T) {
	f := newPayoutFixture(t)
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusFailed, Reason: "IFSC not found"}, nil).Once()
	res, err := f.transfer(bankRequest("po-1", "100", "123456789012"))
	if err != nil || res.Payout.Status != payout.StatusFailed || !res.BalanceLeft.Equal(dec("1000.00")) || !res.Charged.Equal(dec("5")) {
		t.Fatalf("%+v %v", res, err)
	}
	if h := f.hitOf(t, "req_po-1"); h.Status != "success" || !strings.Contains(*h.ResponsePayload, `"failed"`) {
		t.Fatalf("hit %+v", h)
	}
	if ts := f.eventTypes(); len(ts) != 1 || ts[0] != webhook.PayoutFailed {
		t.Fatalf("events %v", ts)
	}
	f.ledgerClean(t)
}

// TestFailureAfterRecoveryKeepsTheFeeRefundOnce: the call of a payout was
// interrupted and crash recovery refunded its charge (the fee); when the
// payout then fails, only the amount comes back. While the call is still
// unsettled the failure waits.
func TestFailureAfterRecoveryKeepsTheFeeRefundOnce(t *testing.T) {
	f := newPayoutFixture(t)
	f.provider.EXPECT().Submit(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusProcessing}, nil).Once()
	res, err := f.transfer(bankRequest("po-1", "100", "123456789012"))
	if err != nil {
		t.Fatal(err)
	}
	h := f.hitOf(t, "req_po-1")
	f.provider.EXPECT().Check(mock.Anything, mock.Anything).Return(payout.Outcome{Status: payout.StatusFailed}, nil).Twice()

	// As if the call were still running (or interrupted, not yet recovered).
	h.Status = "pending"
	f.db.Put(h)
	f.now = f.now.Add(payout.FirstCheck)
	if n, err := f.app.CheckPayouts(context.Background(), 10); n != 0 || err != nil {
		t.Fatalf("moved while the call is unsettled: %d %v", n, err)
	}
	if p := f.payoutRow(t, res.Payout.ID); p.Status != payout.StatusProcessing {
		t.Fatalf("payout %+v", p)
	}

	// Recovery refunded the fee: the call failed with a refund.
	h.Status, h.ChargeAmount = "failed", dec("0")
	u := f.stored()
	f.db.Put(h, ledger.Entry{UserID: 11, Type: ledger.Refund, Amount: dec("5"), BalanceBefore: u.Balance, BalanceAfter: u.Balance.Add(dec("5")),
		ReferenceType: ledger.RefAPIHit, ReferenceID: ptr(h.ID)})
	u.Balance = u.Balance.Add(dec("5"))
	f.db.Put(u)
	f.now = f.now.Add(time.Hour)
	if n, err := f.app.CheckPayouts(context.Background(), 10); n != 1 || err != nil {
		t.Fatalf("round %d %v", n, err)
	}
	if rs := f.entries(ledger.Refund); len(rs) != 2 || !f.stored().Balance.Equal(dec("1000.00")) {
		t.Fatalf("refunds %+v balance %s", rs, f.stored().Balance)
	}
	f.ledgerClean(t)
}

// TestLedgerCheckFindsPayoutProblems: a failed payout without its refunds
// and a payout processing for over a day are reported.
func TestLedgerCheckFindsPayoutProblems(t *testing.T) {
	f := newPayoutFixture(t)
	old := f.now.Add(-25 * time.Hour)
	f.db.Put(user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive, Balance: dec("800.00")},
		payout.Payout{ID: 1, PublicID: "pout_A", UserID: 11, ReferenceID: "a", Amount: dec("100"), Fee: dec("5"), Status: payout.StatusFailed, CreatedAt: f.now},
		payout.Payout{ID: 2, PublicID: "pout_B", UserID: 11, ReferenceID: "b", Amount: dec("100"), Status: payout.StatusProcessing, CreatedAt: old},
		ledger.Entry{UserID: 11, Type: ledger.Debit, Amount: dec("100"), BalanceBefore: dec("1000"), BalanceAfter: dec("900"),
			ReferenceType: ledger.RefPayout, ReferenceID: ptr(uint64(1))},
		ledger.Entry{UserID: 11, Type: ledger.Debit, Amount: dec("100"), BalanceBefore: dec("900"), BalanceAfter: dec("800"),
			ReferenceType: ledger.RefPayout, ReferenceID: ptr(uint64(2))})
	ds, err := check.New(check.Deps{Stores: check.StoresOf(f.db.Stores()), Now: func() time.Time { return f.now }}).Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, d := range ds {
		text = append(text, d.What)
	}
	all := strings.Join(text, "\n")
	if len(ds) != 2 || !strings.Contains(all, "failed payout pout_A has 0 refunds of its amount") || !strings.Contains(all, "payout pout_B is still processing") {
		t.Fatalf("discrepancies:\n%s", all)
	}
}
