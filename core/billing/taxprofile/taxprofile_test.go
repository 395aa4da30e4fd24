package taxprofile

import (
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/billing/gst"
	"paygate/core/platform/errs"
)

// Real-format GSTINs: Maharashtra (27), Karnataka (29).
const (
	gstinMH = "27AAPFU0939F1ZV"
	gstinKA = "29AAGCB7383J1Z4"
)

func fields(t *testing.T, err error) map[string][]string {
	t.Helper()
	if err == nil {
		return nil
	}
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.Invalid {
		t.Fatalf("not a validation error: %v", err)
	}
	return e.Fields
}

func validSupplier() Supplier {
	return Supplier{LegalName: "Paygate Technologies Private Limited", Address: "4th Floor, Tower B\nBandra Kurla Complex\nMumbai 400051",
		State: "27", GSTIN: gstinMH, BankName: "HDFC Bank", AccountName: "Paygate Technologies Private Limited",
		AccountNumber: "50200012345678", IFSC: "HDFC0000240", UPI: "paygate@hdfcbank"}
}

func TestSupplierValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(s *Supplier)
		field string // "" when valid
	}{
		{"valid", func(s *Supplier) {}, ""},
		{"no GSTIN (unregistered)", func(s *Supplier) { s.GSTIN = "" }, ""},
		{"no bank, no UPI", func(s *Supplier) { s.BankName, s.AccountName, s.AccountNumber, s.IFSC, s.UPI = "", "", "", "", "" }, ""},
		{"lower-case GSTIN with spaces", func(s *Supplier) { s.GSTIN = "  27aapfu0939f1zv " }, ""},
		{"PAN given, the GSTIN's", func(s *Supplier) { s.PAN = "aapfu0939f" }, ""},
		{"PAN without GSTIN", func(s *Supplier) { s.GSTIN, s.PAN = "", "AAPFU0939F" }, ""},
		{"account number with spaces", func(s *Supplier) { s.AccountNumber = "5020 0012 3456 78" }, ""},
		{"prefix of digits", func(s *Supplier) { s.InvoicePrefix = "26" }, ""},
		{"missing legal name", func(s *Supplier) { s.LegalName = "  " }, "legal_name"},
		{"long legal name", func(s *Supplier) { s.LegalName = strings.Repeat("a", 201) }, "legal_name"},
		{"legal name on two lines", func(s *Supplier) { s.LegalName = "A\nB" }, "legal_name"},
		{"missing address", func(s *Supplier) { s.Address = "\n \n" }, "address"},
		{"address of 7 lines", func(s *Supplier) { s.Address = "1\n2\n3\n4\n5\n6\n7" }, "address"},
		{"address with a tab", func(s *Supplier) { s.Address = "a\tb" }, "address"},
		{"missing state", func(s *Supplier) { s.State, s.GSTIN = "", "" }, "state"},
		{"unknown state", func(s *Supplier) { s.State, s.GSTIN = "28", "" }, "state"},
		{"GSTIN of another state", func(s *Supplier) { s.GSTIN = gstinKA }, "gstin"},
		{"GSTIN wrong check character", func(s *Supplier) { s.GSTIN = "27AAPFU0939F1ZW" }, "gstin"},
		{"GSTIN unknown state code", func(s *Supplier) { s.GSTIN = "28AAPFU0939F1ZV" }, "gstin"},
		{"GSTIN bad shape", func(s *Supplier) { s.GSTIN = "27AAPFU0939F1Z" }, "gstin"},
		{"PAN not the GSTIN's", func(s *Supplier) { s.PAN = "AAGCB7383J" }, "pan"},
		{"PAN bad shape", func(s *Supplier) { s.PAN = "AAPF0939F" }, "pan"},
		{"prefix too long", func(s *Supplier) { s.InvoicePrefix = "PGX" }, "invoice_prefix"},
		{"prefix with a slash", func(s *Supplier) { s.InvoicePrefix = "P/" }, "invoice_prefix"},
		{"SAC outside chapter 99", func(s *Supplier) { s.SAC = "123456" }, "sac_code"},
		{"SAC of 5 digits", func(s *Supplier) { s.SAC = "99831" }, "sac_code"},
		{"account number without IFSC", func(s *Supplier) { s.IFSC = "" }, "ifsc"},
		{"bank name alone", func(s *Supplier) { s.AccountName, s.AccountNumber, s.IFSC = "", "", "" }, "account_number"},
		{"account number of letters", func(s *Supplier) { s.AccountNumber = "ABC123456789" }, "account_number"},
		{"IFSC without the 0", func(s *Supplier) { s.IFSC = "HDFC1000240" }, "ifsc"},
		{"UPI without handle", func(s *Supplier) { s.UPI = "paygate" }, "upi"},
		{"UPI with a space", func(s *Supplier) { s.UPI = "pay gate@hdfcbank" }, "upi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := validSupplier()
			tc.edit(&s)
			s.Normalize()
			fe := fields(t, s.Validate())
			if tc.field == "" {
				if fe != nil {
					t.Fatalf("refused: %v", fe)
				}
				return
			}
			if len(fe[tc.field]) == 0 {
				t.Fatalf("errors %v, want one on %s", fe, tc.field)
			}
		})
	}
}

