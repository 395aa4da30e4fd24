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
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"
)

type refundWorld struct {
	db       *storetest.DB
	provider *paymentmocks.MockProvider
	app      *gateway.Gateway
	merchant user.User
	pay      payment.Payment
	now      time.Time
}

func newRefundWorld(t *testing.T) *refundWorld {
	w := &refundWorld{
		db: storetest.New(), provider: paymentmocks.NewMockProvider(t), now: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
		merchant: user.User{ID: 11, Name: "Shop", Role: user.RoleUser, Status: user.StatusActive, Balance: dec("100.00")},
	}
	w.pay = payment.Payment{ID: 1, PublicID: "pay_01TESTPAYMENT0000000000000", UserID: 11, Amount: dec("50.00"), Currency: "INR",
		Status: payment.StatusSuccess, ExpiresAt: w.now.Add(payment.Lifetime), CreatedAt: w.now, Refunded: dec("0")}
	w.app, _ = wire(t, w.db, gateway.Deps{Payments: w.provider, Now: func() time.Time { return w.now }}, nil)
	w.db.Put(w.merchant, w.pay, ledger.Entry{UserID: 11, Type: ledger.Credit, Amount: dec("100.00"), BalanceAfter: dec("100.00"),
		TxnID: "TXN1", ReferenceType: ledger.RefAdjustment, CreatedAt: w.now})
	return w
}

func (w *refundWorld) refund(amount, reason string) (*gateway.RefundResult, error) {
	m := w.db.User(11)
	return w.app.RefundPayment(context.Background(), gateway.RefundInput{Actor: &m,
		Request: payment.RefundRequest{PaymentID: w.pay.PublicID, Amount: amount, Reason: reason}})
}

// A refund whose end could not be written (the database failed after the
// provider's "failed") stays pending with its debit; the worker asks again
// and gives the money back exactly once.
func TestRefundFailureWrittenOnceByTheWorker(t *testing.T) {
	w := newRefundWorld(t)
	w.provider.EXPECT().Refund(mock.Anything, mock.Anything, mock.Anything).
		Return(payment.RefundOutcome{Status: payment.RefundFailed, Reason: "bank said no"}, nil)
	calls := 0
	w.db.OnCall("Refunds.Finish", func() error {
		calls++
		if calls == 1 {
			return errs.ErrUnavailable
		}
		return nil
	})
	if res, err := w.refund("20.00", "x"); err != nil || res.Refund.Status != payment.RefundPending {
		t.Fatalf("a refund whose answer was not written: %+v %v", res, err)
	}
	r := w.db.Refunds()[0]
	if r.Status != payment.RefundPending || !w.db.User(11).Balance.Equal(dec("80.00")) || !w.db.Payments()[0].Refunded.Equal(dec("20.00")) {
		t.Fatalf("after the failed write: %+v, balance %s", r, w.db.User(11).Balance)
	}
	w.now = w.now.Add(2 * time.Hour)
	for range 3 {
		if _, err := w.app.CheckRefunds(context.Background(), 10); err != nil {
			t.Fatal(err)
		}
	}
	r = w.db.Refunds()[0]
	if r.Status != payment.RefundFailed || *r.FailReason != "bank said no" || !w.db.User(11).Balance.Equal(dec("100.00")) ||
		!w.db.Payments()[0].Refunded.IsZero() {
		t.Fatalf("after the worker: %+v, balance %s", r, w.db.User(11).Balance)
	}
	backs := 0
	for _, e := range w.db.Entries() {
		if e.Type == ledger.Refund && e.ReferenceType == ledger.RefRefund {
			backs++
		}
	}
	if backs != 1 {
		t.Fatalf("%d give-backs", backs)
	}
	if n := len(w.db.Events()); n != 0 { // the merchant has no webhook and the payment no callback
		t.Fatalf("%d events", n)
	}
}

// A store failure inside the refund's transaction moves nothing.
func TestRefundRollsBackAsOne(t *testing.T) {
	w := newRefundWorld(t)
	w.db.Fail("Users.SaveBalance", errors.New("disk full"))
	if _, err := w.refund("20.00", ""); err == nil {
		t.Fatal("no error")
	}
	if len(w.db.Refunds()) != 0 || !w.db.User(11).Balance.Equal(dec("100.00")) || !w.db.Payments()[0].Refunded.IsZero() || len(w.db.Entries()) != 1 {
		t.Fatalf("partial writes: refunds %v, balance %s", w.db.Refunds(), w.db.User(11).Balance)
	}
}

// Only a successful payment's merchant refunds it; more than is left is 422.
func TestRefundRules(t *testing.T) {
	w := newRefundWorld(t)
	w.provider.EXPECT().Refund(mock.Anything, mock.Anything, mock.Anything).Return(payment.RefundOutcome{Status: payment.RefundProcessed}, nil)
	if _, err := w.refund("50.01", ""); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("too much: %v", err)
	}
	res, err := w.refund("50", "")
	if err != nil || res.Refund.Status != payment.RefundProcessed || !res.Payment.Refundable().IsZero() {
		t.Fatalf("full: %+v %v", res, err)
	}
	stranger := user.User{ID: 12, Role: user.RoleAdmin, Status: user.StatusActive}
	_, err = w.app.RefundPayment(context.Background(), gateway.RefundInput{Actor: &stranger,
		Request: payment.RefundRequest{PaymentID: w.pay.PublicID, Amount: "1"}})
	if !errors.Is(err, payment.ErrNotFound) {
		t.Fatalf("another's payment: %v", err)
	}
	w.pay.ID, w.pay.PublicID, w.pay.Status = 2, "pay_01TESTPAYMENT0000000000001", payment.StatusFailed
	w.db.Put(w.pay)
	if _, err := w.refund("1", ""); !errors.Is(err, payment.ErrNotRefundable) {
		t.Fatalf("failed payment: %v", err)
	}
}
