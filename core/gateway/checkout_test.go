package gateway_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/user"
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	paymentmocks "paygate/core/gateway/payment/mocks"
	"paygate/core/platform/store/storetest"
)

type checkoutWorld struct {
	db       *storetest.DB
	provider *paymentmocks.MockProvider
	app      *gateway.Gateway
	merchant user.User
	pay      payment.Payment
}

func newCheckoutWorld(t *testing.T, sandbox bool) *checkoutWorld {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	w := &checkoutWorld{
		db: storetest.New(), provider: paymentmocks.NewMockProvider(t),
		merchant: user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive},
		pay: payment.Payment{ID: 1, PublicID: "pay_01TESTPAYMENT0000000000000", UserID: 11, Amount: dec("10.00"),
			Status: payment.StatusCreated, ExpiresAt: now.Add(payment.Lifetime), CreatedAt: now},
	}
	w.app, _ = wire(t, w.db, gateway.Deps{Payments: w.provider, Now: func() time.Time { return now.Add(time.Minute) }}, nil)
	w.provider.EXPECT().Sandbox().Return(sandbox).Maybe()
	w.provider.EXPECT().Intent(mock.Anything, mock.Anything, "Shop").Return("upi://pay?pa=x@y", nil).Maybe()
	w.save()
	return w
}

// save writes the world's merchant and payment to the store.
func (w *checkoutWorld) save() { w.db.Put(w.merchant, w.pay) }

// status is the stored payment's status.
func (w *checkoutWorld) status() payment.Status { return w.db.Payments()[0].Status }

func TestCheckoutOfABlockedMerchantIsRefused(t *testing.T) {
	w := newCheckoutWorld(t, true)
	w.merchant.Status = user.StatusBlocked
	w.save()
	if _, err := w.app.OpenCheckout(context.Background(), w.pay.PublicID); !errors.Is(err, gateway.ErrMerchantUnavailable) {
		t.Fatalf("open: err = %v", err)
	}
	if s := w.status(); s != payment.StatusCreated {
		t.Fatalf("opening moved the payment to %s", s)
	}
	w.pay.Status = payment.StatusPending
	w.save()
	if _, err := w.app.CompleteCheckout(context.Background(), w.pay.PublicID, true); !errors.Is(err, gateway.ErrMerchantUnavailable) {
		t.Fatalf("pay: err = %v", err)
	}
	if s := w.status(); s != payment.StatusPending {
		t.Fatalf("paying moved the payment to %s", s)
	}
	// An ended payment is still shown.
	w.pay.Status = payment.StatusSuccess
	w.save()
	if co, err := w.app.OpenCheckout(context.Background(), w.pay.PublicID); err != nil || co.Intent != "" {
		t.Fatalf("ended payment: %+v, %v", co, err)
	}
}

func TestLiveProviderHasNoPayerButtons(t *testing.T) {
	w := newCheckoutWorld(t, false)
	w.pay.Status = payment.StatusPending
	w.save()
	if _, err := w.app.CompleteCheckout(context.Background(), w.pay.PublicID, true); !errors.Is(err, payment.ErrNotFound) {
		t.Fatalf("pay with a live provider: err = %v, want not found", err)
	}
	co, err := w.app.OpenCheckout(context.Background(), w.pay.PublicID)
	if err != nil || co.Sandbox || co.Intent != "upi://pay?pa=x@y" {
		t.Fatalf("open = %+v, %v", co, err)
	}
}

func TestPaymentCannotCompleteUnopened(t *testing.T) {
	w := newCheckoutWorld(t, true) // status created: nobody opened the page
	if _, err := w.app.CompleteCheckout(context.Background(), w.pay.PublicID, true); err == nil {
		t.Fatal("a payment nobody opened was completed")
	}
	if s := w.status(); s != payment.StatusCreated {
		t.Fatalf("payment %s", s)
	}
}