func TestSupplierNormalize(t *testing.T) {
	s := Supplier{LegalName: " Paygate ", Address: " Line 1 \r\n\r\n Line 2 ", State: " 27 ", GSTIN: " 27aapfu0939f1zv",
		InvoicePrefix: " ab ", AccountNumber: "5020 0012 3456", IFSC: "hdfc0000240", UPI: " PayGate@HDFCBank "}
	s.Normalize()
	want := Supplier{LegalName: "Paygate", Address: "Line 1\nLine 2", State: "27", GSTIN: gstinMH, PAN: "AAPFU0939F",
		InvoicePrefix: "AB", SAC: gst.DefaultSAC, AccountNumber: "502000123456", IFSC: "HDFC0000240", UPI: "paygate@hdfcbank"}
	if s != want {
		t.Fatalf("normalised\n%+v\nwant\n%+v", s, want)
	}
	d := DefaultSupplier()
	if d.InvoicePrefix != "PG" || d.SAC != "998319" || d.LegalName != "" {
		t.Fatalf("default %+v", d)
	}
}

func TestSupplierReadiness(t *testing.T) {
	rate, zero := decimal.RequireFromString("18.00"), decimal.Zero
	s := validSupplier()
	if m := s.Missing(rate); len(m) != 0 || s.Ready(rate) != nil {
		t.Fatalf("complete supplier misses %v", m)
	}
	s.GSTIN = ""
	if m := s.Missing(rate); !slices.Equal(m, []string{"gstin"}) {
		t.Fatalf("unregistered supplier at 18%% misses %v, want gstin", m)
	}
	if m := s.Missing(zero); len(m) != 0 {
		t.Fatalf("unregistered supplier at 0%% (bills of supply) misses %v", m)
	}
	m := DefaultSupplier().Missing(rate)
	if !slices.Equal(m, []string{"legal_name", "address", "state", "gstin"}) {
		t.Fatalf("default supplier misses %v", m)
	}
	err := DefaultSupplier().Ready(rate)
	if e, ok := errs.As(err); !ok || e.Kind != errs.Conflict || e.Code != "billing_settings_incomplete" ||
		!strings.Contains(e.Message, "legal_name, address, state, gstin") {
		t.Fatalf("Ready of the default: %v", err)
	}
}

func TestProfileValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     Profile
		field string
	}{
		{"registered", Profile{LegalName: "Asha Traders", Address: "12 MG Road\nBengaluru 560001", State: "29", GSTIN: gstinKA}, ""},
		{"unregistered", Profile{LegalName: "Asha Verma", Address: "Pune", State: "27"}, ""},
		{"lower-case GSTIN", Profile{LegalName: "A", Address: "B", State: "29", GSTIN: strings.ToLower(gstinKA)}, ""},
		{"state mismatch", Profile{LegalName: "A", Address: "B", State: "27", GSTIN: gstinKA}, "gstin"},
		{"wrong check digit", Profile{LegalName: "A", Address: "B", State: "29", GSTIN: "29AAGCB7383J1Z5"}, "gstin"},
		{"unknown state code in GSTIN", Profile{LegalName: "A", Address: "B", State: "29", GSTIN: "39AAPFU0939F1ZV"}, "gstin"},
		{"bad shape", Profile{LegalName: "A", Address: "B", State: "29", GSTIN: "29-AAGCB7383J1Z4"}, "gstin"},
		{"unknown state", Profile{LegalName: "A", Address: "B", State: "99"}, "state"},
		{"state by name", Profile{LegalName: "A", Address: "B", State: "Karnataka"}, "state"},
		{"no legal name", Profile{Address: "B", State: "29"}, "legal_name"},
		{"no address", Profile{LegalName: "A", State: "29"}, "address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			p.Normalize()
			fe := fields(t, p.Validate())
			if tc.field == "" {
				if fe != nil {
					t.Fatalf("refused: %v", fe)
				}
				return
			}
			if len(fe[tc.field]) == 0 {
				t.Fatalf("errors %v, want one on %s", fe, tc.field)
			}
		})
	}
	p := Profile{LegalName: "A", Address: "B", State: "27", GSTIN: gstinKA}
	fe := fields(t, p.Validate())
	if msg := fe["gstin"][0]; !strings.Contains(msg, "Karnataka (29)") || !strings.Contains(msg, "Maharashtra (27)") {
		t.Fatalf("mismatch message %q names neither state", msg)
	}
}
