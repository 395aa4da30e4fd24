package resale

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
		{"CreateCustomerRequest", createCustomerRequest{}, false, nil},
		{"TransferRequest", transferRequest{}, false, nil},
		{"Transfer", transferResponse{}, true, nil},
		{"TransferList", web.ListResponse[transferResponse]{}, true, nil},
		{"ResellerDashboard", resellerDashboardResponse{}, true, nil},
		{"CustomerPrice", customerPriceResponse{}, true, nil},
		{"CustomerPriceList", customerPricesResponse{}, true, nil},
		{"CustomerPriceRequest", customerPriceRequest{}, false, nil},
		{"CustomerMarkup", customerMarkupResponse{}, true, nil},
		{"Commission", commissionResponse{}, true, nil},
		{"CommissionList", web.ListResponse[commissionResponse]{}, true, nil},
	}
	for _, tc := range cases {
		t.Run(tc.schema, func(t *testing.T) { apischema.DTOMatches(t, doc, tc.schema, tc.dto, tc.response, tc.skip...) })
	}
}
