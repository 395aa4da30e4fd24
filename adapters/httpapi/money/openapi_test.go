package money

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/money/topup"
)

// TestOpenAPISchemasAcceptResponses validates bodies the handlers' own
// converters write against the documented schemas.
func TestOpenAPISchemasAcceptResponses(t *testing.T) {
	doc := apischema.Load(t)
	now := time.Date(2025, 3, 1, 10, 30, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	id := func(n uint64) *uint64 { return &n }
	dec := decimal.RequireFromString

	cases := []struct {
		name, schema string
		body         any
	}{
		{"balance request", "BalanceRequest", toTopUpResponse(&topup.Request{ID: 4, UserID: 7, Amount: dec("1500.5"), UTRNumber: "412345678901",
			PaymentMethod: "upi", Screenshot: str("01JABCDEFGHJKMNPQRSTVWXYZ0.png"), Remarks: str("HDFC"), Status: topup.StatusPending, CreatedAt: now, UpdatedAt: now})},
		{"decided balance request", "BalanceRequest", toTopUpResponse(&topup.Request{ID: 5, UserID: 7, Amount: dec("10"), UTRNumber: "AXIS-1234",
			PaymentMethod: "neft", Status: topup.StatusRejected, ApprovedBy: id(1), ApprovedAt: &now, AdminRemarks: str("no such transfer")})},
		{"balance request list", "BalanceRequestList", web.ListResponse[topUpResponse]{Data: []topUpResponse{}, Meta: web.ListMeta{Page: 1, PerPage: 20, Total: 0}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { apischema.BodyMatches(t, doc, tc.schema, tc.body) })
	}
}
