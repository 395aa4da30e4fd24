package topup_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/money/topup"
	"paygate/core/platform/errs"
)

var max = decimal.RequireFromString("500000.00")

func fields(t *testing.T, err error) map[string][]string {
	t.Helper()
	if err == nil {
		return nil
	}
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid || e.Fields == nil {
		t.Fatalf("want a validation error, got %v", err)
	}
	return e.Fields
}

func TestNewValidates(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.FixedZone("IST", 5*3600+1800))
	ok := topup.Input{Amount: "1500.50", UTRNumber: " 412345678901 ", PaymentMethod: "", Remarks: " paid from HDFC "}
	cases := []struct {
		name  string
		mut   func(*topup.Input)
		field string // "" = valid
	}{
		{"valid", func(*topup.Input) {}, ""},
		{"whole amount", func(in *topup.Input) { in.Amount = "100" }, ""},
		{"one place", func(in *topup.Input) { in.Amount = "100.5" }, ""},
		{"the maximum", func(in *topup.Input) { in.Amount = "500000.00" }, ""},
		{"smallest", func(in *topup.Input) { in.Amount = "0.01" }, ""},
		{"missing amount", func(in *topup.Input) { in.Amount = " " }, "amount"},
		{"zero", func(in *topup.Input) { in.Amount = "0.00" }, "amount"},
		{"negative", func(in *topup.Input) { in.Amount = "-5" }, "amount"},
		{"three places", func(in *topup.Input) { in.Amount = "10.005" }, "amount"},
		{"exponent", func(in *topup.Input) { in.Amount = "1e3" }, "amount"},
		{"not a number", func(in *topup.Input) { in.Amount = "ten" }, "amount"},
		{"comma", func(in *topup.Input) { in.Amount = "1,000" }, "amount"},
		{"over the maximum", func(in *topup.Input) { in.Amount = "500000.01" }, "amount"},
		{"beyond the column", func(in *topup.Input) { in.Amount = "99999999999.99" }, "amount"},
		{"missing utr", func(in *topup.Input) { in.UTRNumber = "  " }, "utr_number"},
		{"short utr", func(in *topup.Input) { in.UTRNumber = "12345" }, "utr_number"},
		{"long utr", func(in *topup.Input) { in.UTRNumber = strings.Repeat("9", 51) }, "utr_number"},
		{"longest utr", func(in *topup.Input) { in.UTRNumber = strings.Repeat("9", 50) }, ""},
		{"rtgs utr", func(in *topup.Input) { in.UTRNumber = "hdfcr52026030112345678" }, ""},
		{"hyphenated utr", func(in *topup.Input) { in.UTRNumber = "NEFT-2026-0001" }, ""},
		{"utr with space", func(in *topup.Input) { in.UTRNumber = "4123 4567 8901" }, "utr_number"},
		{"utr with slash", func(in *topup.Input) { in.UTRNumber = "../412345678901" }, "utr_number"},
		{"utr with quote", func(in *topup.Input) { in.UTRNumber = "41234567'OR'1" }, "utr_number"},
		{"utr double hyphen", func(in *topup.Input) { in.UTRNumber = "NEFT--20260001" }, "utr_number"},
		{"utr leading hyphen", func(in *topup.Input) { in.UTRNumber = "-NEFT20260001" }, "utr_number"},
		{"utr non-ascii", func(in *topup.Input) { in.UTRNumber = "४१२३४५६७८९०१" }, "utr_number"},
		{"method neft", func(in *topup.Input) { in.PaymentMethod = "NEFT" }, ""},
		{"method bank_transfer", func(in *topup.Input) { in.PaymentMethod = "bank_transfer" }, ""},
		{"unknown method", func(in *topup.Input) { in.PaymentMethod = "bitcoin" }, "payment_method"},
		{"long remarks", func(in *topup.Input) { in.Remarks = strings.Repeat("r", 1001) }, "remarks"},
		{"1000 letters of Hindi", func(in *topup.Input) { in.Remarks = strings.Repeat("भ", 1000) }, ""},
		{"remarks not UTF-8", func(in *topup.Input) { in.Remarks = "paid \xff\xfe" }, "remarks"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := ok
			tc.mut(&in)
			r, err := topup.New(7, in, max, now)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if r.UserID != 7 || r.Status != topup.StatusPending || r.ApprovedBy != nil || r.ApprovedAt != nil || r.AdminRemarks != nil {
					t.Fatalf("not a fresh pending request: %+v", r)
				}
				if !r.CreatedAt.Equal(now) || r.CreatedAt.Location() != time.UTC {
					t.Fatalf("created_at %v, want %v in UTC", r.CreatedAt, now)
				}
				return
			}
			f := fields(t, err)
			if len(f[tc.field]) == 0 || len(f) != 1 {
				t.Fatalf("errors %v, want one on %s", f, tc.field)
			}
		})
	}
}

