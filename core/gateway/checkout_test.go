package gateway_test

import (
	"context"
	"errors"
	"paygate/core/gateway"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/payment"
	paymentmocks "paygate/core/payment/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
)

type checkoutWorld struct {
	payments *paymentmocks.MockRepository
	provider *paymentmocks.MockProvider
	users    *usermocks.MockRepository
	app      *gateway.Gateway
	merchant user.User
	pay      payment.Payment
}

func newCheckoutWorld(t *testing.T, sandbox bool) *checkoutWorld {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	w := &checkoutWorld{
		payments: paymentmocks.NewMockRepository(t), provider: paymentmocks.NewMockProvider(t), users: usermocks.NewMockRepository(t),
		merchant: user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive},
		pay: payment.Payment{ID: 1, PublicID: "pay_01TESTPAYMENT0000000000000", UserID: 11, Amount: dec("10.00"),
			Status: payment.StatusCreated, ExpiresAt: now.Add(payment.Lifetime), CreatedAt: now},
	}
	tx := storemocks.NewMockTransactor(t)
	stores := store.Stores{Payments: w.payments, Users: w.users}
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	w.app, _ = wire(t, gateway.Deps{Tx: tx, Stores: stores, Payments: w.provider, Now: func() time.Time { return now.Add(time.Minute) }}, nil)
	w.provider.EXPECT().Sandbox().Return(sandbox).Maybe()
	w.provider.EXPECT().Intent(mock.Anything, mock.Anything, "Shop").Return("upi://pay?pa=x@y", nil).Maybe()
	w.payments.EXPECT().ByPublicID(mock.Anything, w.pay.PublicID).RunAndReturn(func(context.Context, string) (*payment.Payment, error) {
		p := w.pay
		return &p, nil
	}).Maybe()
	w.users.EXPECT().ByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := w.merchant
		return &u, nil
	}).Maybe()
	return w
}

func TestCheckoutOfABlockedMerchantIsRefused(t *testing.T) {
	w := newCheckoutWorld(t, true)
	w.merchant.Status = user.StatusBlocked
	// No transition: the mocks fail on any Transition call.
	if _, err := w.app.OpenCheckout(context.Background(), w.pay.PublicID); !errors.Is(err, gateway.ErrMerchantUnavailable) {
		t.Fatalf("open: err = %v", err)
	}
	w.pay.Status = payment.StatusPending
	if _, err := w.app.CompleteCheckout(context.Background(), w.pay.PublicID, true); !errors.Is(err, gateway.ErrMerchantUnavailable) {
		t.Fatalf("pay: err = %v", err)
	}
	// An ended payment is still shown.
	w.pay.Status = payment.StatusSuccess
	if co, err := w.app.OpenCheckout(context.Background(), w.pay.PublicID); err != nil || co.Intent != "" {
		t.Fatalf("ended payment: %+v, %v", co, err)
	}
}

func TestLiveProviderHasNoPayerButtons(t *testing.T) {
	w := newCheckoutWorld(t, false)
	w.pay.Status = payment.StatusPending
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
}
