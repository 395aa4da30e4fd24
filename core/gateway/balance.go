package gateway

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

// DefaultPlatformName is the payee a balance checkout shows when the
// configuration names none.
const DefaultPlatformName = "Paygate"

// BalanceCheckout is a payment a user makes to the platform to add to their
// own balance.
type BalanceCheckout struct {
	Payment payment.Payment
	URL     string // the hosted checkout page
}

// CreateBalanceCheckout is POST /api/v1/panel/balance/checkout: a payment
// payable to the platform for actor (purpose balance), whose success credits
// actor's own balance with no collection fee (settleIn). The amount follows
// the balance requests' limit (BALANCE_REQUEST_MAX) and one payment's UPI
// limit (MaxPaymentAmount), whichever is lower. Nothing is billed: no API
// key is involved (api_key_id 0), and nobody is called back. A reseller's
// customer is refused (TopUpGate): the money is its reseller's, so it pays
// its reseller directly.
func (a *Gateway) CreateBalanceCheckout(ctx context.Context, actor *user.User, amount string) (*BalanceCheckout, error) {
	if err := actor.CanAct(); err != nil {
		return nil, err
	}
	if a.topUps != nil {
		if err := a.topUps.CheckoutTopUp(ctx, actor); err != nil {
			return nil, err
		}
	}
	limit := decimal.Min(a.cfg.MaxBalanceCheckout, MaxPaymentAmount)
	amount = strings.TrimSpace(amount)
	v, ok := inr.Parse(amount, 2)
	switch {
	case amount == "":
		return nil, errs.Validation(map[string][]string{"amount": {"is required"}})
	case !ok || !v.IsPositive():
		return nil, errs.Validation(map[string][]string{"amount": {"must be a positive amount with at most 2 decimals"}})
	case v.GreaterThan(limit):
		return nil, errs.Validation(map[string][]string{"amount": {"must be at most " + inr.Format2(limit)}})
	}
	now := a.now().UTC()
	p := &payment.Payment{
		PublicID: payment.NewPublicID(), UserID: actor.ID, Amount: v, Currency: "INR",
		CustomerID: "balance", Status: payment.StatusCreated, Purpose: payment.PurposeBalance,
		Livemode:  a.liveBooks(),
		ExpiresAt: now.Add(payment.Lifetime), CreatedAt: now, UpdatedAt: now,
	}
	if err := a.st.Payments.Create(ctx, p); err != nil {
		return nil, err
	}
	return &BalanceCheckout{Payment: *p, URL: a.paymentURL(p.PublicID)}, nil
}
