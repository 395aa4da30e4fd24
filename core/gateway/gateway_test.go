package gateway_test

import (
	"context"
	"errors"
	"paygate/core/gateway"
	"paygate/core/metering"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/apikey"
	apikeymocks "paygate/core/apikey/mocks"
	"paygate/core/catalog"
	catalogmocks "paygate/core/catalog/mocks"
	"paygate/core/errs"
	"paygate/core/hitlog"
	hitmocks "paygate/core/hitlog/mocks"
	"paygate/core/ledger"
	ledgermocks "paygate/core/ledger/mocks"
	"paygate/core/payment"
	paymentmocks "paygate/core/payment/mocks"
	"paygate/core/pricing"
	pricingmocks "paygate/core/pricing/mocks"
	"paygate/core/recharge"
	rechargemocks "paygate/core/recharge/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
	"paygate/core/verification"
	verificationmocks "paygate/core/verification/mocks"
)

// gwFixture is a gateway call's world made of mocks: the three built-in
// services (account-verify priced 1.00, the others 0.00), one key, one user
// with 10.00.
type gwFixture struct {
	*fixture
	payments  *paymentmocks.MockRepository
	idem      *paymentmocks.MockIdempotencyKeys
	recharges *rechargemocks.MockRepository
	verifs    *verificationmocks.MockRepository
	verifier  *verificationmocks.MockProvider
	recharger *rechargemocks.MockProvider
}

func newGatewayFixture(t *testing.T) *gwFixture {
	f := &gwFixture{
		fixture: &fixture{
			tx:    storemocks.NewMockTransactor(t),
			users: usermocks.NewMockRepository(t), keys: apikeymocks.NewMockRepository(t),
			services: catalogmocks.NewMockRepository(t), prices: pricingmocks.NewMockRepository(t),
			ledger: ledgermocks.NewMockRepository(t), hits: hitmocks.NewMockRepository(t),
			now: time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC),
		},
		payments: paymentmocks.NewMockRepository(t), idem: paymentmocks.NewMockIdempotencyKeys(t),
		recharges: rechargemocks.NewMockRepository(t), verifs: verificationmocks.NewMockRepository(t),
		verifier: verificationmocks.NewMockProvider(t), recharger: rechargemocks.NewMockProvider(t),
	}
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits,
		Payments: f.payments, Idempotency: f.idem, Recharges: f.recharges, Verifications: f.verifs}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app, f.meter = wire(t, gateway.Deps{Tx: f.tx, Stores: stores, Now: func() time.Time { return f.now },
		Config: gateway.Config{PublicBaseURL: "https://pay.example/"}, Verifier: f.verifier, Recharger: f.recharger}, loc)
	f.tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()

	var k string
	k, f.secret = apikey.NewCredentials()
	f.key = &apikey.Key{ID: 3, UserID: 11, Key: k, SecretHash: apikey.HashSecret(f.secret), Status: apikey.StatusActive, DailyLimit: 1000}
	f.user = &user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive, Plan: user.PlanStarter, Balance: dec("10.00")}
	f.keys.EXPECT().ByKey(mock.Anything, k).Return(f.key, nil).Maybe()
	f.users.EXPECT().ByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Maybe()
	f.keys.EXPECT().CountHit(mock.Anything, uint64(3), mock.Anything, mock.Anything).Return(true, nil).Maybe()
	for id, slug := range map[uint64]string{21: gateway.SlugPaymentCreate, 22: gateway.SlugAccountVerify, 23: gateway.SlugRechargeMobile} {
		f.services.EXPECT().BySlug(mock.Anything, slug).Return(&catalog.Service{ID: id, Slug: slug, Status: catalog.StatusActive, Builtin: true}, nil).Maybe()
		price := "0.00"
		if slug == gateway.SlugAccountVerify {
			price = "1.00"
		}
		f.prices.EXPECT().Applicable(mock.Anything, id, uint64(11)).Return(&pricing.Price{UserPrice: dec(price), Status: pricing.StatusActive}, nil).Maybe()
	}
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Maybe()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, u *user.User) error {
		*f.user = *u
		return nil
	}).Maybe()
	return f
}

