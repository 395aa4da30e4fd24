package httpapi

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/shopspring/decimal"

	"paygate/core/taxprofile"
)

// TestOpenAPITaxProfileSchemas keeps the billing settings', billing
// profiles' and states' schemas in step with their DTOs, and validates
// bodies their converters write.
func TestOpenAPITaxProfileSchemas(t *testing.T) {
	doc := loadOpenAPI(t)
	for _, tc := range []struct {
		schema   string
		dto      any
		response bool
	}{
		{"BillingSettings", supplierResponse{}, true},
		{"BillingSettingsInput", supplierRequest{}, false},
		{"BillingProfile", billingProfileResponse{}, true},
		{"BillingProfileInput", billingRequest{}, false},
		{"GstState", gstStateResponse{}, true},
	} {
		t.Run(tc.schema, func(t *testing.T) {
			s := schemaObject(t, doc, tc.schema)
			fields := jsonFields(reflect.TypeOf(tc.dto))
			for name, always := range fields {
				if s.Properties[name] == nil {
					t.Errorf("%T field %q is not a property of schema %s", tc.dto, name, tc.schema)
				} else if tc.response && always != slices.Contains(s.Required, name) {
					t.Errorf("schema %s: %q required = %v, but the DTO always writes it = %v", tc.schema, name, !always, always)
				}
			}
			if tc.response {
				for _, name := range nullableFields(reflect.TypeOf(tc.dto)) {
					if p := s.Properties[name]; p != nil && p.Value != nil && !permitsNull(p.Value) {
						t.Errorf("schema %s: %q can be written as null but is not nullable", tc.schema, name)
					}
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

	now := time.Date(2026, 11, 27, 10, 30, 0, 0, time.UTC)
	full := &taxprofile.Supplier{LegalName: "Paygate Technologies", Address: "BKC\nMumbai", State: "27", GSTIN: "27AAPFU0939F1ZV",
		PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319", BankName: "HDFC Bank", AccountName: "Paygate",
		AccountNumber: "50200012345678", IFSC: "HDFC0000240", UPI: "paygate@hdfcbank", UpdatedAt: now}
	profile := &taxprofile.Profile{UserID: 7, LegalName: "Asha Traders", Address: "Bengaluru", State: "29", GSTIN: "29AAGCB7383J1Z4", UpdatedAt: now}
	for _, tc := range []struct {
		name, schema string
		body         any
	}{
		{"settings never saved", "BillingSettings", toSupplierResponse(taxprofile.DefaultSupplier(), decimal.NewFromInt(18))},
		{"settings", "BillingSettings", toSupplierResponse(full, decimal.NewFromInt(18))},
		{"profile", "BillingProfile", toBillingProfileResponse(profile)},
		{"state", "GstState", gstStateResponse{Code: "27", Name: "Maharashtra"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(tc.body)
			var v any
			_ = json.Unmarshal(b, &v)
			if err := schemaObject(t, doc, tc.schema).VisitJSON(v, openapi3.VisitAsResponse(), openapi3.EnableFormatValidation(), openapi3.MultiErrors()); err != nil {
				t.Errorf("%s does not match schema %s: %v\nbody: %s", tc.name, tc.schema, err, b)
			}
		})
	}
}
