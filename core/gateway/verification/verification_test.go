package verification_test

import (
	"fmt"
	"strings"
	"testing"

	"paygate/core/gateway/verification"
	"paygate/core/platform/errs"
)

func TestVerhoeff(t *testing.T) {
	// The textbook example: 236 has check digit 3.
	if d := verification.VerhoeffDigit("236"); d != 3 {
		t.Fatalf("check digit of 236 = %d, want 3", d)
	}
	if !verification.VerhoeffValid("2363") || verification.VerhoeffValid("2364") {
		t.Fatal("2363 must pass and 2364 fail")
	}
	// Any single-digit error and any adjacent swap is caught.
	base := "23456789012"
	full := base + fmt.Sprint(verification.VerhoeffDigit(base))
	if !verification.VerhoeffValid(full) {
		t.Fatalf("%s fails its own check digit", full)
	}
	for i := range full {
		for d := byte('0'); d <= '9'; d++ {
			if d == full[i] {
				continue
			}
			typo := full[:i] + string(d) + full[i+1:]
			if verification.VerhoeffValid(typo) {
				t.Fatalf("typo %s passes", typo)
			}
		}
		if i+1 < len(full) && full[i] != full[i+1] {
			swap := full[:i] + string(full[i+1]) + string(full[i]) + full[i+2:]
			if verification.VerhoeffValid(swap) {
				t.Fatalf("swap %s passes", swap)
			}
		}
	}
	if verification.VerhoeffValid("") || verification.VerhoeffValid("23a3") {
		t.Fatal("empty or non-digit input passes")
	}
}

func aadhaar(prefix string) string { return prefix + fmt.Sprint(verification.VerhoeffDigit(prefix)) }

func TestValidate(t *testing.T) {
	good := aadhaar("23456789012")
	bad := good[:11] + fmt.Sprint((int(good[11]-'0')+1)%10)
	for _, tc := range []struct {
		name   string
		req    verification.Request
		fields []string // fields with errors; nil = valid
		masked string
	}{
		{"bank ok", verification.Request{Type: "bank_account", AccountNumber: " 123456789012 ", IFSC: "hdfc0001234"}, nil, "XXXXXXXX9012 / HDFC0001234"},
		{"bank short", verification.Request{Type: "bank_account", AccountNumber: "12345678", IFSC: "HDFC0001234"}, []string{"account_number"}, ""},
		{"bank ifsc 5th not 0", verification.Request{Type: "bank_account", AccountNumber: "123456789", IFSC: "HDFC1001234"}, []string{"ifsc"}, ""},
		{"bank missing", verification.Request{Type: "bank_account"}, []string{"account_number", "ifsc"}, ""},
		{"bank with pan", verification.Request{Type: "bank_account", AccountNumber: "123456789", IFSC: "HDFC0001234", PAN: "ABCPE1234F"}, []string{"pan"}, ""},
		{"upi ok", verification.Request{Type: "upi", VPA: "Ravi.Kumar@okhdfc"}, nil, "ra********@okhdfc"},
		{"upi no handle", verification.Request{Type: "upi", VPA: "ravi"}, []string{"vpa"}, ""},
		{"upi bad handle", verification.Request{Type: "upi", VPA: "ravi@1bank"}, []string{"vpa"}, ""},
		{"pan ok", verification.Request{Type: "pan", PAN: "abcpe1234f", Name: "Asha", DOB: "1990-02-03"}, nil, "XXXXXX234F"},
		{"pan bad kind letter", verification.Request{Type: "pan", PAN: "ABCXE1234F"}, []string{"pan"}, ""},
		{"pan bad dob", verification.Request{Type: "pan", PAN: "ABCPE1234F", DOB: "03/02/1990"}, []string{"dob"}, ""},
		{"aadhaar ok", verification.Request{Type: "aadhaar", Aadhaar: good[:4] + " " + good[4:8] + " " + good[8:]}, nil, "XXXXXXXX" + good[8:]},
		{"aadhaar checksum", verification.Request{Type: "aadhaar", Aadhaar: bad}, []string{"aadhaar"}, ""},
		{"aadhaar starts with 1", verification.Request{Type: "aadhaar", Aadhaar: aadhaar("13456789012")}, []string{"aadhaar"}, ""},
		{"aadhaar 11 digits", verification.Request{Type: "aadhaar", Aadhaar: "23456789012"}, []string{"aadhaar"}, ""},
		{"unknown type", verification.Request{Type: "passport"}, []string{"type"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.req
			err := r.Validate()
			if tc.fields == nil {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				if got := r.Masked(); got != tc.masked {
					t.Fatalf("Masked = %q, want %q", got, tc.masked)
				}
				return
			}
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.Invalid {
				t.Fatalf("err = %v, want a validation error", err)
			}
			var got []string
			for f := range e.Fields {
				got = append(got, f)
			}
			if len(got) != len(tc.fields) {
				t.Fatalf("fields %v, want %v", got, tc.fields)
			}
			for _, f := range tc.fields {
				if _, ok := e.Fields[f]; !ok {
					t.Fatalf("fields %v, want %v", got, tc.fields)
				}
			}
		})
	}
}

func TestMaskedNeverShowsTheWholeIdentifier(t *testing.T) {
	for _, r := range []verification.Request{
		{Type: "bank_account", AccountNumber: "123456789012345", IFSC: "SBIN0000001"},
		{Type: "pan", PAN: "ABCPE1234F"},
		{Type: "aadhaar", Aadhaar: aadhaar("98765432109")},
	} {
		id := r.AccountNumber + r.PAN + r.Aadhaar
		if m := r.Masked(); strings.Contains(m, id) || strings.Contains(m, id[:6]) {
			t.Fatalf("Masked(%s) = %s", id, m)
		}
	}
}
