// Package apischema checks the HTTP handlers' request and response types
// against api/openapi.yaml, for the tests of every area's handlers.
package apischema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"paygate/api"
)

// Load loads api/openapi.yaml with its references resolved. httpapi's
// TestOpenAPIDocumentIsValid validates it; the other tests only need it
// to load, so each reports its own findings.
func Load(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(api.OpenAPI)
	if err != nil {
		t.Fatalf("api/openapi.yaml does not load: %v", err)
	}
	return doc
}

// JSONFields lists the JSON names of a struct's fields, embedded structs
// flattened, with whether each is always present (no omitempty).
func JSONFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			for k, v := range JSONFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out[name] = !strings.Contains(","+opts+",", ",omitempty,")
	}
	return out
}

// NullableFields lists the JSON names of the always-written fields that can
// hold null: pointers and raw JSON. (Maps and slices are left out: their
// converters write empty ones where the document says so.)
func NullableFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			out = append(out, NullableFields(f.Type)...)
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || name == "-" || strings.Contains(","+opts+",", ",omitempty,") {
			continue
		}
		if f.Type.Kind() == reflect.Pointer || f.Type == reflect.TypeOf(json.RawMessage(nil)) {
			out = append(out, name)
		}
	}
	return out
}

// Object returns the object schema of a component, through allOf.
func Object(t *testing.T, doc *openapi3.T, name string) *openapi3.Schema {
	t.Helper()
	ref := doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		t.Fatalf("api/openapi.yaml has no schema %s", name)
	}
	return ref.Value
}

// PermitsNull: the schema is nullable, or one of its anyOf branches is (how
// OpenAPI 3.0 spells "any JSON value or null" with a type on every branch).
func PermitsNull(s *openapi3.Schema) bool {
	if s.Nullable {
		return true
	}
	for _, b := range s.AnyOf {
		if b.Value != nil && b.Value.Nullable {
			return true
		}
	}
	return false
}

// DTOMatches checks a DTO against its schema: every JSON field of dto
// (but skip) is a property and every property a field; for a response, the
// fields always written are required and those that can be null are
// nullable; and the schema is closed (additionalProperties: false).
func DTOMatches(t *testing.T, doc *openapi3.T, schema string, dto any, response bool, skip ...string) {
	t.Helper()
	s := Object(t, doc, schema)
	fields := JSONFields(reflect.TypeOf(dto))
	for _, name := range skip {
		delete(fields, name)
	}
	for name, always := range fields {
		if s.Properties[name] == nil {
			t.Errorf("%T field %q is not a property of schema %s", dto, name, schema)
			continue
		}
		if response && always != slices.Contains(s.Required, name) {
			t.Errorf("schema %s: %q required = %v, but the DTO always writes it = %v", schema, name, !always, always)
		}
	}
	if response {
		for _, name := range NullableFields(reflect.TypeOf(dto)) {
			if p := s.Properties[name]; p != nil && p.Value != nil && !PermitsNull(p.Value) {
				t.Errorf("schema %s: %q can be written as null (%T) but is not nullable", schema, name, dto)
			}
		}
	}
	for name := range s.Properties {
		if _, ok := fields[name]; !ok {
			t.Errorf("schema %s property %q is not a field of %T", schema, name, dto)
		}
	}
	if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
		t.Errorf("schema %s should set additionalProperties: false", schema)
	}
}

// BodyMatches validates body, written as JSON, against schema as a
// response (formats checked).
func BodyMatches(t *testing.T, doc *openapi3.T, schema string, body any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if err := Object(t, doc, schema).VisitJSON(v, openapi3.VisitAsResponse(), openapi3.EnableFormatValidation(), openapi3.MultiErrors()); err != nil {
		t.Errorf("body does not match schema %s: %v\nbody: %s", schema, err, b)
	}
}