// expectPendingHit expects the reservation's pending hit with its reserve.
func (f *gwFixture) expectPendingHit(reserved string) {
	f.hits.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusPending && h.Reserved.Equal(dec(reserved))
	})).RunAndReturn(func(_ context.Context, h *hitlog.Hit) error { h.ID = 99; return nil }).Once()
}

func TestVerifyAccountBillsAndStoresOnlyTheMask(t *testing.T) {
	f := newGatewayFixture(t)
	f.hits.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusPending && h.Reserved.Equal(dec("1.00")) && h.ServiceID == 22 &&
			!strings.Contains(h.RequestPayload, "23412341") && strings.Contains(h.RequestPayload, "XXXXXXXX2346")
	})).RunAndReturn(func(_ context.Context, h *hitlog.Hit) error { h.ID = 99; return nil }).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool {
		return e.Type == ledger.Debit && e.Amount.Equal(dec("1.00")) && e.ReferenceType == ledger.RefAPIHit && *e.ReferenceID == 99
	})).Return(nil).Once()
	f.verifier.EXPECT().Verify(mock.Anything, mock.MatchedBy(func(r verification.Request) bool { return r.Aadhaar == "234123412346" })).
		Return(verification.Result{Verified: true, NameAtSource: "Asha Rao", ReferenceID: "VRF1"}, nil).Once()
	f.verifs.EXPECT().Create(mock.Anything, mock.MatchedBy(func(r *verification.Record) bool {
		return r.Masked == "XXXXXXXX2346" && r.Verified && r.RequestID == "req_V" && r.APIKeyID == 3
	})).Return(nil).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusSuccess && h.ChargeAmount.Equal(dec("1.00")) && !strings.Contains(*h.ResponsePayload, "2341234")
	})).Return(nil).Once()

	res, err := f.app.VerifyAccount(context.Background(), gateway.VerifyInput{RequestID: "req_V", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IP: "203.0.113.9",
		Request: verification.Request{Type: verification.Aadhaar, Aadhaar: "2341 2341 2346"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Verified || res.NameAtSource != "Asha Rao" || res.Masked != "XXXXXXXX2346" || !res.Charged.Equal(dec("1.00")) || !res.BalanceLeft.Equal(dec("9.00")) {
		t.Fatalf("%+v", res)
	}
}

func TestVerifyAccountOutageRefunds(t *testing.T) {
	f := newGatewayFixture(t)
	f.expectPendingHit("1.00")
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool { return e.Type == ledger.Debit })).Return(nil).Once()
	f.verifier.EXPECT().Verify(mock.Anything, mock.Anything).Return(verification.Result{}, errors.New("timeout")).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool {
		return e.Type == ledger.Refund && e.Amount.Equal(dec("1.00")) && e.BalanceAfter.Equal(dec("10.00"))
	})).Return(nil).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusFailed && h.ChargeAmount.IsZero() && strings.Contains(*h.ResponsePayload, "provider_unavailable")
	})).Return(nil).Once()

	_, err := f.app.VerifyAccount(context.Background(), gateway.VerifyInput{RequestID: "req_V", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: verification.Request{Type: verification.UPI, VPA: "asha@okaxis"}})
	if !errors.Is(err, gateway.ErrProviderUnavailable) || errs.KindOf(err) != errs.Unavailable {
		t.Fatalf("err %v", err)
	}
	if !f.user.Balance.Equal(dec("10.00")) || f.user.PlanCalls != 0 {
		t.Fatalf("user after refund %+v", f.user)
	}
}

