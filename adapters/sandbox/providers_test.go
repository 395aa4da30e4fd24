package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sandbox"
	"paygate/core/gateway/accountopen"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
)

func aadhaar(prefix string) string { return prefix + fmt.Sprint(verification.VerhoeffDigit(prefix)) }

func TestVerifierOutcomes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		req      verification.Request
		verified bool
		down     bool
		nameIs   string
	}{
		{"bank ok", verification.Request{Type: "bank_account", AccountNumber: "123456781234", IFSC: "HDFC0001234"}, true, false, ""},
		{"bank 0000", verification.Request{Type: "bank_account", AccountNumber: "123456780000", IFSC: "HDFC0001234"}, false, false, ""},
		{"bank 9999", verification.Request{Type: "bank_account", AccountNumber: "123456789999", IFSC: "HDFC0001234"}, false, true, ""},
		{"upi ok", verification.Request{Type: "upi", VPA: "rahul.sharma@okaxis"}, true, false, "Rahul Sharma"},
		{"upi fail", verification.Request{Type: "upi", VPA: "failing@okaxis"}, false, false, ""},
		{"upi down", verification.Request{Type: "upi", VPA: "down@okaxis"}, false, true, ""},
		{"pan ok", verification.Request{Type: "pan", PAN: "ABCPE1234F"}, true, false, ""},
		{"pan 0000", verification.Request{Type: "pan", PAN: "ABCPE0000F"}, false, false, ""},
		{"pan wrong name", verification.Request{Type: "pan", PAN: "ABCPE1234F", Name: "Nobody Here"}, false, false, ""},
		{"aadhaar ok", verification.Request{Type: "aadhaar", Aadhaar: aadhaar("23456781234")}, true, false, ""},
		{"aadhaar 0000", verification.Request{Type: "aadhaar", Aadhaar: aadhaar("23456780000")}, false, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.req.Validate(); err != nil {
				t.Fatalf("test input is invalid: %v", err)
			}
			res, err := sandbox.Verifier{}.Verify(ctx, tc.req)
			if tc.down {
				if !errors.Is(err, sandbox.ErrSandboxOutage) {
					t.Fatalf("err = %v, want an outage", err)
				}
				return
			}
			if err != nil || res.Verified != tc.verified || res.ReferenceID == "" {
				t.Fatalf("Verify = %+v, %v", res, err)
			}
			if tc.verified && (res.NameAtSource == "" || (tc.nameIs != "" && res.NameAtSource != tc.nameIs)) {
				t.Fatalf("name at source %q", res.NameAtSource)
			}
			again, _ := sandbox.Verifier{}.Verify(ctx, tc.req)
			if again.ReferenceID == res.ReferenceID {
				t.Fatalf("reference ids repeat: %s", res.ReferenceID)
			}
			again.ReferenceID = res.ReferenceID
			if again != res {
				t.Fatalf("not deterministic: %+v then %+v", res, again)
			}
		})
	}
	// A PAN with the name at source given back is verified.
	r := verification.Request{Type: "pan", PAN: "ABCPE1234F"}
	first, _ := sandbox.Verifier{}.Verify(ctx, r)
	r.Name = first.NameAtSource
	if res, _ := (sandbox.Verifier{}).Verify(ctx, r); !res.Verified {
		t.Fatalf("PAN with its own name: %+v", res)
	}
}

func TestRechargerOutcomes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		mobile, amount string
		submit, check  recharge.Status
		checkErr       bool
	}{
		{"9876543210", "239", recharge.StatusPending, recharge.StatusSuccess, false},
		{"9876543210", "247.50", recharge.StatusPending, recharge.StatusFailed, false},
		{"9876540000", "239", recharge.StatusFailed, recharge.StatusFailed, false},
		{"9876549999", "239", recharge.StatusPending, "", true},
	} {
		r := recharge.Recharge{Mobile: tc.mobile, Operator: "jio", Amount: decimal.RequireFromString(tc.amount), ReferenceID: "r1", ID: 41}
		sub, err := sandbox.Recharger{}.Submit(ctx, r)
		if err != nil || sub.Status != tc.submit {
			t.Fatalf("%s/%s Submit = %+v, %v", tc.mobile, tc.amount, sub, err)
		}
		chk, err := sandbox.Recharger{}.Check(ctx, r)
		if tc.checkErr {
			if err == nil {
				t.Fatalf("%s: Check answered %+v, want no answer", tc.mobile, chk)
			}
			continue
		}
		if err != nil || chk.Status != tc.check || (chk.Status == recharge.StatusSuccess) != (chk.OperatorRef != "") {
			t.Fatalf("%s/%s Check = %+v, %v", tc.mobile, tc.amount, chk, err)
		}
	}
}

