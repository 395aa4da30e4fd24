package payout_test

import (
	"slices"
	"testing"
	"time"

	"paygate/core/gateway/payout"
	"paygate/core/platform/errs"
)

func TestNewValidatesAndDefaultsTheMode(t *testing.T) {
	bank := payout.Beneficiary{Type: "bank_account", Name: " Asha ", AccountNumber: "123456789012", IFSC: "hdfc0001234"}
	vpa := payout.Beneficiary{Type: "vpa", Name: "Ravi", VPA: "Ravi@OKAXIS"}
	for _, c := range []struct {
		name     string
		req      payout.Request
		fields   []string
		wantMode payout.Mode
	}{
		{"bank, IMPS by default", payout.Request{Beneficiary: bank, Amount: "100", ReferenceID: "r1"}, nil, payout.ModeIMPS},
		{"bank, NEFT", payout.Request{Beneficiary: bank, Amount: "100.50", Mode: "neft", ReferenceID: "r1"}, nil, payout.ModeNEFT},
		{"vpa, UPI by default", payout.Request{Beneficiary: vpa, Amount: "1", ReferenceID: "r1"}, nil, payout.ModeUPI},
		{"bank by UPI", payout.Request{Beneficiary: bank, Amount: "100", Mode: "UPI", ReferenceID: "r1"}, []string{"mode"}, ""},
		{"vpa by IMPS", payout.Request{Beneficiary: vpa, Amount: "100", Mode: "IMPS", ReferenceID: "r1"}, []string{"mode"}, ""},
		{"amount bounds and places", payout.Request{Beneficiary: bank, Amount: "500000.01", ReferenceID: "r1"}, []string{"amount"}, ""},
		{"amount 3 places", payout.Request{Beneficiary: bank, Amount: "1.001", ReferenceID: "r1"}, []string{"amount"}, ""},
		{"below 1.00", payout.Request{Beneficiary: bank, Amount: "0.99", ReferenceID: "r1"}, []string{"amount"}, ""},
		{"bad bank", payout.Request{Beneficiary: payout.Beneficiary{Type: "bank_account", AccountNumber: "12ab", IFSC: "HDFC1234567", VPA: "a@b"},
			Amount: "10", ReferenceID: "r 1", Narration: "<script>"},
			[]string{"beneficiary.account_number", "beneficiary.ifsc", "beneficiary.name", "beneficiary.vpa", "narration", "reference_id"}, ""},
		{"unknown type", payout.Request{Beneficiary: payout.Beneficiary{Type: "card", Name: "A"}, Amount: "10", ReferenceID: "r"}, []string{"beneficiary.type"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := payout.New(c.req, time.Now())
			if c.fields == nil {
				if err != nil || p.Mode != c.wantMode || p.Status != payout.StatusPending || !payout.ValidPublicID(p.PublicID) {
					t.Fatalf("%+v %v", p, err)
				}
				return
			}
			e, ok := errs.As(err)
			if !ok {
				t.Fatalf("err %v", err)
			}
			var got []string
			for k := range e.Fields {
				got = append(got, k)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.fields) {
				t.Fatalf("fields %v, want %v", got, c.fields)
			}
		})
	}
	p, _ := payout.New(payout.Request{Beneficiary: bank, Amount: "100", ReferenceID: "r1"}, time.Now())
	if p.Beneficiary.Name != "Asha" || p.Beneficiary.IFSC != "HDFC0001234" || p.Beneficiary.Masked().AccountNumber != "XXXXXXXX9012" {
		t.Fatalf("normalised %+v", p.Beneficiary)
	}
}

func TestClaimStopsWatchingASuccessAfterTheReversalWindow(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	done := now.Add(-payout.ReversalWatch)
	p := payout.Payout{Status: payout.StatusSuccess, ProcessedAt: &done, Attempts: 3}
	if next := p.Claim(now); next.NextCheckAt != nil || next.Attempts != 4 {
		t.Fatalf("claim %+v", next)
	}
	recent := now.Add(-time.Hour)
	p.ProcessedAt = &recent
	if next := p.Claim(now); next.NextCheckAt == nil || !next.NextCheckAt.Equal(now.Add(24*time.Second)) {
		t.Fatalf("claim %+v", next)
	}
	open := payout.Payout{Status: payout.StatusProcessing, CreatedAt: now.Add(-payout.StuckAfter)}
	if !open.Stuck(now) || (&payout.Payout{Status: payout.StatusFailed, CreatedAt: open.CreatedAt}).Stuck(now) {
		t.Fatal("stuck")
	}
}
