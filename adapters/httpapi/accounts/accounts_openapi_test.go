package accounts

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/session"
)

// TestOpenAPIAccountSchemas keeps the account routes' schemas in step with
// their DTOs (names, and for responses which fields are always written) and
// validates bodies the converters write.
func TestOpenAPIAccountSchemas(t *testing.T) {
	doc := apischema.Load(t)
	for _, tc := range []struct {
		schema   string
		dto      any
		response bool
	}{
		{"RegisterRequest", registerRequest{}, false},
		{"VerifyEmailRequest", verifyEmailRequest{}, false},
		{"ForgotPasswordRequest", forgotPasswordRequest{}, false},
		{"ResetPasswordRequest", resetPasswordRequest{}, false},
		{"PatchMeRequest", patchMeRequest{}, false},
		{"Message", messageResponse{}, true},
		{"Session", sessionResponse{}, true},
		{"SessionList", web.ListResponse[sessionResponse]{}, true},
	} {
		t.Run(tc.schema, func(t *testing.T) {
			s := apischema.Object(t, doc, tc.schema)
			fields := apischema.JSONFields(reflect.TypeOf(tc.dto))
			for name, always := range fields {
				if s.Properties[name] == nil {
					t.Errorf("%T field %q is not a property of schema %s", tc.dto, name, tc.schema)
				} else if tc.response && always != slices.Contains(s.Required, name) {
					t.Errorf("schema %s: %q required = %v, but the DTO always writes it = %v", tc.schema, name, !always, always)
				}
			}
			for name := range s.Properties {
				if _, ok := fields[name]; !ok {
					t.Errorf("schema %s property %q is not a field of %T", tc.schema, name, tc.dto)
				}
			}
			if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
				t.Errorf("schema %s should set additionalProperties: false", tc.schema)
			}
		})
	}

	now := time.Date(2025, 3, 1, 10, 30, 0, 0, time.UTC)
	fresh := &session.Token{ID: 3, Name: "Mozilla/5.0", CreatedAt: now, ExpiresAt: now.Add(30 * 24 * time.Hour)}
	used := *fresh
	used.LastUsedAt = &now
	for _, tc := range []struct {
		name, schema string
		body         any
	}{
		{"message", "Message", messageResponse{Message: forgotMessage}},
		{"fresh session", "Session", toSessionResponse(3)(fresh)},
		{"used session", "Session", toSessionResponse(9)(&used)},
		{"session list", "SessionList", web.ListResponse[sessionResponse]{Data: []sessionResponse{toSessionResponse(3)(fresh)}, Meta: web.ListMeta{Page: 1, PerPage: 20, Total: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(tc.body)
			var v any
			_ = json.Unmarshal(b, &v)
			if err := apischema.Object(t, doc, tc.schema).VisitJSON(v, openapi3.VisitAsResponse(), openapi3.EnableFormatValidation(), openapi3.MultiErrors()); err != nil {
				t.Errorf("%s does not match schema %s: %v\nbody: %s", tc.name, tc.schema, err, b)
			}
		})
	}
}
