package upidirect_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/adapters/upidirect"
	"paygate/core/gateway/payment"
)

func TestIntentPaysThePlatformVPAWithThePaymentIDAsTr(t *testing.T) {
	p, err := upidirect.New("paygate@okicici", "Paygate Collections")
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Intent(context.Background(), payment.Payment{PublicID: "pay_01J0000000000000000000000A", Amount: decimal.RequireFromString("1500.5")}, "Some Merchant")
	if err != nil {
		t.Fatal(err)
	}
	want := "upi://pay?pa=paygate@okicici&pn=Paygate%20Collections&am=1500.50&cu=INR&tr=pay_01J0000000000000000000000A"
	if got != want {
		t.Errorf("intent = %s, want %s", got, want)
	}
	if p.Sandbox() || !p.CollectsUTR() {
		t.Error("upi_direct is live and collects the UTR")
	}
}

func TestNewRefusesABadVPAOrName(t *testing.T) {
	for _, c := range []struct{ vpa, name string }{{"", "X"}, {"no-at-sign", "X"}, {"a@b", "X"}, {"ok@okaxis", ""}} {
		if _, err := upidirect.New(c.vpa, c.name); err == nil {
			t.Errorf("New(%q, %q) accepted", c.vpa, c.name)
		}
	}
}

func TestRefundFailsAtOnceSoTheMerchantGetsTheMoneyBack(t *testing.T) {
	p, _ := upidirect.New("paygate@okicici", "Paygate")
	o, err := p.Refund(context.Background(), payment.Payment{}, payment.Refund{PublicID: "rfnd_1"})
	if err != nil || o.Status != payment.RefundFailed || o.Reason == "" {
		t.Fatalf("refund: %+v %v", o, err)
	}
}
