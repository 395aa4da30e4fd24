package catalog

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"paygate/core/platform/errs"
	"paygate/core/platform/sensitive"
)

// Specs returns the rules a call's parameters are checked against: the
// documented request_params when the service has docs, else its parameter
// list with every entry optional. nil means "no rules: pass anything".
func Specs(s *Service, d *Doc) map[string]ParamSpec {
	if d != nil && len(d.RequestParams) > 0 {
		return d.RequestParams
	}
	if len(s.Parameters) == 0 {
		return nil
	}
	out := make(map[string]ParamSpec, len(s.Parameters))
	for name, typ := range s.Parameters {
		out[name] = ParamSpec{Type: typ}
	}
	return out
}

// ValidateParams checks params against specs. Query-string values arrive as
// strings, so numbers and booleans are also accepted in their text form.
// Unknown parameters are refused, so a typo is not silently dropped.
func ValidateParams(specs map[string]ParamSpec, params map[string]any) error {
	return Compile(specs).Validate(params)
}

// CompiledSpecs are parameter rules with their patterns compiled once, for
// checking many calls.
type CompiledSpecs struct {
	specs     map[string]ParamSpec
	patterns  map[string]*regexp.Regexp // nil entry: the pattern does not compile (nothing matches)
	sensitive []string                  // names of the sensitive parameters, sorted
	folded    map[string]bool           // sensitive.FoldName of each sensitive name
}

// Compile prepares specs for Validate; nil specs pass anything.
func Compile(specs map[string]ParamSpec) *CompiledSpecs {
	c := &CompiledSpecs{specs: specs}
	for name, spec := range specs {
		if spec.Sensitive {
			c.sensitive = append(c.sensitive, name)
			if c.folded == nil {
				c.folded = map[string]bool{}
			}
			c.folded[sensitive.FoldName(name)] = true
		}
		if spec.Pattern != nil {
			if c.patterns == nil {
				c.patterns = map[string]*regexp.Regexp{}
			}
			re, err := regexp.Compile(*spec.Pattern)
			if err != nil {
				re = nil
			}
			c.patterns[name] = re
		}
	}
	sort.Strings(c.sensitive)
	return c
}

// HasSensitive reports whether any parameter is marked sensitive.
func (c *CompiledSpecs) HasSensitive() bool { return c != nil && len(c.sensitive) > 0 }

// Stored returns params as a service with sensitive parameters keeps them:
// a parameter whose name is not documented is dropped (a misspelt name
// would otherwise keep its value in full), except one that matches a
// sensitive name case- and separator-insensitively (sensitive.FoldName:
// "Aadhaar_Number" for aadhaar_number), which is kept masked like it; the
// values of sensitive parameters are masked (as text: sensitive.Mask of
// their JSON text when they are not strings). values are the full values it
// masked, for scrubbing echoes of them; dropped are the names it dropped
// (a name may be the number itself). params itself is not changed: it is
// what goes upstream. A service without sensitive parameters keeps params.
func (c *CompiledSpecs) Stored(params map[string]any) (stored map[string]any, values, dropped []string) {
	if !c.HasSensitive() || len(params) == 0 {
		return params, nil, nil
	}
	stored = make(map[string]any, len(params))
	for name, v := range params {
		_, documented := c.specs[name]
		switch {
		case c.folded[sensitive.FoldName(name)]:
			if v == nil {
				stored[name] = nil
				continue
			}
			text, isString := v.(string)
			if !isString {
				if b, err := json.Marshal(v); err == nil {
					text = string(b)
				} else {
					text = fmt.Sprint(v)
				}
			}
			stored[name] = sensitive.Mask(text)
			values = append(values, text)
		case documented:
			stored[name] = v
		default:
			dropped = append(dropped, name)
		}
	}
	sort.Strings(values)
	sort.Strings(dropped)
	return stored, values, dropped
}

// Validate is ValidateParams with the compiled rules.
func (c *CompiledSpecs) Validate(params map[string]any) error {
	specs := c.specs
	if specs == nil {
		return nil
	}
	fe := errs.FieldErrors{}
	for name, spec := range specs {
		v, ok := params[name]
		if !ok || v == nil || v == "" {
			if spec.Required {
				fe.Add(name, "is required")
			}
			continue
		}
		if msg := checkValue(spec, c.patterns[name], v); msg != "" {
			fe.Add(name, msg)
		}
	}
	for name := range params {
		if _, ok := specs[name]; !ok {
			fe.Add(name, "is not a parameter of this service")
		}
	}
	return fe.Err()
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func checkValue(spec ParamSpec, re *regexp.Regexp, v any) string {
	switch spec.Type {
	case "string", "date":
		s, ok := v.(string)
		if !ok {
			return "must be a string"
		}
		if spec.MaxLength != nil && utf8.RuneCountInString(s) > *spec.MaxLength {
			return "must be at most " + strconv.Itoa(*spec.MaxLength) + " characters"
		}
		if spec.Type == "date" {
			if _, err := time.Parse("2006-01-02", s); err != nil {
				return "must be a date as YYYY-MM-DD"
			}
		}
		if spec.Pattern != nil {
			if re == nil || !re.MatchString(s) {
				return "has an invalid format"
			}
		}
	case "integer":
		switch x := v.(type) {
		case json.Number:
			if _, err := x.Int64(); err != nil {
				return "must be an integer"
			}
		case float64:
			if x != float64(int64(x)) {
				return "must be an integer"
			}
		case string:
			if _, err := strconv.ParseInt(x, 10, 64); err != nil {
				return "must be an integer"
			}
		default:
			return "must be an integer"
		}
	case "number":
		switch x := v.(type) {
		case json.Number, float64:
		case string:
			// JSON's number grammar: ParseFloat alone would take "NaN",
			// "Inf" and "0x1p3" (found by FuzzValidateParams).
			if !jsonNumber.MatchString(x) {
				return "must be a number"
			}
		default:
			return "must be a number"
		}
	case "boolean":
		switch x := v.(type) {
		case bool:
		case string:
			if x != "true" && x != "false" {
				return "must be true or false"
			}
		default:
			return "must be true or false"
		}
	}
	return ""
}
