package accounts

import (
	"testing"
	"time"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/core/billing/taxprofile"
)

// TestOpenAPIBillingProfileSchemas keeps the billing profile's schemas in
// step with its DTOs, and validates a body its converter writes (the
// supplier's settings and the states: billing's TestOpenAPITaxProfileSchemas).
func TestOpenAPIBillingProfileSchemas(t *testing.T) {
	doc := apischema.Load(t)
	for _, tc := range []struct {
		schema   string
		dto      any
		response bool
	}{
		{"BillingProfile", billingProfileResponse{}, true},
		{"BillingProfileInput", billingRequest{}, false},
	} {
		t.Run(tc.schema, func(t *testing.T) { apischema.DTOMatches(t, doc, tc.schema, tc.dto, tc.response) })
	}

	now := time.Date(2026, 11, 27, 10, 30, 0, 0, time.UTC)
	profile := &taxprofile.Profile{UserID: 7, LegalName: "Asha Traders", Address: "Bengaluru", State: "29", GSTIN: "29AAGCB7383J1Z4", UpdatedAt: now}
	apischema.BodyMatches(t, doc, "BillingProfile", toBillingProfileResponse(profile))
}
