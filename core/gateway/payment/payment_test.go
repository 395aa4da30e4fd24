package payment_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
)

var (
	now = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	max = decimal.RequireFromString("100000.00")
)

func TestNewValidates(t *testing.T) {
	ok := payment.Create{Amount: "499.50", Currency: "INR", CustomerID: "cust-1", CallbackURL: "https://shop.example/cb"}
	p, err := payment.New(ok, 3, 4, max, now)
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != payment.StatusCreated || !p.Amount.Equal(decimal.RequireFromString("499.5")) ||
		p.ExpiresAt != now.Add(30*time.Minute) || len(p.PublicID) != 30 || p.PublicID[:4] != "pay_" {
		t.Fatalf("payment %+v", p)
	}
	for name, tc := range map[string]struct {
		mut   func(*payment.Create)
		field string
	}{
		"no amount":        {func(c *payment.Create) { c.Amount = "" }, "amount"},
		"zero":             {func(c *payment.Create) { c.Amount = "0" }, "amount"},
		"negative":         {func(c *payment.Create) { c.Amount = "-1" }, "amount"},
		"three decimals":   {func(c *payment.Create) { c.Amount = "1.005" }, "amount"},
		"over the maximum": {func(c *payment.Create) { c.Amount = "100000.01" }, "amount"},
		"not a number":     {func(c *payment.Create) { c.Amount = "1e3" }, "amount"},
		"currency":         {func(c *payment.Create) { c.Currency = "USD" }, "currency"},
		"no customer":      {func(c *payment.Create) { c.CustomerID = " " }, "customer_id"},
		"ftp callback":     {func(c *payment.Create) { c.CallbackURL = "ftp://x.example/" }, "callback_url"},
		"relative":         {func(c *payment.Create) { c.CallbackURL = "/cb" }, "callback_url"},
		"credentials":      {func(c *payment.Create) { c.CallbackURL = "https://u:p@x.example/" }, "callback_url"},
	} {
		c := ok
		tc.mut(&c)
		_, err := payment.New(c, 3, 4, max, now)
		e, isErr := errs.As(err)
		if !isErr || e.Kind != errs.Invalid || len(e.Fields[tc.field]) == 0 || len(e.Fields) != 1 {
			t.Errorf("%s: err %v, want one error on %s", name, err, tc.field)
		}
	}
}

func TestMoveOnlyForward(t *testing.T) {
	c := payment.Create{Amount: "10", Currency: "INR", CustomerID: "c", CallbackURL: "https://x.example/"}
	p, _ := payment.New(c, 1, 1, max, now)
	for _, to := range []payment.Status{payment.StatusSuccess, payment.StatusFailed} {
		if err := p.Move(to, now.Add(time.Minute)); err == nil {
			t.Fatalf("created → %s without the payer opening the page", to)
		}
	}
	if err := p.Move(payment.StatusPending, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := p.Move(payment.StatusCreated, now.Add(time.Minute)); err == nil {
		t.Fatal("moved back to created")
	}
	if err := p.Move(payment.StatusSuccess, now.Add(2*time.Minute)); err != nil || p.CompletedAt == nil {
		t.Fatalf("success: %v %+v", err, p)
	}
	for _, to := range []payment.Status{payment.StatusFailed, payment.StatusExpired, payment.StatusPending} {
		if err := p.Move(to, now.Add(3*time.Minute)); err != payment.ErrFinal {
			t.Fatalf("success → %s: %v", to, err)
		}
	}

	late, _ := payment.New(c, 1, 1, max, now)
	if err := late.Move(payment.StatusSuccess, now.Add(30*time.Minute)); err != nil || late.Status != payment.StatusExpired {
		t.Fatalf("a payment completed after its lifetime: %v, status %s", err, late.Status)
	}
}
