package metering

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
)

// TestOpenAPISchemasMatchDTOs checks each schema's properties against the
// json tags of the DTO it documents (apischema.DTOMatches).
func TestOpenAPISchemasMatchDTOs(t *testing.T) {
	doc := apischema.Load(t)
	cases := []struct {
		schema string
		dto    any
	}{
		{"Transaction", TransactionResponse{}},
		{"HitLog", HitResponse{}},
		{"CallEnvelope", callEnvelope{}},
		{"TransactionList", web.ListResponse[TransactionResponse]{}},
		{"HitLogList", HitListResponse{}},
	}
	for _, tc := range cases {
		t.Run(tc.schema, func(t *testing.T) { apischema.DTOMatches(t, doc, tc.schema, tc.dto, true) })
	}
}

// TestOpenAPISchemasAcceptResponses validates bodies the handlers' own
// converters write against the documented schemas.
func TestOpenAPISchemasAcceptResponses(t *testing.T) {
	doc := apischema.Load(t)
	now := time.Date(2025, 3, 1, 10, 30, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	id := func(n uint64) *uint64 { return &n }
	dec := decimal.RequireFromString

	entry := &ledger.Entry{ID: 9, UserID: 7, TxnID: "TXN012345678901234567890123456789012345678", Type: ledger.Debit,
		Amount: dec("0.5"), BalanceBefore: dec("100"), BalanceAfter: dec("99.5"), ReferenceType: ledger.RefAPIHit,
		ReferenceID: id(11), Description: "API call", Status: "completed", CreatedAt: now}
	rid := "req_01J9Z8X4K3M2N1P0Q9R8S7T6V5"
	hit := &hitlog.Hit{ID: 11, UserID: 7, ServiceID: 3, APIKeyID: 2, RequestID: rid, RequestPayload: `{"phone":"9876543210"}`,
		ResponsePayload: str("not json"), ChargeAmount: dec("0.5"), IPAddress: "203.0.113.7", Status: hitlog.StatusSuccess, CreatedAt: now}
	pendingHit := &hitlog.Hit{ID: 12, RequestID: rid, Status: hitlog.StatusPending}

	cases := []struct {
		name, schema string
		body         any
	}{
		{"transaction", "Transaction", ToTransactionResponse(entry)},
		{"transaction list", "TransactionList", web.ListResponse[TransactionResponse]{Data: []TransactionResponse{ToTransactionResponse(entry)}, Meta: web.ListMeta{Page: 1, PerPage: 20, Total: 1}}},
		{"hit", "HitLog", ToHitResponse(hit)},
		{"pending hit", "HitLog", ToHitResponse(pendingHit)},
		{"hit list", "HitLogList", HitListResponse{Data: []HitResponse{ToHitResponse(hit)}, Meta: web.WindowMeta{ListMeta: web.ListMeta{Page: 1, PerPage: 20, Total: 1}}, PayloadRetentionSeconds: 7776000}},
		{"call", "CallEnvelope", callEnvelope{Success: true, RequestID: rid, Data: json.RawMessage(`{"message_id":"MSG1"}`), Charged: "0.5000", BalanceLeft: "99.50"}},
		{"call with array data", "CallEnvelope", callEnvelope{Success: true, RequestID: rid, Data: json.RawMessage(`[1,2]`), Charged: "0.0000", BalanceLeft: "0.00"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { apischema.BodyMatches(t, doc, tc.schema, tc.body) })
	}
}
