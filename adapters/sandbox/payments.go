package sandbox

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"paygate/core/gateway/payment"
	"paygate/core/platform/inr"
)

// Payments is the sandbox payment provider: the UPI intent names a sandbox
// collecting address, and the checkout page offers the payer "Pay" and
// "Fail" buttons instead of a real bank's answer. No money moves.
type Payments struct {
	VPA string // the collecting UPI address; "" means paygate@sandbox
}

var _ payment.Provider = Payments{}

func (p Payments) Intent(_ context.Context, pay payment.Payment, payee string) (string, error) {
	vpa := p.VPA
	if vpa == "" {
		vpa = "paygate@sandbox"
	}
	return UPIIntent(vpa, payee, inr.Format2(pay.Amount), pay.PublicID), nil
}

func (Payments) Sandbox() bool { return true }

// Refund answers at once and the same way every time for a refund (test
// inputs in its reason): a reason starting with "fail" → failed;
// containing "timeout504" → no answer (the refund stays pending for the
// refund worker, and fails after its deadline); otherwise processed.
func (Payments) Refund(_ context.Context, _ payment.Payment, r payment.Refund) (payment.RefundOutcome, error) {
	reason := strings.ToLower(r.Reason)
	switch {
	case strings.Contains(reason, "timeout504"):
		return payment.RefundOutcome{}, errors.New("sandbox: refund provider did not answer")
	case strings.HasPrefix(reason, "fail"):
		return payment.RefundOutcome{Status: payment.RefundFailed, ProviderRef: "sbx_" + r.PublicID,
			Reason: "Refund declined by the payer's bank (sandbox)"}, nil
	}
	return payment.RefundOutcome{Status: payment.RefundProcessed, ProviderRef: "sbx_" + r.PublicID}, nil
}

// UPIIntent is the UPI deep link (NPCI's linking spec order: pa, pn, am,
// cu, tr), values query-escaped with spaces as %20 and the VPA's @ kept.
func UPIIntent(vpa, payee, amount, ref string) string {
	esc := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(url.QueryEscape(s), "+", "%20"), "%40", "@")
	}
	return "upi://pay?pa=" + esc(vpa) + "&pn=" + esc(payee) + "&am=" + esc(amount) + "&cu=INR&tr=" + esc(ref)
}
