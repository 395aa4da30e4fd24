package payment_test

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payment"
)

func TestCollectionFee(t *testing.T) {
	for _, c := range []struct{ amount, percent, want string }{
		{"100.00", "0", "0"},
		{"100.00", "2.50", "2.50"},
		{"9.80", "2.50", "0.25"},  // 0.245: half-up (half-even would give 0.24)
		{"10.20", "2.50", "0.26"}, // 0.255
		{"0.01", "1.00", "0"},     // 0.0001
		{"0.50", "1.00", "0.01"},  // 0.005
		{"100000.00", "100", "100000"},
		{"199.99", "1.99", "3.98"}, // 3.979801
	} {
		got := payment.CollectionFee(decimal.RequireFromString(c.amount), decimal.RequireFromString(c.percent))
		if !got.Equal(decimal.RequireFromString(c.want)) {
			t.Errorf("%s%% of %s = %s, want %s", c.percent, c.amount, got, c.want)
		}
	}
}

func TestCompleteOnlyOpenPaymentsWithinTheirLifetime(t *testing.T) {
	now := time.Now()
	for _, from := range []payment.Status{payment.StatusCreated, payment.StatusPending} {
		p := payment.Payment{Status: from, ExpiresAt: now.Add(time.Minute)}
		if err := p.Complete("412345678901", now); err != nil || p.Status != payment.StatusSuccess || p.CompletedAt == nil ||
			p.ProviderRef == nil || *p.ProviderRef != "412345678901" {
			t.Fatalf("complete from %s: %+v %v", from, p, err)
		}
		late := payment.Payment{Status: from, ExpiresAt: now}
		if err := late.Complete("", now); !errors.Is(err, payment.ErrExpired) || late.Status != from {
			t.Fatalf("complete from %s past the lifetime: %v", from, err)
		}
	}
	for _, from := range []payment.Status{payment.StatusSuccess, payment.StatusFailed, payment.StatusExpired} {
		p := payment.Payment{Status: from, ExpiresAt: now.Add(time.Minute)}
		if err := p.Complete("", now); !errors.Is(err, payment.ErrFinal) || p.Status != from {
			t.Fatalf("complete from %s: %v", from, err)
		}
	}
}

func TestSubmitUTROncePerPayment(t *testing.T) {
	now := time.Now()
	p := payment.Payment{Status: payment.StatusCreated, ExpiresAt: now.Add(time.Minute)}
	if err := p.SubmitUTR(" 412345678901 ", now); err != nil || p.Status != payment.StatusPending || *p.UTR != "412345678901" {
		t.Fatalf("first UTR: %+v %v", p, err)
	}
	if err := p.SubmitUTR("412345678901", now); err != nil {
		t.Fatalf("the same UTR again: %v", err)
	}
	if err := p.SubmitUTR("499999999999", now); !errors.Is(err, payment.ErrUTRSubmitted) || *p.UTR != "412345678901" {
		t.Fatalf("another UTR: %v, utr %s", err, *p.UTR)
	}
	if err := p.CorrectUTR("499999999999", now); err != nil || *p.UTR != "499999999999" {
		t.Fatalf("admin correction: %v", err)
	}
	if err := p.CorrectUTR("4999", now); !errors.Is(err, payment.ErrUTRInvalid) {
		t.Fatalf("malformed correction: %v", err)
	}
}

func TestHeldCreditNeverExpiresOrFails(t *testing.T) {
	now := time.Now()
	p := payment.Payment{Status: payment.StatusCreated, ExpiresAt: now.Add(time.Minute)}
	if err := p.HoldCredit(now); err != nil || p.Status != payment.StatusPending || p.CreditHeldAt == nil {
		t.Fatalf("hold: %+v %v", p, err)
	}
	later := now.Add(time.Hour) // past its lifetime
	for _, to := range []payment.Status{payment.StatusExpired, payment.StatusFailed} {
		q := p
		if err := q.Move(to, later); !errors.Is(err, payment.ErrCreditHeld) || q.Status != payment.StatusPending {
			t.Fatalf("held payment moved to %s: %v", to, err)
		}
	}
	q := p
	if err := q.Move(payment.StatusSuccess, later); err != nil || q.Status != payment.StatusSuccess {
		t.Fatalf("held payment's retry (sandbox Pay) past its lifetime: %v %s", err, q.Status)
	}
	if err := p.Complete("412345678901", later); err != nil || p.Status != payment.StatusSuccess {
		t.Fatalf("held payment's retry past its lifetime: %v", err)
	}
	if err := p.HoldCredit(later); !errors.Is(err, payment.ErrFinal) {
		t.Fatalf("hold after success: %v", err)
	}
}
