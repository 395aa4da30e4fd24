package payment_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
)

func TestNewRefundValidates(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		req    payment.RefundRequest
		fields []string
	}{
		{payment.RefundRequest{PaymentID: "pay_1", Amount: "10.50"}, nil},
		{payment.RefundRequest{PaymentID: "pay_1", Amount: " 1 ", Reason: "ok"}, nil},
		{payment.RefundRequest{Amount: "1"}, []string{"payment_id"}},
		{payment.RefundRequest{PaymentID: "pay_1"}, []string{"amount"}},
		{payment.RefundRequest{PaymentID: "pay_1", Amount: "0"}, []string{"amount"}},
		{payment.RefundRequest{PaymentID: "pay_1", Amount: "1.001"}, []string{"amount"}},
		{payment.RefundRequest{PaymentID: "pay_1", Amount: "-1"}, []string{"amount"}},
		{payment.RefundRequest{PaymentID: "pay_1", Amount: "1e2"}, []string{"amount"}},
		{payment.RefundRequest{PaymentID: "pay_1", Amount: "1", Reason: string(make([]byte, 256))}, []string{"reason"}},
	} {
		r, err := payment.NewRefund(c.req, now)
		e, _ := errs.As(err)
		if len(c.fields) == 0 {
			if err != nil || r.Status != payment.RefundPending || len(r.PublicID) != 31 {
				t.Errorf("%+v: %v %+v", c.req, err, r)
			}
			continue
		}
		for _, f := range c.fields {
			if e == nil || e.Fields[f] == nil {
				t.Errorf("%+v: no error on %s (%v)", c.req, f, err)
			}
		}
	}
}

func TestRefundableAndClaim(t *testing.T) {
	d := decimal.RequireFromString
	p := payment.Payment{Amount: d("100.00"), Refunded: d("90.00"), Status: payment.StatusSuccess}
	if !p.Refundable().Equal(d("10")) || p.CheckRefund(d("10")) != nil || errs.KindOf(p.CheckRefund(d("10.01"))) != errs.Invalid {
		t.Fatal("refundable")
	}
	p.Status = payment.StatusExpired
	if p.CheckRefund(d("1")) != payment.ErrNotRefundable || !p.Refundable().IsZero() {
		t.Fatal("refund of an expired payment")
	}
	top := payment.Payment{Amount: d("100.00"), Status: payment.StatusSuccess, Purpose: payment.PurposeBalance}
	if top.CheckRefund(d("1")) != payment.ErrBalanceNotRefundable || !top.Refundable().IsZero() {
		t.Fatal("refund of a balance top-up")
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := payment.Refund{Status: payment.RefundPending, CreatedAt: now}
	var waits []time.Duration
	for range 9 {
		r = r.Claim(now)
		waits = append(waits, r.NextCheckAt.Sub(now))
	}
	if waits[0] != time.Minute || waits[1] != 2*time.Minute || waits[8] != payment.RefundCheckMax {
		t.Fatalf("backoff %v", waits)
	}
	if r.Overdue(now.Add(payment.RefundDeadline-time.Second)) || !r.Overdue(now.Add(payment.RefundDeadline)) {
		t.Fatal("deadline")
	}
}
