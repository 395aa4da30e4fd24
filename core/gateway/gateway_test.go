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
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/recharge"
	rechargemocks "paygate/core/gateway/recharge/mocks"
	"paygate/core/gateway/verification"
	verificationmocks "paygate/core/gateway/verification/mocks"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"
)

// gwFixture is a gateway call's world: an in-memory store with the three
// built-in services (account-verify priced 1.00, the others 0.00), one key,
// one user with 10.00; the providers are mocks.
type gwFixture struct {
	*fixture
	verifier  *verificationmocks.MockProvider
	recharger *rechargemocks.MockProvider
}

func newGatewayFixture(t *testing.T) *gwFixture {
	return newGatewayFixtureWith(t, gateway.Config{PublicBaseURL: "https://pay.example/"})
}

func newGatewayFixtureWith(t *testing.T, cfg gateway.Config) *gwFixture {
	f := &gwFixture{
		fixture:  &fixture{db: storetest.New(), now: time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC)},
		verifier: verificationmocks.NewMockProvider(t), recharger: rechargemocks.NewMockProvider(t),
	}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app, f.meter = wire(t, f.db, gateway.Deps{Now: func() time.Time { return f.now },
		Config: cfg, Verifier: f.verifier, Recharger: f.recharger}, loc)

	var k string
	k, f.secret = apikey.NewCredentials()
	f.key = &apikey.Key{ID: 3, UserID: 11, Key: k, SecretHash: apikey.HashSecret(f.secret), Status: apikey.StatusActive, DailyLimit: 1000}
	f.db.Put(*f.key, user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter, Balance: dec("10.00")})
	for id, slug := range map[uint64]string{21: gateway.SlugPaymentCreate, 22: gateway.SlugAccountVerify, 23: gateway.SlugRechargeMobile} {
		price := "0.00"
		if slug == gateway.SlugAccountVerify {
			price = "1.00"
		}
		f.db.Put(catalog.Service{ID: id, Slug: slug, Status: catalog.StatusActive, Builtin: true},
			pricing.Price{ServiceID: id, UserPrice: dec(price), Status: pricing.StatusActive})
	}
	return f
}

// hitOf is the stored hit of request id.
func (f *fixture) hitOf(t *testing.T, requestID string) hitlog.Hit {
	t.Helper()
	for _, h := range f.db.Hits() {
		if h.RequestID == requestID {
			return h
		}
	}
	t.Fatalf("no hit of %s in %+v", requestID, f.db.Hits())
	return hitlog.Hit{}
}

