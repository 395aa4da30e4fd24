package catalog

import (
	"encoding/json"
	"slices"
	"testing"

	"paygate/core/platform/errs"
)

func ptr[T any](v T) *T { return &v }

func TestValidateParams(t *testing.T) {
	specs := map[string]ParamSpec{
		"phone":   {Type: "string", Required: true, Pattern: ptr(`^[0-9]{10}$`)},
		"message": {Type: "string", Required: true, MaxLength: ptr(160)},
		"dob":     {Type: "date"},
		"count":   {Type: "integer"},
		"amount":  {Type: "number"},
		"flag":    {Type: "boolean"},
	}
	long := make([]byte, 161)
	for i := range long {
		long[i] = 'a'
	}
	cases := []struct {
		name    string
		params  map[string]any
		badKeys []string
	}{
		{"valid", map[string]any{"phone": "9876543210", "message": "hi", "dob": "1990-01-31", "count": json.Number("3"), "amount": json.Number("1.5"), "flag": true}, nil},
		{"query strings", map[string]any{"phone": "9876543210", "message": "hi", "count": "3", "flag": "false", "amount": "2.5"}, nil},
		{"missing required", map[string]any{}, []string{"phone", "message"}},
		{"pattern and length", map[string]any{"phone": "12345", "message": string(long)}, []string{"phone", "message"}},
		// Found by FuzzValidateParams: ParseFloat's NaN, Inf and hex floats are no numbers here.
		{"number text", map[string]any{"phone": "9876543210", "message": "x", "amount": "NaN"}, []string{"amount"}},
		{"hex number", map[string]any{"phone": "9876543210", "message": "x", "amount": "0x1p3"}, []string{"amount"}},
		{"exponent number", map[string]any{"phone": "9876543210", "message": "x", "amount": "-2.5e-3"}, nil},
		{"types", map[string]any{"phone": "9876543210", "message": "x", "dob": "31-01-1990", "count": json.Number("1.5"), "flag": "yes", "amount": "abc"}, []string{"dob", "count", "flag", "amount"}},
		{"wrong json type", map[string]any{"phone": json.Number("9876543210"), "message": "x"}, []string{"phone"}},
		{"unknown", map[string]any{"phone": "9876543210", "message": "x", "extra": "1"}, []string{"extra"}},
	}
	for _, c := range cases {
		err := ValidateParams(specs, c.params)
		if len(c.badKeys) == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		e, _ := errs.As(err)
		for _, k := range c.badKeys {
			if _, ok := e.Fields[k]; !ok {
				t.Errorf("%s: no error for %s (%v)", c.name, k, e.Fields)
			}
		}
		if len(e.Fields) != len(c.badKeys) {
			t.Errorf("%s: errors %v, want only %v", c.name, e.Fields, c.badKeys)
		}
	}
	if err := ValidateParams(nil, map[string]any{"anything": 1}); err != nil {
		t.Errorf("no specs must pass everything: %v", err)
	}
}

func TestServiceValidate(t *testing.T) {
	ok := Service{Name: "SMS", Slug: "sms-api", Category: "messaging", ProviderURL: "https://example.com/sms"}
	if err := ok.Validate(); err != nil || ok.Method != "POST" || ok.Status != StatusActive {
		t.Fatalf("valid service refused: %v", err)
	}
	bad := []Service{
		{Name: "x", Slug: "panel", Category: "c", ProviderURL: "https://e.com"},
		{Name: "x", Slug: "Bad Slug", Category: "c", ProviderURL: "https://e.com"},
		{Name: "x", Slug: "ok", Category: "c", ProviderURL: "ftp://e.com"},
		{Name: "x", Slug: "ok", Category: "c", ProviderURL: "https://e.com", Method: "PATCH"},
		{Name: "x", Slug: "ok", Category: "c", ProviderURL: "https://e.com", Headers: map[string]string{"X": "a\r\nb"}},
		{Name: "x", Slug: "ok", Category: "c", ProviderURL: "https://e.com", Parameters: map[string]string{"p": "blob"}},
	}
	for i, s := range bad {
		if err := s.Validate(); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}

// A service with a sensitive parameter keeps only documented parameters,
// and masks every spelling of a sensitive name.
func TestStoredDropsUndocumentedAndMasksEverySpellingOfASensitiveName(t *testing.T) {
	const full = "234567890124"
	c := Compile(map[string]ParamSpec{
		"aadhaar_number": {Type: "string", Sensitive: true},
		"name":           {Type: "string"},
	})
	params := map[string]any{
		"aadhaar_number": full, "Aadhaar_Number": full, "aadhaar-number": full, "AADHAAR NUMBER": full,
		"AadhaarNumber": full, "ａａｄｈａａｒ＿ｎｕｍｂｅｒ": full, "aadhaar.number": json.Number(full),
		"aadhaar": full, "uid": full, full: "x", "name": "Asha",
	}
	stored, values, dropped := c.Stored(params)
	b, _ := json.Marshal(stored)
	want := `{"AADHAAR NUMBER":"XXXXXXXX0124","AadhaarNumber":"XXXXXXXX0124","Aadhaar_Number":"XXXXXXXX0124",` +
		`"aadhaar-number":"XXXXXXXX0124","aadhaar.number":"XXXXXXXX0124","aadhaar_number":"XXXXXXXX0124",` +
		`"name":"Asha","ａａｄｈａａｒ＿ｎｕｍｂｅｒ":"XXXXXXXX0124"}`
	if string(b) != want {
		t.Errorf("stored %s\nwant   %s", b, want)
	}
	if len(values) != 7 || values[0] != full {
		t.Errorf("values to scrub: %q", values)
	}
	if want := []string{full, "aadhaar", "uid"}; !slices.Equal(dropped, want) {
		t.Errorf("dropped %q, want %q", dropped, want)
	}
	if params["Aadhaar_Number"] != full || len(params) != 11 {
		t.Error("Stored changed the parameters that go upstream")
	}
	// Without a sensitive parameter nothing is dropped.
	plain := map[string]any{"name": "Asha", "extra": 1}
	if got, _, _ := Compile(map[string]ParamSpec{"name": {Type: "string"}}).Stored(plain); len(got) != 2 {
		t.Errorf("plain service: %v", got)
	}
}
