package catalog

import (
	"testing"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/catalog"
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
		{"Service", serviceResponse{}, true, nil},
		{"ServiceDoc", docResponse{}, true, nil},
		{"Price", priceResponse{}, true, nil},
		{"ServiceList", web.ListResponse[serviceResponse]{}, true, nil},
		{"PriceList", web.ListResponse[priceResponse]{}, true, nil},
		{"ServiceCreateRequest", serviceRequest{}, false, nil},
		{"ServicePatchRequest", serviceRequest{}, false, nil},
		{"ServiceDocInput", docBody{}, false, nil},
		{"ParamSpec", catalog.ParamSpec{}, false, nil},
		{"PriceCreateRequest", priceRequest{}, false, nil},
		{"PricePatchRequest", priceRequest{}, false, []string{"user_id"}}, // refused with 422
	}
	for _, tc := range cases {
		t.Run(tc.schema, func(t *testing.T) { apischema.DTOMatches(t, doc, tc.schema, tc.dto, tc.response, tc.skip...) })
	}
}
