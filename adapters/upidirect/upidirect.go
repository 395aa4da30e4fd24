// Package upidirect is the live payment provider that needs no contract
// (PAYMENT_PROVIDER=upi_direct): the checkout page's UPI intent and QR pay
// the platform's own UPI address, with the payment id as tr; the payer then
// reports the UTR on the page, and the platform's bank statement confirms
// the payment (reconciliation). Money moves, so its payments are live.
package upidirect

import (
	"context"
	"fmt"
	"regexp"

	"paygate/adapters/sandbox"
	"paygate/core/gateway/payment"
	"paygate/core/platform/inr"
)

// Provider collects into one VPA under one payee name.
type Provider struct {
	vpa, payeeName string
}

var (
	_ payment.Provider     = Provider{}
	_ payment.UTRCollector = Provider{}
)

// vpaPattern is a UPI virtual payment address: handle@psp.
var vpaPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{1,255}@[A-Za-z][A-Za-z0-9]{1,63}$`)

// New checks the platform's VPA and payee name (UPI_VPA, UPI_PAYEE_NAME).
func New(vpa, payeeName string) (Provider, error) {
	if !vpaPattern.MatchString(vpa) {
		return Provider{}, fmt.Errorf("UPI_VPA: %q is not a UPI address such as paygate@okicici", vpa)
	}
	if payeeName == "" || len(payeeName) > 99 {
		return Provider{}, fmt.Errorf("UPI_PAYEE_NAME: must be 1 to 99 characters (the name UPI apps show the payer)")
	}
	return Provider{vpa: vpa, payeeName: payeeName}, nil
}

// Intent pays the platform's VPA (not the merchant's: the platform collects
// and credits the merchant on confirmation) with tr = the payment id.
func (p Provider) Intent(_ context.Context, pay payment.Payment, _ string) (string, error) {
	return sandbox.UPIIntent(p.vpa, p.payeeName, inr.Format2(pay.Amount), pay.PublicID), nil
}

// Refund cannot send money: upi_direct has no provider behind it, only the
// platform's bank account. It fails at once, so the refund's debit is given
// back to the merchant (exactly once) and the merchant refunds the payer
// outside the platform.
func (Provider) Refund(_ context.Context, _ payment.Payment, r payment.Refund) (payment.RefundOutcome, error) {
	return payment.RefundOutcome{Status: payment.RefundFailed, ProviderRef: "upi_direct_" + r.PublicID,
		Reason: "Refunds cannot be sent with upi_direct (no payment provider): refund the payer outside the platform"}, nil
}

func (Provider) Sandbox() bool     { return false }
func (Provider) CollectsUTR() bool { return true }