// entries are the ledger rows of type typ.
func (f *fixture) entries(typ ledger.Type) []ledger.Entry {
	var out []ledger.Entry
	for _, e := range f.db.Entries() {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestVerifyAccountBillsAndStoresOnlyTheMask(t *testing.T) {
	f := newGatewayFixture(t)
	f.verifier.EXPECT().Verify(mock.Anything, mock.MatchedBy(func(r verification.Request) bool { return r.Aadhaar == "234123412346" })).
		Return(verification.Result{Verified: true, NameAtSource: "Asha Rao", ReferenceID: "VRF1"}, nil).Once()

	res, err := f.app.VerifyAccount(context.Background(), gateway.VerifyInput{RequestID: "req_V", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IP: "203.0.113.9",
		Request: verification.Request{Type: verification.Aadhaar, Aadhaar: "2341 2341 2346"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verified || res.NameAtSource != "Asha Rao" || res.Masked != "XXXXXXXX2346" || !res.Charged.Equal(dec("1.00")) || !res.BalanceLeft.Equal(dec("9.00")) {
		t.Fatalf("%+v", res)
	}
	h := f.hitOf(t, "req_V")
	if h.Status != hitlog.StatusSuccess || !h.ChargeAmount.Equal(dec("1.00")) || !h.Reserved.Equal(dec("1.00")) || h.ServiceID != 22 ||
		strings.Contains(h.RequestPayload, "23412341") || !strings.Contains(h.RequestPayload, "XXXXXXXX2346") ||
		h.ResponsePayload == nil || strings.Contains(*h.ResponsePayload, "2341234") {
		t.Fatalf("hit %+v", h)
	}
	es := f.db.Entries()
	if len(es) != 1 || es[0].Type != ledger.Debit || !es[0].Amount.Equal(dec("1.00")) || es[0].ReferenceType != ledger.RefAPIHit || *es[0].ReferenceID != h.ID {
		t.Fatalf("ledger %+v", es)
	}
	vs := f.db.Verifications()
	if len(vs) != 1 || vs[0].Masked != "XXXXXXXX2346" || !vs[0].Verified || vs[0].RequestID != "req_V" || vs[0].APIKeyID != 3 {
		t.Fatalf("verifications %+v", vs)
	}
}

func TestVerifyAccountOutageRefunds(t *testing.T) {
	f := newGatewayFixture(t)
	f.verifier.EXPECT().Verify(mock.Anything, mock.Anything).Return(verification.Result{}, errors.New("timeout")).Once()

	_, err := f.app.VerifyAccount(context.Background(), gateway.VerifyInput{RequestID: "req_V", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: verification.Request{Type: verification.UPI, VPA: "asha@okaxis"}})
	if !errors.Is(err, gateway.ErrProviderUnavailable) || errs.KindOf(err) != errs.Unavailable {
		t.Fatalf("err %v", err)
	}
	h := f.hitOf(t, "req_V")
	if h.Status != hitlog.StatusFailed || !h.ChargeAmount.IsZero() || !h.Reserved.Equal(dec("1.00")) ||
		h.ResponsePayload == nil || !strings.Contains(*h.ResponsePayload, "provider_unavailable") {
		t.Fatalf("hit %+v", h)
	}
	if d, r := f.entries(ledger.Debit), f.entries(ledger.Refund); len(d) != 1 || len(r) != 1 ||
		!r[0].Amount.Equal(dec("1.00")) || !r[0].BalanceAfter.Equal(dec("10.00")) {
		t.Fatalf("ledger %+v", f.db.Entries())
	}
	if u := f.stored(); !u.Balance.Equal(dec("10.00")) || u.PlanCalls != 0 {
		t.Fatalf("user after refund %+v", u)
	}
	if vs := f.db.Verifications(); len(vs) != 0 {
		t.Fatalf("verifications %+v", vs)
	}
}

// TestCreatePaymentZeroChargeWritesNoLedgerRow: payment-create costs 0.00,
// so no ledger row is written.
func TestCreatePaymentZeroChargeWritesNoLedgerRow(t *testing.T) {
	f := newGatewayFixture(t)
	res, err := f.app.CreatePayment(context.Background(), gateway.PaymentInput{RequestID: "req_P", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Create: payment.Create{Amount: "499.50", Currency: "INR", CustomerID: "c", CallbackURL: "https://shop.example/cb"}})
	if err != nil {
		t.Fatal(err)
	}
	if u := f.stored(); res.URL != "https://pay.example/"+res.Payment.PublicID || !res.Charged.IsZero() || u.PlanCalls != 1 {
		t.Fatalf("%+v, user %+v", res, u)
	}
	ps := f.db.Payments()
	if len(ps) != 1 || ps[0].UserID != 11 || ps[0].APIKeyID != 3 || !ps[0].Amount.Equal(dec("499.5")) || ps[0].Status != payment.StatusCreated ||
		ps[0].PublicID != res.Payment.PublicID {
		t.Fatalf("payments %+v", ps)
	}
	if h := f.hitOf(t, "req_P"); h.Status != hitlog.StatusSuccess || !h.ChargeAmount.IsZero() || !h.Reserved.IsZero() {
		t.Fatalf("hit %+v", h)
	}
	if es := f.db.Entries(); len(es) != 0 {
		t.Fatalf("ledger %+v, want none", es)
	}
}

// TestCreatePaymentConcurrentDuplicate: the key was claimed by a concurrent
// duplicate between the first look and the claim; the call answers the
// first payment, unbilled, and its own payment is rolled back with the tx.
func TestCreatePaymentConcurrentDuplicate(t *testing.T) {
	f := newGatewayFixture(t)
	create := payment.Create{Amount: "10", Currency: "INR", CustomerID: "c", CallbackURL: "https://shop.example/cb"}
	var first *gateway.PaymentCreated
	var raced bool
	f.db.OnCall("WithinTx", func() error {
		if raced {
			return nil
		}
		raced = true // the duplicate runs whole between this call's look and its claim
		var err error
		first, err = f.app.CreatePayment(context.Background(), gateway.PaymentInput{RequestID: "req_DUP", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IdempotencyKey: "k-1", Create: create})
		if err != nil {
			t.Errorf("the duplicate: %v", err)
		}
		return nil
	})

	res, err := f.app.CreatePayment(context.Background(), gateway.PaymentInput{RequestID: "req_P", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IdempotencyKey: "k-1", Create: create})
	if err != nil {
		t.Fatal(err)
	}
	if first == nil || first.Replayed || !res.Replayed || res.Payment.PublicID != first.Payment.PublicID {
		t.Fatalf("%+v, first %+v", res, first)
	}
	if ps := f.db.Payments(); len(ps) != 1 || ps[0].PublicID != first.Payment.PublicID {
		t.Fatalf("payments %+v, want the first alone", ps)
	}
	h := f.hitOf(t, "req_P")
	if h.Status != hitlog.StatusSuccess || !h.ChargeAmount.IsZero() || h.ResponsePayload == nil || *h.ResponsePayload != `{"replayed":true}` {
		t.Fatalf("hit %+v", h)
	}
}

func TestCreatePaymentKeyReusedForAnotherBody(t *testing.T) {
	f := newGatewayFixture(t)
	in := gateway.PaymentInput{RequestID: "req_FIRST", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IdempotencyKey: "k-1",
		Create: payment.Create{Amount: "11", Currency: "INR", CustomerID: "c", CallbackURL: "https://shop.example/cb"}}
	if _, err := f.app.CreatePayment(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	in.RequestID, in.Create.Amount = "req_P", "10"
	_, err := f.app.CreatePayment(context.Background(), in)
	if !errors.Is(err, payment.ErrIdempotencyReused) {
		t.Fatalf("err %v", err)
	}
	if h := f.hitOf(t, "req_P"); h.Status != hitlog.StatusFailed || h.ResponsePayload == nil || !strings.Contains(*h.ResponsePayload, "idempotency_key_reused") {
		t.Fatalf("hit %+v", h)
	}
	if ps := f.db.Payments(); len(ps) != 1 {
		t.Fatalf("payments %+v, want the first alone", ps)
	}
}

func TestRechargeDebitsAmountAndRefundsImmediateFailureOnce(t *testing.T) {
	f := newGatewayFixture(t)
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).Return(recharge.Outcome{Status: recharge.StatusFailed, Reason: "Invalid mobile number"}, nil).Once()

	res, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876540000", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if u := f.stored(); res.Recharge.Status != recharge.StatusFailed || !res.BalanceLeft.Equal(dec("10.00")) || !u.Balance.Equal(dec("10.00")) {
		t.Fatalf("%+v user %+v", res, u)
	}
	rs := f.db.Recharges()
	if len(rs) != 1 || rs[0].Status != recharge.StatusFailed || rs[0].FailReason == nil || *rs[0].FailReason != "Invalid mobile number" {
		t.Fatalf("recharges %+v", rs)
	}
	id := rs[0].ID
	d, r := f.entries(ledger.Debit), f.entries(ledger.Refund)
	if len(d) != 1 || !d[0].Amount.Equal(dec("10.00")) || d[0].ReferenceType != ledger.RefRecharge || *d[0].ReferenceID != id || !d[0].BalanceAfter.IsZero() {
		t.Fatalf("debits %+v", d)
	}
	if len(r) != 1 || !r[0].Amount.Equal(dec("10.00")) || r[0].ReferenceType != ledger.RefRecharge || !r[0].BalanceAfter.Equal(dec("10.00")) {
		t.Fatalf("refunds %+v", r)
	}
	if h := f.hitOf(t, "req_R"); h.Status != hitlog.StatusSuccess {
		t.Fatalf("hit %+v", h)
	}
}

func TestRechargeOverBalanceIsRefusedWithoutDebit(t *testing.T) {
	f := newGatewayFixture(t)
	_, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10.01", ReferenceID: "r-1"}})
	if !errors.Is(err, ledger.ErrInsufficientBalance) {
		t.Fatalf("err %v", err)
	}
	if h := f.hitOf(t, "req_R"); h.Status != hitlog.StatusInsufficientBalance {
		t.Fatalf("hit %+v", h)
	}
	if rs, es := f.db.Recharges(), f.db.Entries(); len(rs) != 0 || len(es) != 0 || !f.stored().Balance.Equal(dec("10.00")) {
		t.Fatalf("recharges %+v, ledger %+v: want none", rs, es)
	}
}

// TestCheckRechargesLosingTheRaceRefundsNothing: another instance finished
// the recharge first (the conditional update matched no row), so this one
// posts no refund.
func TestCheckRechargesLosingTheRaceRefundsNothing(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-time.Minute)
	r := recharge.Recharge{ID: 7, UserID: 11, ReferenceID: "r-1", Mobile: "9876543217", Amount: dec("17"), Status: recharge.StatusPending,
		SubmittedAt: &sub, NextCheckAt: sub}
	f.db.Put(r)
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).RunAndReturn(func(context.Context, recharge.Recharge) (recharge.Outcome, error) {
		done := r // the other instance finishes it meanwhile
		done.Status = recharge.StatusFailed
		f.db.Put(done)
		return recharge.Outcome{Status: recharge.StatusFailed}, nil
	}).Once()

	n, err := f.app.CheckRecharges(context.Background(), 100)
	if err != nil || n != 0 {
		t.Fatalf("n %d err %v", n, err)
	}
	if es := f.db.Entries(); len(es) != 0 || !f.stored().Balance.Equal(dec("10.00")) {
		t.Fatalf("ledger %+v, balance %s: want no refund", es, f.stored().Balance)
	}
}

func TestRechargeReferenceReusedForAnotherRequest(t *testing.T) {
	f := newGatewayFixture(t)
	f.db.Put(recharge.Recharge{ID: 7, UserID: 11, ReferenceID: "r-1", Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: dec("20"),
		Status: recharge.StatusSuccess})
	_, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if !errors.Is(err, recharge.ErrReferenceReused) || errs.KindOf(err) != errs.Conflict {
		t.Fatalf("err %v", err)
	}
	if h := f.hitOf(t, "req_R"); h.Status != hitlog.StatusFailed {
		t.Fatalf("hit %+v", h)
	}
	if rs, es := f.db.Recharges(), f.db.Entries(); len(rs) != 1 || len(es) != 0 {
		t.Fatalf("recharges %+v, ledger %+v", rs, es)
	}
}

func TestGatewayBuiltinsAreNotServiceCalls(t *testing.T) {
	f := newGatewayFixture(t)
	_, _, err := f.meter.CallService(context.Background(), metering.CallInput{Slug: gateway.SlugAccountVerify, Method: "POST", Key: f.key.Key, Secret: f.secret})
	if !errors.Is(err, catalog.ErrServiceNotFound) {
		t.Fatalf("err %v", err)
	}
}
