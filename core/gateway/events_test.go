package gateway_test

import (
	"context"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	paymentmocks "paygate/core/gateway/payment/mocks"
	"paygate/core/platform/store/storetest"
)

func TestPaymentOutcomeGoesToCallbackAndWebhook(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	db := storetest.New()
	provider := paymentmocks.NewMockProvider(t)
	a, _ := wire(t, db, gateway.Deps{Payments: provider, Now: func() time.Time { return now }}, nil)
	hook := "https://merchant.example/hooks"
	p := payment.Payment{ID: 1, PublicID: "pay_01TESTPAYMENT0000000000000", UserID: 11, Amount: dec("10.00"), Currency: "INR",
		CallbackURL: "https://shop.example/cb", Status: payment.StatusPending, ExpiresAt: now.Add(time.Hour), CreatedAt: now}
	db.Put(user.User{ID: 11, Name: "Shop", Status: user.StatusActive, WebhookURL: &hook}, p)
	provider.EXPECT().Sandbox().Return(true)
	if _, err := a.CompleteCheckout(context.Background(), p.PublicID, true); err != nil {
		t.Fatal(err)
	}
	if ps := db.Payments(); len(ps) != 1 || ps[0].Status != payment.StatusSuccess {
		t.Fatalf("payments %+v", ps)
	}
	es, ds := db.Events(), db.Deliveries()
	if len(es) != 1 || es[0].Type != webhook.PaymentSuccess {
		t.Fatalf("events %+v", es)
	}
	if len(ds) != 2 || ds[0].Destination != webhook.ToWebhook || ds[0].URL != hook ||
		ds[1].Destination != webhook.ToCallback || ds[1].URL != "https://shop.example/cb" {
		t.Fatalf("deliveries %+v", ds)
	}
}
