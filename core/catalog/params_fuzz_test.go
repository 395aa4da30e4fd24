package catalog

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"paygate/core/platform/errs"
)

var fuzzTypes = []string{"string", "date", "integer", "number", "boolean", "object"}

// FuzzValidateParams: validation never panics, refuses with a 422 naming the
// parameter, and a value it accepts satisfies the documented rules (type,
// max_length in characters, pattern, date format). Specs without docs make
// every parameter optional.
func FuzzValidateParams(f *testing.F) {
	f.Add(uint8(0), true, 10, `^[0-9]{10}$`, "9876543210", false)
	f.Add(uint8(0), false, 3, "", "héllo", false)
	f.Add(uint8(0), false, -1, `(`, "x", false)
	f.Add(uint8(0), false, -1, `^a+$`, "aaa", false)
	f.Add(uint8(1), true, -1, "", "2026-02-30", false)
	f.Add(uint8(1), false, 10, "", "2026-01-31", false)
	f.Add(uint8(2), false, -1, "", "12", true)
	f.Add(uint8(2), false, -1, "", "1.5", true)
	f.Add(uint8(2), false, -1, "", "99999999999999999999", true)
	f.Add(uint8(2), false, -1, "", "-7", false)
	f.Add(uint8(3), false, -1, "", "1e400", true)
	f.Add(uint8(3), false, -1, "", "NaN", false)
	f.Add(uint8(3), false, -1, "", "0x1p3", false)
	f.Add(uint8(3), false, -1, "", "-2.5e-3", false)
	f.Add(uint8(4), false, -1, "", "true", true)
	f.Add(uint8(4), false, -1, "", "yes", false)
	f.Add(uint8(0), false, -1, "", `{"a":1}`, true)
	f.Add(uint8(5), true, -1, "", "", false)
	f.Fuzz(func(t *testing.T, typ uint8, required bool, maxLen int, pattern, raw string, asJSON bool) {
		spec := ParamSpec{Type: fuzzTypes[int(typ)%len(fuzzTypes)], Required: required}
		if maxLen >= 0 {
			spec.MaxLength = &maxLen
		}
		if pattern != "" {
			spec.Pattern = &pattern
		}
		var v any = raw
		if asJSON { // a JSON body's value (numbers as json.Number, as parseParams decodes)
			dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
			dec.UseNumber()
			if dec.Decode(&v) != nil {
				return
			}
		}
		specs := map[string]ParamSpec{"p": spec}
		err := ValidateParams(specs, map[string]any{"p": v})
		if err != nil {
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.Invalid || len(e.Fields["p"]) == 0 {
				t.Fatalf("refusal %v is not a 422 on p", err)
			}
		} else {
			checkAccepted(t, spec, v)
		}
		// Without docs, the service's parameter list: the same checks, never required.
		svc := &Service{Parameters: map[string]string{"p": spec.Type}}
		if got := Specs(svc, nil)["p"]; got.Required || got.Type != spec.Type || got.Pattern != nil {
			t.Fatalf("spec from parameters %+v", got)
		}
		if Specs(svc, &Doc{RequestParams: specs})["p"].Required != required {
			t.Fatal("docs' request_params not used")
		}
		if ValidateParams(Specs(svc, nil), map[string]any{}) != nil {
			t.Fatal("an undocumented parameter is required")
		}
		if ValidateParams(specs, map[string]any{"p": v, "other": "x"}) == nil {
			t.Fatal("an unknown parameter accepted")
		}
	})
}

func checkAccepted(t *testing.T, spec ParamSpec, v any) {
	t.Helper()
	if v == nil || v == "" {
		if spec.Required {
			t.Fatal("a required parameter accepted empty")
		}
		return
	}
	switch spec.Type {
	case "string", "date":
		s, ok := v.(string)
		if !ok {
			t.Fatalf("%s accepted %T", spec.Type, v)
		}
		if spec.MaxLength != nil && utf8.RuneCountInString(s) > *spec.MaxLength {
			t.Fatalf("%q accepted over max_length %d", s, *spec.MaxLength)
		}
		if spec.Pattern != nil && !regexp.MustCompile(*spec.Pattern).MatchString(s) {
			t.Fatalf("%q accepted against pattern %q", s, *spec.Pattern)
		}
		if _, err := time.Parse("2006-01-02", s); spec.Type == "date" && err != nil {
			t.Fatalf("date %q accepted", s)
		}
	case "integer":
		switch x := v.(type) {
		case json.Number:
			if _, err := x.Int64(); err != nil {
				t.Fatalf("integer %q accepted", x)
			}
		case string:
			if _, err := strconv.ParseInt(x, 10, 64); err != nil {
				t.Fatalf("integer %q accepted", x)
			}
		default:
			t.Fatalf("integer accepted %T", v)
		}
	case "number":
		switch x := v.(type) {
		case json.Number:
		case string:
			if !json.Valid([]byte(x)) || strings.TrimLeft(x, "-0123456789") == x {
				t.Fatalf("number %q accepted: not a JSON number", x)
			}
		default:
			t.Fatalf("number accepted %T", v)
		}
	case "boolean":
		if v != true && v != false && v != "true" && v != "false" {
			t.Fatalf("boolean accepted %v", v)
		}
	}
}
