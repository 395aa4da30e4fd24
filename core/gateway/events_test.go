package gateway_test

import (
	"context"
	"paygate/core/gateway"
	"paygate/core/payment"
	paymentmocks "paygate/core/payment/mocks"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
)

func TestPaymentOutcomeGoesToCallbackAndWebhook(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	payments, users, hooks := paymentmocks.NewMockRepository(t), usermocks.NewMockRepository(t), webhookmocks.NewMockRepository(t)
	provider := paymentmocks.NewMockProvider(t)
	stores := store.Stores{Payments: payments, Users: users, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) })
	a, _ := wire(t, gateway.Deps{Tx: tx, Stores: stores, Payments: provider, Now: func() time.Time { return now }}, nil)
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
