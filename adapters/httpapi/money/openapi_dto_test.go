package money

import (
	"testing"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
)

// TestOpenAPISchemasMatchDTOs checks each schema's properties against the
// json tags of the DTO it documents: the same names, and for response
// bodies, required exactly when the field is always written.
func TestOpenAPISchemasMatchDTOs(t *testing.T) {
	doc := apischema.Load(t)
	cases := []struct {
		schema   string
		dto      any
		response bool
		skip     []string // DTO fields the document deliberately leaves out
	}{
		{"BalanceRequest", topUpResponse{}, true, nil},
		{"BalanceRequestList", web.ListResponse[topUpResponse]{}, true, nil},
		{"BalanceRequestDecision", decideTopUpRequest{}, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.schema, func(t *testing.T) { apischema.DTOMatches(t, doc, tc.schema, tc.dto, tc.response, tc.skip...) })
	}
}
