package billing

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/core/billing/taxprofile"
)

// TestOpenAPITaxProfileSchemas keeps the billing settings' and states'
// schemas in step with their DTOs, and validates bodies their converters
// write (the billing profile's: accounts' TestOpenAPIBillingProfileSchemas).
func TestOpenAPITaxProfileSchemas(t *testing.T) {
	doc := apischema.Load(t)
	for _, tc := range []struct {
		schema   string
		dto      any
		response bool
	}{
		{"BillingSettings", supplierResponse{}, true},
		{"BillingSettingsInput", supplierRequest{}, false},
		{"GstState", gstStateResponse{}, true},
	} {
		t.Run(tc.schema, func(t *testing.T) { apischema.DTOMatches(t, doc, tc.schema, tc.dto, tc.response) })
	}

	now := time.Date(2026, 11, 27, 10, 30, 0, 0, time.UTC)
	full := &taxprofile.Supplier{LegalName: "Paygate Technologies", Address: "BKC\nMumbai", State: "27", GSTIN: "27AAPFU0939F1ZV",
		PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319", BankName: "HDFC Bank", AccountName: "Paygate",
		AccountNumber: "50200012345678", IFSC: "HDFC0000240", UPI: "paygate@hdfcbank", UpdatedAt: now}
	for _, tc := range []struct {
		name, schema string
		body         any
	}{
		{"settings never saved", "BillingSettings", toSupplierResponse(taxprofile.DefaultSupplier(), decimal.NewFromInt(18))},
		{"settings", "BillingSettings", toSupplierResponse(full, decimal.NewFromInt(18))},
		{"state", "GstState", gstStateResponse{Code: "27", Name: "Maharashtra"}},
	} {
		t.Run(tc.name, func(t *testing.T) { apischema.BodyMatches(t, doc, tc.schema, tc.body) })
	}
}