// TestRechargerSubmitIsIdempotentByReference: a second Submit of the same
// recharge (the worker re-submitting after a crash) answers what the first
// did, with the same operator reference; another reference is another
// recharge; a recharge without a reference is refused.
func TestRechargerSubmitIsIdempotentByReference(t *testing.T) {
	ctx := context.Background()
	r := recharge.Recharge{ID: 41, Mobile: "9876543210", Operator: "jio", Amount: decimal.RequireFromString("239"), ReferenceID: "r1"}
	first, err1 := sandbox.Recharger{}.Submit(ctx, r)
	again, err2 := sandbox.Recharger{}.Submit(ctx, r)
	if err1 != nil || err2 != nil || first != again {
		t.Fatalf("re-submit answered %+v/%v, first %+v/%v", again, err2, first, err1)
	}
	c1, _ := sandbox.Recharger{}.Check(ctx, r)
	c2, _ := sandbox.Recharger{}.Check(ctx, r)
	other := r
	other.ID = 42
	c3, _ := sandbox.Recharger{}.Check(ctx, other)
	if c1 != c2 || c1.OperatorRef == "" || c3.OperatorRef == c1.OperatorRef {
		t.Fatalf("checks %+v %+v, other reference %+v", c1, c2, c3)
	}
	r.ID = 0
	if _, err := (sandbox.Recharger{}).Submit(ctx, r); !errors.Is(err, sandbox.ErrNoReference) {
		t.Fatalf("no reference: %v", err)
	}
	if _, err := (sandbox.Recharger{}).Check(ctx, r); !errors.Is(err, sandbox.ErrNoReference) {
		t.Fatalf("no reference: %v", err)
	}
}

func TestOpenerOutcomes(t *testing.T) {
	ctx := context.Background()
	created := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	now := created
	p := sandbox.Opener{Now: func() time.Time { return now }}
	o := accountopen.Opening{ID: 1, PublicID: "aco_01J9Z8X4K3M2N1P0Q9R8S7T6V5", CreatedAt: created,
		Applicant: accountopen.Applicant{Name: "Asha Rao", Aadhaar: "XXXXXXXX2346"}}
	kycURL := "https://sandbox.example/kyc/aco_01J9Z8X4K3M2N1P0Q9R8S7T6V5"

	// Submit with the identifiers, and the worker's re-submission without: the same answer.
	first, err := p.Submit(ctx, o, accountopen.KYC{PAN: "ABCPE1234F", Aadhaar: "234123412346"})
	again, err2 := p.Submit(ctx, o, accountopen.KYC{})
	if err != nil || err2 != nil || first != again || first.Status != accountopen.StatusKYCPending || first.KYCURL != kycURL {
		t.Fatalf("Submit %+v %v / %+v %v", first, err, again, err2)
	}
	if res, err := p.Check(ctx, o); err != nil || res.Status != accountopen.StatusKYCPending || res.KYCURL != kycURL {
		t.Fatalf("Check before the KYC delay: %+v %v", res, err)
	}
	now = created.Add(sandbox.OpenerKYCDelay)
	res, err := p.Check(ctx, o)
	if err != nil || res.Status != accountopen.StatusOpened || res.IFSC != sandbox.OpenerIFSC || len(res.AccountNumber) != 14 ||
		res.AccountNumber != sandbox.OpenerAccountNumber(o.PublicID) {
		t.Fatalf("Check: %+v %v", res, err)
	}
	if res2, _ := p.Check(ctx, o); res2 != res {
		t.Fatalf("not deterministic: %+v then %+v", res, res2)
	}
	other := o
	other.PublicID = "aco_01J9Z8X4K3M2N1P0Q9R8S7T6V6"
	if sandbox.OpenerAccountNumber(other.PublicID) == res.AccountNumber {
		t.Fatal("two openings share an account number")
	}
	o.Applicant.Name = "Mr ReJeCted"
	if res, err := p.Check(ctx, o); err != nil || res.Status != accountopen.StatusRejected || res.Reason == "" {
		t.Fatalf("reject: %+v %v", res, err)
	}
	if _, err := p.Submit(ctx, accountopen.Opening{}, accountopen.KYC{}); !errors.Is(err, sandbox.ErrNoOpeningID) {
		t.Fatalf("no id: %v", err)
	}
	if !p.Sandbox() {
		t.Fatal("not a sandbox")
	}
}
