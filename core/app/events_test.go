package app_test

// The events use cases write to the outbox with their change; their
// delivery is tested in core/outbox.

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/app"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/payment"
	paymentmocks "paygate/core/payment/mocks"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
)

// A metered call that takes the balance below the threshold writes one
// balance.low event in its batch's transaction; the next call, below
// already, writes none (the mock fails on a second Insert).
func TestMeteredCallCrossingThresholdWritesBalanceLowOnce(t *testing.T) {
	f := newFixture(t)
	hooks := webhookmocks.NewMockRepository(t)
	stores := app.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app = app.New(app.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: app.Config{Location: loc}})
	alert, hook := dec("9.00"), "https://merchant.example/hooks"
	f.user.LowBalanceAlert, f.user.WebhookURL = &alert, &hook

	hooks.EXPECT().Insert(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, e *webhook.Event, ds []*webhook.Delivery) error {
		var body struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(e.Payload, &body); err != nil {
			t.Fatal(err)
		}
		if e.Type != webhook.BalanceLow || body.Data["balance"] != "8.77" || body.Data["threshold"] != "9.00" ||
			len(ds) != 1 || ds[0].Destination != webhook.ToWebhook || ds[0].URL != hook {
			t.Fatalf("event %s %s, deliveries %+v", e.Type, e.Payload, ds)
		}
		return nil
	}).Once()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(app.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil)
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).Return([]bool{true}, nil)
	for _, before := range []string{"10.00", "8.77"} {
		f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
			u := *f.user
			return &u, nil
		}).Once()
		f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 1, mock.Anything).Return(1, nil).Once()
		f.hits.EXPECT().InsertMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error { hs[0].ID = 99; return nil }).Once()
		f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
			return es[0].BalanceBefore.Equal(dec(before))
		})).Return(nil).Once()
		f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
		if _, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDecidedTopUpWritesItsEvent(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	hooks := webhookmocks.NewMockRepository(t)
	stores := app.Stores{Users: f.users, Ledger: f.ledger, TopUps: f.topups, Audit: f.audit, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	f.app = app.New(app.Deps{Tx: tx, Stores: stores, Now: func() time.Time { return f.now }})
	hook := "https://merchant.example/hooks"
	f.owner.WebhookURL = &hook

	f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().ByID(mock.Anything, uint64(11)).Return(f.owner, nil).Once()
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool {
		return e.Type == webhook.BalanceRequestRejected && e.UserID == 11
	}), mock.MatchedBy(func(ds []*webhook.Delivery) bool { return len(ds) == 1 && ds[0].URL == hook })).Return(nil).Once()
	if _, err := f.app.RejectTopUp(ctx, f.admin, 5, "no such transfer"); err != nil {
		t.Fatal(err)
	}

	// The outbox refusing the row rolls the decision back with it.
	f.topups.EXPECT().ByID(mock.Anything, uint64(6)).Return(f.pending(6), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(f.owner, nil).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).Return(nil).Once()
	boom := errors.New("disk full")
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool { return e.Type == webhook.BalanceRequestApproved }),
		mock.Anything).Return(boom).Once()
	if _, err := f.app.ApproveTopUp(ctx, f.admin, 6, ""); !errors.Is(err, boom) {
		t.Fatalf("approve: %v", err)
	}
}

func TestPaymentOutcomeGoesToCallbackAndWebhook(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	payments, users, hooks := paymentmocks.NewMockRepository(t), usermocks.NewMockRepository(t), webhookmocks.NewMockRepository(t)
	provider := paymentmocks.NewMockProvider(t)
	stores := app.Stores{Payments: payments, Users: users, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	a := app.New(app.Deps{Tx: tx, Stores: stores, Payments: provider, Now: func() time.Time { return now }})
	hook := "https://merchant.example/hooks"
	merchant := &user.User{ID: 11, Name: "Shop", Status: user.StatusActive, WebhookURL: &hook}
	p := payment.Payment{ID: 1, PublicID: "pay_01TESTPAYMENT0000000000000", UserID: 11, Amount: dec("10.00"), Currency: "INR",
		CallbackURL: "https://shop.example/cb", Status: payment.StatusPending, ExpiresAt: now.Add(time.Hour), CreatedAt: now}
	provider.EXPECT().Sandbox().Return(true)
	payments.EXPECT().ByPublicID(mock.Anything, p.PublicID).Return(&p, nil)
	users.EXPECT().ByID(mock.Anything, uint64(11)).Return(merchant, nil)
	payments.EXPECT().Transition(mock.Anything, mock.Anything, payment.StatusPending).Return(true, nil).Once()
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool {
		return e.Type == webhook.PaymentSuccess
	}), mock.MatchedBy(func(ds []*webhook.Delivery) bool {
		return len(ds) == 2 && ds[0].Destination == webhook.ToWebhook && ds[0].URL == hook &&
			ds[1].Destination == webhook.ToCallback && ds[1].URL == "https://shop.example/cb"
	})).Return(nil).Once()
	if _, err := a.CompleteCheckout(context.Background(), p.PublicID, true); err != nil {
		t.Fatal(err)
	}
}