// TestCreatePaymentZeroChargeWritesNoLedgerRow: payment-create costs 0.00;
// no ledger mock call is expected, so a debit would fail the test.
func TestCreatePaymentZeroChargeWritesNoLedgerRow(t *testing.T) {
	f := newGatewayFixture(t)
	f.expectPendingHit("0")
	f.payments.EXPECT().Create(mock.Anything, mock.MatchedBy(func(p *payment.Payment) bool {
		return p.UserID == 11 && p.APIKeyID == 3 && p.Amount.Equal(dec("499.5")) && p.Status == payment.StatusCreated
	})).RunAndReturn(func(_ context.Context, p *payment.Payment) error { p.ID = 5; return nil }).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusSuccess && h.ChargeAmount.IsZero()
	})).Return(nil).Once()

	res, err := f.app.CreatePayment(context.Background(), gateway.PaymentInput{RequestID: "req_P", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Create: payment.Create{Amount: "499.50", Currency: "INR", CustomerID: "c", CallbackURL: "https://shop.example/cb"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.URL != "https://pay.example/"+res.Payment.PublicID || !res.Charged.IsZero() || f.user.PlanCalls != 1 {
		t.Fatalf("%+v, user %+v", res, f.user)
	}
}

// TestCreatePaymentConcurrentDuplicate: the key was claimed by a concurrent
// duplicate between the first look and the claim; the call answers the
// first payment, unbilled, and its own payment is rolled back with the tx.
func TestCreatePaymentConcurrentDuplicate(t *testing.T) {
	f := newGatewayFixture(t)
	first := &payment.Payment{ID: 4, PublicID: "pay_FIRST", UserID: 11, Amount: dec("10"), Status: payment.StatusCreated}
	var hash string
	f.idem.EXPECT().Find(mock.Anything, uint64(11), "k-1", mock.Anything).Return(nil, errs.ErrNotFound).Once()
	f.expectPendingHit("0")
	f.payments.EXPECT().Create(mock.Anything, mock.Anything).Return(nil).Once()
	f.idem.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, k *payment.IdempotencyKey, _ time.Time) error {
		hash = k.RequestHash
		return errs.ErrConflict
	}).Once()
	f.idem.EXPECT().Find(mock.Anything, uint64(11), "k-1", mock.Anything).RunAndReturn(func(context.Context, uint64, string, time.Time) (*payment.IdempotencyKey, error) {
		return &payment.IdempotencyKey{UserID: 11, Key: "k-1", RequestHash: hash, PaymentID: 4}, nil
	}).Once()
	f.payments.EXPECT().ByID(mock.Anything, uint64(4)).Return(first, nil).Once()
	f.hits.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusSuccess && h.ChargeAmount.IsZero() && *h.ResponsePayload == `{"replayed":true}`
	})).Return(nil).Once()

	res, err := f.app.CreatePayment(context.Background(), gateway.PaymentInput{RequestID: "req_P", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IdempotencyKey: "k-1",
		Create: payment.Create{Amount: "10", Currency: "INR", CustomerID: "c", CallbackURL: "https://shop.example/cb"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Replayed || res.Payment.PublicID != "pay_FIRST" {
		t.Fatalf("%+v", res)
	}
}

func TestCreatePaymentKeyReusedForAnotherBody(t *testing.T) {
	f := newGatewayFixture(t)
	f.idem.EXPECT().Find(mock.Anything, uint64(11), "k-1", mock.Anything).Return(&payment.IdempotencyKey{RequestHash: "other", PaymentID: 4}, nil).Once()
	f.hits.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusFailed && strings.Contains(*h.ResponsePayload, "idempotency_key_reused")
	})).Return(nil).Once()
	_, err := f.app.CreatePayment(context.Background(), gateway.PaymentInput{RequestID: "req_P", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret}, IdempotencyKey: "k-1",
		Create: payment.Create{Amount: "10", Currency: "INR", CustomerID: "c", CallbackURL: "https://shop.example/cb"}})
	if !errors.Is(err, payment.ErrIdempotencyReused) {
		t.Fatalf("err %v", err)
	}
}

func TestRechargeDebitsAmountAndRefundsImmediateFailureOnce(t *testing.T) {
	f := newGatewayFixture(t)
	f.recharges.EXPECT().ByReference(mock.Anything, uint64(11), "r-1").Return(nil, recharge.ErrNotFound).Once()
	f.expectPendingHit("0")
	f.recharges.EXPECT().Create(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, r *recharge.Recharge) error { r.ID = 7; return nil }).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool {
		return e.Type == ledger.Debit && e.Amount.Equal(dec("10.00")) && e.ReferenceType == ledger.RefRecharge && *e.ReferenceID == 7 && e.BalanceAfter.IsZero()
	})).Return(nil).Once()
	f.recharger.EXPECT().Submit(mock.Anything, mock.Anything).Return(recharge.Outcome{Status: recharge.StatusFailed, Reason: "Invalid mobile number"}, nil).Once()
	f.recharges.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(r *recharge.Recharge) bool {
		return r.ID == 7 && r.Status == recharge.StatusFailed && *r.FailReason == "Invalid mobile number"
	})).Return(true, nil).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *ledger.Entry) bool {
		return e.Type == ledger.Refund && e.Amount.Equal(dec("10.00")) && e.ReferenceType == ledger.RefRecharge && e.BalanceAfter.Equal(dec("10.00"))
	})).Return(nil).Once()
	f.hits.EXPECT().Finish(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool { return h.Status == hitlog.StatusSuccess })).Return(nil).Once()

	res, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876540000", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Recharge.Status != recharge.StatusFailed || !res.BalanceLeft.Equal(dec("10.00")) || !f.user.Balance.Equal(dec("10.00")) {
		t.Fatalf("%+v user %+v", res, f.user)
	}
}

