package gateway

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/gateway/accountopen"
	"paygate/core/metering"
)

// The account-opening schemas match their DTOs field for field (required
// exactly when always written, nullable where null can be written), the
// request schema lists the fields the handler reads, the state enum the
// domain's states, and the converters' bodies validate.
func TestOpenAPIAccountOpeningSchemas(t *testing.T) {
	doc := apischema.Load(t)
	match := func(schema *openapi3.Schema, name string, dto reflect.Type) {
		t.Helper()
		fields := apischema.JSONFields(dto)
		for f, always := range fields {
			p := schema.Properties[f]
			if p == nil {
				t.Errorf("%s: field %q is not a property", name, f)
				continue
			}
			if always != slices.Contains(schema.Required, f) {
				t.Errorf("%s: %q required = %v, always written = %v", name, f, !always, always)
			}
		}
		for _, f := range apischema.NullableFields(dto) {
			if p := schema.Properties[f]; p != nil && !p.Value.Nullable {
				t.Errorf("%s: %q can be null but is not nullable", name, f)
			}
		}
		for f := range schema.Properties {
			if _, ok := fields[f]; !ok {
				t.Errorf("%s: property %q is not a field of %v", name, f, dto)
			}
		}
	}
	opening := apischema.Object(t, doc, "AccountOpening")
	match(opening, "AccountOpening", reflect.TypeOf(openingResponse{}))
	match(opening.Properties["applicant"].Value, "AccountOpening.applicant", reflect.TypeOf(openingApplicant{}))
	match(apischema.Object(t, doc, "AccountOpeningStatus"), "AccountOpeningStatus", reflect.TypeOf(openingStatusResponse{}))

	var props []string
	for name := range apischema.Object(t, doc, "AccountOpenRequest").Properties {
		props = append(props, name)
	}
	want := slices.Clone(openingFields)
	slices.Sort(props)
	slices.Sort(want)
	if !slices.Equal(props, want) {
		t.Errorf("AccountOpenRequest properties %v, handler fields %v", props, want)
	}
	var states []string
	for _, v := range apischema.Object(t, doc, "AccountOpeningState").Enum {
		states = append(states, v.(string))
		if !accountopen.Status(v.(string)).Valid() {
			t.Errorf("documented state %v is no domain state", v)
		}
	}
	if len(states) != 4 {
		t.Errorf("states %v", states)
	}

	now := time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	pending := accountopen.Opening{ID: 1, PublicID: "aco_01J9Z8X4K3M2N1P0Q9R8S7T6V5", UserID: 7, ReferenceID: "ao-1", Product: "savings",
		Status: accountopen.StatusKYCPending, KYCURL: str("https://sandbox.example/kyc/aco_01J9Z8X4K3M2N1P0Q9R8S7T6V5"),
		Applicant: accountopen.Applicant{Name: "Asha Rao", DOB: "1990-05-17", PAN: "XXXXXX234F", Aadhaar: "XXXXXXXX2346",
			Mobile: "9876543210", Email: "asha@example.com", Address: "12 MG Road"}, CreatedAt: now, UpdatedAt: now}
	opened := pending
	opened.Status, opened.KYCURL, opened.AccountNumber, opened.IFSC, opened.Livemode = accountopen.StatusOpened, nil, str("XXXXXXXXXX5678"), str("SBOX0000001"), true
	rejected := pending
	rejected.Status, rejected.KYCURL, rejected.RejectReason = accountopen.StatusRejected, nil, str("KYC failed")
	charge := metering.Charge{RequestID: "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5", Charged: decimal.Zero, BalanceLeft: decimal.RequireFromString("10")}
	for _, tc := range []struct {
		name, schema string
		body         any
	}{
		{"created", "AccountOpeningEnvelope", envelope(charge, toOpeningResponse(&pending))},
		{"opened", "AccountOpeningStatus", openingStatusResponse{Success: true, Data: toOpeningResponse(&opened)}},
		{"rejected", "AccountOpening", toOpeningResponse(&rejected)},
		{"list", "AccountOpeningList", web.ListResponse[openingResponse]{Data: []openingResponse{toOpeningResponse(&opened)}, Meta: web.ListMeta{Page: 1, PerPage: 20, Total: 1}}},
		{"empty list", "AccountOpeningList", web.ListResponse[openingResponse]{Data: web.MapSlice([]accountopen.Opening{}, toOpeningResponse), Meta: web.ListMeta{Page: 1, PerPage: 20, Total: 0}}},
	} {
		b, _ := json.Marshal(tc.body)
		var v any
		_ = json.Unmarshal(b, &v)
		if err := apischema.Object(t, doc, tc.schema).VisitJSON(v, openapi3.VisitAsResponse(), openapi3.EnableFormatValidation(), openapi3.MultiErrors()); err != nil {
			t.Errorf("%s does not match %s: %v\n%s", tc.name, tc.schema, err, b)
		}
	}
}
