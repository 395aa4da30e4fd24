package main

import (
	"strings"
	"testing"

	"paygate/adapters/sandbox"
	"paygate/adapters/secretbox"
	"paygate/adapters/upidirect"
)

// TestPaymentProviderSettings: sandbox is the default; upi_direct needs a
// UPI address and a payee name, and in production it needs no
// SANDBOX_PAYMENTS; an unknown provider is refused.
func TestPaymentProviderSettings(t *testing.T) {
	parse := func(env map[string]string) (config, error) {
		c, _, err := parseConfig(nil, func(k string) string { return env[k] })
		return c, err
	}
	c, err := parse(map[string]string{})
	if err != nil || c.paymentProvider() != "sandbox" {
		t.Fatalf("default provider = %q, %v", c.paymentProvider(), err)
	}
	if _, ok := paymentsOf(c).(sandbox.Payments); !ok {
		t.Errorf("default wires %T", paymentsOf(c))
	}
	for _, env := range []map[string]string{
		{"PAYMENT_PROVIDER": "razorpay"},
		{"PAYMENT_PROVIDER": "upi_direct"},
		{"PAYMENT_PROVIDER": "upi_direct", "UPI_VPA": "not a vpa", "UPI_PAYEE_NAME": "Paygate"},
		{"PAYMENT_PROVIDER": "upi_direct", "UPI_VPA": "paygate@okicici"},
	} {
		if _, err := parse(env); err == nil {
			t.Errorf("%v accepted", env)
		}
	}
	live := map[string]string{"PAYMENT_PROVIDER": "upi_direct", "UPI_VPA": "paygate@okicici", "UPI_PAYEE_NAME": "Paygate",
		"APP_ENV": "production", "JWT_SECRET": strings.Repeat("j", 40), "DATA_KEY": secretbox.GenerateKey(),
		"SMTP_URL": "smtp://mail.example.com:587", "PUBLIC_BASE_URL": "https://pay.example.com"}
	c, err = parse(live)
	if err != nil {
		t.Fatalf("production upi_direct without SANDBOX_PAYMENTS: %v", err)
	}
	p, ok := paymentsOf(c).(upidirect.Provider)
	if !ok || p.Sandbox() {
		t.Errorf("upi_direct wires %T (sandbox %v)", paymentsOf(c), ok && p.Sandbox())
	}
}