func TestRechargeOverBalanceIsRefusedWithoutDebit(t *testing.T) {
	f := newGatewayFixture(t)
	f.recharges.EXPECT().ByReference(mock.Anything, uint64(11), "r-1").Return(nil, recharge.ErrNotFound).Once()
	f.expectPendingHit("0")
	f.hits.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool {
		return h.Status == hitlog.StatusInsufficientBalance
	})).Return(nil).Once()
	_, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10.01", ReferenceID: "r-1"}})
	if !errors.Is(err, ledger.ErrInsufficientBalance) {
		t.Fatalf("err %v", err)
	}
}

// TestCheckRechargesLosingTheRaceRefundsNothing: another instance finished
// the recharge first (the conditional update matched no row), so this one
// posts no refund.
func TestCheckRechargesLosingTheRaceRefundsNothing(t *testing.T) {
	f := newGatewayFixture(t)
	sub := f.now.Add(-time.Minute)
	r := recharge.Recharge{ID: 7, UserID: 11, ReferenceID: "r-1", Mobile: "9876543217", Amount: dec("17"), Status: recharge.StatusPending, SubmittedAt: &sub}
	f.recharges.EXPECT().Due(mock.Anything, f.now, 100).Return([]recharge.Recharge{r}, nil).Once()
	f.recharges.EXPECT().Claim(mock.Anything, mock.Anything, mock.Anything, f.now).Return(true, nil).Once()
	f.recharger.EXPECT().Check(mock.Anything, mock.Anything).Return(recharge.Outcome{Status: recharge.StatusFailed}, nil).Once()
	f.recharges.EXPECT().Finish(mock.Anything, mock.Anything).Return(false, nil).Once()
	done := r
	done.Status = recharge.StatusFailed
	f.recharges.EXPECT().ByID(mock.Anything, uint64(7)).Return(&done, nil).Once()

	n, err := f.app.CheckRecharges(context.Background(), 100)
	if err != nil || n != 0 {
		t.Fatalf("n %d err %v", n, err)
	}
}

func TestRechargeReferenceReusedForAnotherRequest(t *testing.T) {
	f := newGatewayFixture(t)
	old := &recharge.Recharge{ID: 7, UserID: 11, ReferenceID: "r-1", Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: dec("20")}
	f.recharges.EXPECT().ByReference(mock.Anything, uint64(11), "r-1").Return(old, nil).Once()
	f.hits.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(h *hitlog.Hit) bool { return h.Status == hitlog.StatusFailed })).Return(nil).Once()
	_, err := f.app.RechargeMobile(context.Background(), gateway.RechargeInput{RequestID: "req_R", Creds: metering.Credentials{Key: f.key.Key, Secret: f.secret},
		Request: recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "10", ReferenceID: "r-1"}})
	if !errors.Is(err, recharge.ErrReferenceReused) || errs.KindOf(err) != errs.Conflict {
		t.Fatalf("err %v", err)
	}
}

func TestGatewayBuiltinsAreNotServiceCalls(t *testing.T) {
	f := newGatewayFixture(t)
	_, err := f.meter.CallService(context.Background(), metering.CallInput{Slug: gateway.SlugAccountVerify, Method: "POST", Key: f.key.Key, Secret: f.secret})
	if !errors.Is(err, catalog.ErrServiceNotFound) {
		t.Fatalf("err %v", err)
	}
}
