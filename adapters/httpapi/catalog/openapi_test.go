package catalog

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/catalogadmin"
	"paygate/core/catalog/pricing"
)

// TestOpenAPISchemasAcceptResponses validates bodies the handlers' own
// converters write against the documented schemas.
func TestOpenAPISchemasAcceptResponses(t *testing.T) {
	doc := apischema.Load(t)
	now := time.Date(2025, 3, 1, 10, 30, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	id := func(n uint64) *uint64 { return &n }
	dec := decimal.RequireFromString
	alert := dec("50")

	active := &user.User{
		ID: 7, Name: "Asha", Email: "asha@example.com", Phone: "9876543210", Role: user.RoleReseller,
		Status: user.StatusActive, Plan: user.PlanStarter, Balance: dec("100"), TotalSpent: dec("12.5"),
		APIKey: str("rk_live_abc"), WebhookURL: str("https://example.com/hook"), LowBalanceAlert: &alert,
		EmailVerifiedAt: &now, CreatedAt: now, UpdatedAt: now,
	}
	admin := &user.User{ID: 1, Role: user.RoleAdmin}
	svc := &catalog.Service{
		ID: 3, Name: "SMS", Slug: "sms-gateway-api", Category: "sms", ProviderURL: "https://sms.example.com/send",
		ProviderKey: str("secret"), Method: "POST", Headers: map[string]string{"X-Key": "{provider_key}"},
		Parameters: map[string]string{"phone": "string"}, Status: catalog.StatusActive, CreatedAt: now, UpdatedAt: now,
	}
	prices := map[uint64]catalogadmin.ServicePrice{3: {Charge: dec("0.5"), MinimumHitCharge: dec("0.1")}}
	bare := &catalog.Service{ID: 4, Name: "UPI", Slug: "upi-verification-api", Method: "GET", Status: catalog.StatusInactive}
	maxLen := 160
	docRec := &catalog.Doc{
		ID: 2, ServiceID: 3, Endpoint: "/api/v1/sms-gateway-api", Method: "POST", Description: "Send an SMS",
		RequestParams:   map[string]catalog.ParamSpec{"message": {Type: "string", Required: true, MaxLength: &maxLen}, "phone": {Type: "string", Required: true, Pattern: str(`^\d{10}$`)}},
		ResponseExample: map[string]any{"message_id": "MSG1"}, ErrorCodes: map[string]string{"422": "Invalid parameters"},
		CreatedAt: now, UpdatedAt: now,
	}
	price := &pricing.Price{ID: 5, ServiceID: 3, UserID: id(7), AdminCost: dec("0.25"), UserPrice: dec("0.5"),
		ResellerPrice: dec("0.4"), MinimumHitCharge: dec("0.1"), Status: pricing.StatusActive, CreatedAt: now, UpdatedAt: now}

	cases := []struct {
		name, schema string
		body         any
	}{
		{"service as admin", "Service", toServiceResponse(admin, prices)(svc)},
		{"service as user", "Service", toServiceResponse(active, prices)(svc)},
		{"service not sold", "Service", toServiceResponse(active, nil)(svc)},
		{"bare service as admin", "Service", toServiceResponse(admin, nil)(bare)},
		{"service list", "ServiceList", web.ListResponse[serviceResponse]{Data: []serviceResponse{toServiceResponse(active, prices)(svc)}, Meta: web.ListMeta{Page: 2, PerPage: 10, Total: 11}}},
		{"doc", "ServiceDoc", toDocResponse(docRec)},
		{"price", "Price", toPriceResponse(price)},
		{"default price", "Price", toPriceResponse(&pricing.Price{ID: 6, ServiceID: 3, Status: pricing.StatusInactive})},
		{"empty price list", "PriceList", web.ListResponse[priceResponse]{Data: []priceResponse{}, Meta: web.ListMeta{Page: 1, PerPage: 20, Total: 0}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { apischema.BodyMatches(t, doc, tc.schema, tc.body) })
	}
}
