package gateway_test

import (
	"testing"

	"paygate/core/billing/gst"
	"paygate/core/gateway"
)

// TestBuiltinServicesSAC: the built-in services whose charge is a fee for
// moving money are payment processing (997158); verification and account
// opening keep the supplier's default (nil). Migration 00050 sets the same
// on existing databases.
func TestBuiltinServicesSAC(t *testing.T) {
	want := map[string]string{
		gateway.SlugPaymentCreate: gst.PaymentSAC, gateway.SlugRechargeMobile: gst.PaymentSAC, gateway.SlugPayoutTransfer: gst.PaymentSAC,
		gateway.SlugAccountVerify: "", gateway.SlugAccountOpen: "",
	}
	seeds := gateway.Services()
	if len(seeds) != len(want) {
		t.Fatalf("%d built-in services, want %d: decide each one's SAC", len(seeds), len(want))
	}
	for _, s := range seeds {
		got := ""
		if s.Service.SAC != nil {
			got = *s.Service.SAC
		}
		if w, ok := want[s.Service.Slug]; !ok || got != w {
			t.Errorf("%s: SAC %q, want %q", s.Service.Slug, got, w)
		}
		if err := s.Service.Validate(); err != nil {
			t.Errorf("%s: %v", s.Service.Slug, err)
		}
	}
}
