package accountopen_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"paygate/core/gateway/accountopen"
	"paygate/core/platform/errs"
)

var now = time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC)

func valid() accountopen.Request {
	return accountopen.Request{Name: "Asha Rao", DOB: "1990-05-17", PAN: "abcpe1234f", Aadhaar: "2341 2341 2346",
		Mobile: "9876543210", Email: "asha@example.com", Address: "12 MG Road, Bengaluru", Product: "Savings", ReferenceID: "ao-1"}
}

func TestNewMasksAndNormalises(t *testing.T) {
	o, kyc, err := accountopen.New(valid(), now)
	if err != nil {
		t.Fatal(err)
	}
	if o.Applicant.PAN != "XXXXXX234F" || o.Applicant.Aadhaar != "XXXXXXXX2346" || o.Product != "savings" ||
		o.Status != accountopen.StatusInitiated || !o.CreatedAt.Equal(now) || o.ReferenceID != "ao-1" {
		t.Fatalf("%+v", o)
	}
	if kyc.PAN != "ABCPE1234F" || kyc.Aadhaar != "234123412346" || kyc.Empty() {
		t.Fatalf("kyc %+v", kyc)
	}
	if !strings.HasPrefix(o.PublicID, "aco_") || len(o.PublicID) != 30 {
		t.Fatalf("public id %q", o.PublicID)
	}
	if o2, _, _ := accountopen.New(valid(), now); o2.PublicID == o.PublicID {
		t.Fatal("public ids repeat")
	}
}

