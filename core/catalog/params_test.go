package catalog

import (
	"encoding/json"
	"testing"

	"paygate/core/errs"
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