func TestNewNormalises(t *testing.T) {
	r, err := topup.New(1, topup.Input{Amount: "100.5", UTRNumber: " axis-12345678 ", PaymentMethod: " IMPS ", Remarks: "  "}, max, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if r.UTRNumber != "AXIS-12345678" || r.PaymentMethod != "imps" || r.Remarks != nil || r.Amount.String() != "100.5" {
		t.Fatalf("normalised to %q %q %v %s", r.UTRNumber, r.PaymentMethod, r.Remarks, r.Amount)
	}
	r, err = topup.New(1, topup.Input{Amount: "1", UTRNumber: "123456789012", Remarks: " hi "}, max, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if r.PaymentMethod != "upi" || r.Remarks == nil || *r.Remarks != "hi" {
		t.Fatalf("defaults: %q %v", r.PaymentMethod, r.Remarks)
	}
	// Every problem is reported at once.
	_, err = topup.New(1, topup.Input{Amount: "0", UTRNumber: "", PaymentMethod: "gold"}, max, time.Now())
	if f := fields(t, err); len(f) != 3 {
		t.Fatalf("errors %v, want amount, utr_number and payment_method", f)
	}
	// The configured maximum is named in the message.
	_, err = topup.New(1, topup.Input{Amount: "1000.01", UTRNumber: "123456789012"}, decimal.RequireFromString("1000"), time.Now())
	if f := fields(t, err); !slices.Contains(f["amount"], "must be at most 1000.00") {
		t.Fatalf("errors %v", f)
	}
}

func TestDecisions(t *testing.T) {
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	fresh := func() *topup.Request {
		r, err := topup.New(3, topup.Input{Amount: "10", UTRNumber: "123456789012"}, max, now.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("approve without remarks", func(t *testing.T) {
		r := fresh()
		if err := r.Approve(1, now, "  "); err != nil {
			t.Fatal(err)
		}
		if r.Status != topup.StatusApproved || *r.ApprovedBy != 1 || !r.ApprovedAt.Equal(now) || r.AdminRemarks != nil || !r.UpdatedAt.Equal(now) {
			t.Fatalf("%+v", r)
		}
		if err := r.Approve(2, now, ""); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("second approve: %v", err)
		}
		if err := r.Reject(2, now, "late"); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("reject after approve: %v", err)
		}
		if *r.ApprovedBy != 1 || r.Status != topup.StatusApproved {
			t.Fatal("a refused decision changed the request")
		}
	})
	t.Run("approve with remarks", func(t *testing.T) {
		r := fresh()
		if err := r.Approve(1, now, " checked statement "); err != nil || *r.AdminRemarks != "checked statement" {
			t.Fatalf("%v %v", err, r.AdminRemarks)
		}
	})
	t.Run("reject needs remarks", func(t *testing.T) {
		r := fresh()
		if f := fields(t, r.Reject(1, now, " ")); len(f["admin_remarks"]) != 1 {
			t.Fatalf("errors %v", f)
		}
		if f := fields(t, r.Reject(1, now, strings.Repeat("x", 1001))); len(f["admin_remarks"]) != 1 {
			t.Fatalf("errors %v", f)
		}
		if r.Status != topup.StatusPending || r.ApprovedBy != nil {
			t.Fatal("a refused rejection changed the request")
		}
		if err := r.Reject(4, now, "no such transfer"); err != nil {
			t.Fatal(err)
		}
		if r.Status != topup.StatusRejected || *r.ApprovedBy != 4 || *r.AdminRemarks != "no such transfer" {
			t.Fatalf("%+v", r)
		}
		if err := r.Approve(1, now, ""); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("approve after reject: %v", err)
		}
	})
	if e, _ := errs.As(topup.ErrAlreadyDecided); e.Kind != errs.Conflict || e.Message != "Balance request already decided" {
		t.Fatalf("ErrAlreadyDecided = %+v", e)
	}
}

func TestFileTypeOf(t *testing.T) {
	cases := []struct {
		name string
		head string
		want topup.FileType
		ok   bool
	}{
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR", topup.PNG, true},
		{"jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF", topup.JPEG, true},
		{"webp", "RIFF\x1a\x00\x00\x00WEBPVP8L", topup.WebP, true},
		{"pdf", "%PDF-1.7\n", topup.PDF, true},
		{"text named png", "this is not a png", topup.FileType{}, false},
		{"truncated png", "\x89PNG\r\n", topup.FileType{}, false},
		{"riff wave", "RIFF\x1a\x00\x00\x00WAVEfmt ", topup.FileType{}, false},
		{"short riff", "RIFF\x1a\x00", topup.FileType{}, false},
		{"gif", "GIF89a\x01\x00", topup.FileType{}, false},
		{"svg", "<svg xmlns=", topup.FileType{}, false},
		{"html", "<!doctype html>", topup.FileType{}, false},
		{"empty", "", topup.FileType{}, false},
	}
	for _, tc := range cases {
		got, ok := topup.FileTypeOf([]byte(tc.head))
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: FileTypeOf = %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFileNames(t *testing.T) {
	now := time.Now()
	seen := map[string]bool{}
	for _, ft := range []topup.FileType{topup.PNG, topup.JPEG, topup.WebP, topup.PDF} {
		name := topup.NewFileName(ft, now)
		if len(name) != 26+1+len(ft.Ext) || !strings.HasSuffix(name, "."+ft.Ext) || seen[name] {
			t.Errorf("NewFileName(%v) = %q", ft, name)
		}
		seen[name] = true
		if got, ok := topup.FileTypeOfName(name); !ok || got != ft {
			t.Errorf("FileTypeOfName(%q) = %v %v", name, got, ok)
		}
	}
	for _, bad := range []string{"x", "x.gif", "x.png.exe", ""} {
		if _, ok := topup.FileTypeOfName(bad); ok {
			t.Errorf("FileTypeOfName(%q) accepted", bad)
		}
	}
	if !topup.PNG.Image() || topup.PDF.Image() {
		t.Error("Image() is off")
	}
}