func TestNewValidation(t *testing.T) {
	cases := []struct {
		name   string
		change func(r *accountopen.Request)
		fields []string
	}{
		{"empty", func(r *accountopen.Request) { *r = accountopen.Request{} },
			[]string{"aadhaar", "address", "dob", "email", "mobile", "name", "pan", "product", "reference_id"}},
		{"long name", func(r *accountopen.Request) { r.Name = strings.Repeat("é", 101) }, []string{"name"}},
		{"100-character name", func(r *accountopen.Request) { r.Name = strings.Repeat("é", 100) }, nil},
		{"dob format", func(r *accountopen.Request) { r.DOB = "17-05-1990" }, []string{"dob"}},
		{"dob too old", func(r *accountopen.Request) { r.DOB = "1899-12-31" }, []string{"dob"}},
		{"17 years old", func(r *accountopen.Request) { r.DOB = "2008-11-22" }, []string{"dob"}},
		{"18 today", func(r *accountopen.Request) { r.DOB = "2008-11-21" }, nil},
		{"future dob", func(r *accountopen.Request) { r.DOB = "2030-01-01" }, []string{"dob"}},
		{"pan shape", func(r *accountopen.Request) { r.PAN = "ABCP1234FF" }, []string{"pan"}},
		{"aadhaar starting 1", func(r *accountopen.Request) { r.Aadhaar = "134123412346" }, []string{"aadhaar"}},
		{"aadhaar 11 digits", func(r *accountopen.Request) { r.Aadhaar = "23412341234" }, []string{"aadhaar"}},
		{"mobile", func(r *accountopen.Request) { r.Mobile = "5876543210" }, []string{"mobile"}},
		{"email", func(r *accountopen.Request) { r.Email = "Asha <asha@example.com>" }, []string{"email"}},
		{"long email", func(r *accountopen.Request) { r.Email = strings.Repeat("a", 245) + "@example.com" }, []string{"email"}},
		{"long address", func(r *accountopen.Request) { r.Address = strings.Repeat("a", 301) }, []string{"address"}},
		{"product", func(r *accountopen.Request) { r.Product = "current" }, []string{"product"}},
		{"reference", func(r *accountopen.Request) { r.ReferenceID = "has space" }, []string{"reference_id"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := valid()
			tc.change(&r)
			_, kyc, err := accountopen.New(r, now)
			if tc.fields == nil {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.Invalid {
				t.Fatalf("err %v, want field errors", err)
			}
			var got []string
			for k := range e.Fields {
				got = append(got, k)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.fields) {
				t.Fatalf("fields %v, want %v (%v)", got, tc.fields, e.Fields)
			}
			if !kyc.Empty() {
				t.Fatal("identifiers returned with a validation error")
			}
		})
	}
}

// The hit log's payload never holds the full identifiers, valid or not.
func TestRequestMasked(t *testing.T) {
	r := valid()
	r.Aadhaar = "2341 2341 2346"
	m := r.Masked()
	if m["aadhaar"] != "XXXXXXXX2346" || m["pan"] != "XXXXXX234F" || m["name"] != "Asha Rao" || m["reference_id"] != "ao-1" {
		t.Fatalf("%v", m)
	}
	r.Aadhaar = "12345678901234567" // invalid, still masked
	if m := r.Masked(); m["aadhaar"] != "XXXXXXXXXXXXX4567" {
		t.Fatalf("%v", m)
	}
}

func TestSame(t *testing.T) {
	a, _, _ := accountopen.New(valid(), now)
	b, _, _ := accountopen.New(valid(), now.Add(time.Hour))
	if !a.Same(b) {
		t.Fatal("a retry is not the same")
	}
	r := valid()
	r.Address = "elsewhere"
	c, _, _ := accountopen.New(r, now)
	if a.Same(c) {
		t.Fatal("another address is the same")
	}
	r = valid()
	r.Aadhaar = "999999992346" // only the mask is kept: same last four digits
	d, _, _ := accountopen.New(r, now)
	if !a.Same(d) {
		t.Fatal("same masks differ")
	}
}

func TestApply(t *testing.T) {
	url := "https://kyc.example/aco_1"
	initiated := accountopen.Opening{ID: 1, Status: accountopen.StatusInitiated}
	pending := initiated
	pending.Status, pending.KYCURL = accountopen.StatusKYCPending, &url
	opened := pending
	opened.Status, opened.KYCURL = accountopen.StatusOpened, nil
	later := now.Add(time.Minute)
	cases := []struct {
		name    string
		from    accountopen.Opening
		out     accountopen.Outcome
		changed bool
		err     error
		check   func(o accountopen.Opening) bool
	}{
		{"initiated to kyc_pending", initiated, accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: url}, true, nil,
			func(o accountopen.Opening) bool {
				return o.Status == accountopen.StatusKYCPending && *o.KYCURL == url && o.UpdatedAt.Equal(later)
			}},
		{"kyc_pending again", pending, accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: url}, false, nil, nil},
		{"kyc_pending without url", initiated, accountopen.Outcome{Status: accountopen.StatusKYCPending}, false, accountopen.ErrBadOutcome, nil},
		{"opened", pending, accountopen.Outcome{Status: accountopen.StatusOpened, AccountNumber: "50100012345678", IFSC: "SBOX0000001"}, true, nil,
			func(o accountopen.Opening) bool {
				return o.Status == accountopen.StatusOpened && o.KYCURL == nil && *o.AccountNumber == "XXXXXXXXXX5678" && *o.IFSC == "SBOX0000001"
			}},
		{"opened straight from initiated", initiated, accountopen.Outcome{Status: accountopen.StatusOpened, AccountNumber: "50100012345678", IFSC: "SBOX0000001"}, true, nil, nil},
		{"opened without account", pending, accountopen.Outcome{Status: accountopen.StatusOpened}, false, accountopen.ErrBadOutcome, nil},
		{"rejected without reason", pending, accountopen.Outcome{Status: accountopen.StatusRejected}, true, nil,
			func(o accountopen.Opening) bool {
				return o.Status == accountopen.StatusRejected && *o.RejectReason == accountopen.DefaultRejectReason && o.KYCURL == nil
			}},
		{"final stays", opened, accountopen.Outcome{Status: accountopen.StatusRejected, Reason: "late"}, false, nil,
			func(o accountopen.Opening) bool { return o.Status == accountopen.StatusOpened }},
		{"initiated is no answer", pending, accountopen.Outcome{Status: accountopen.StatusInitiated}, false, accountopen.ErrBadOutcome, nil},
		{"unknown status", pending, accountopen.Outcome{Status: "closed"}, false, accountopen.ErrBadOutcome, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			next, changed, err := tc.from.Apply(tc.out, later)
			if changed != tc.changed || !errors.Is(err, tc.err) {
				t.Fatalf("changed %v err %v", changed, err)
			}
			if tc.check != nil && !tc.check(next) {
				t.Fatalf("next %+v", next)
			}
		})
	}
}

func TestBackoffAndClaim(t *testing.T) {
	want := []time.Duration{5 * time.Second, 5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second}
	for i, w := range want {
		if got := accountopen.Backoff(i); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i, got, w)
		}
	}
	if accountopen.Backoff(50) != accountopen.MaxCheckInterval {
		t.Error("no cap")
	}
	o := accountopen.Opening{Attempts: 2}
	next := o.Claim(now)
	if next.Attempts != 3 || !next.NextCheckAt.Equal(now.Add(20*time.Second)) || o.Attempts != 2 {
		t.Fatalf("%+v", next)
	}
	if accountopen.SubmitGrace(15*time.Second) <= 15*time.Second {
		t.Fatal("grace shorter than the provider timeout")
	}
}
