package accounts

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/httpapi/internal/apischema"
	"paygate/adapters/httpapi/web"
	"paygate/core/accounts"
	"paygate/core/accounts/user"
)

// TestOpenAPISchemasAcceptResponses validates bodies the handlers' own
// converters write against the documented schemas.
func TestOpenAPISchemasAcceptResponses(t *testing.T) {
	doc := apischema.Load(t)
	now := time.Date(2025, 3, 1, 10, 30, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	dec := decimal.RequireFromString
	alert := dec("50")

	active := &user.User{
		ID: 7, Name: "Asha", Email: "asha@example.com", Phone: "9876543210", Role: user.RoleReseller,
		Status: user.StatusActive, Plan: user.PlanStarter, Balance: dec("100"), TotalSpent: dec("12.5"),
		APIKey: str("rk_live_abc"), WebhookURL: str("https://example.com/hook"), LowBalanceAlert: &alert,
		EmailVerifiedAt: &now, CreatedAt: now, UpdatedAt: now,
	}
	pending := &user.User{ID: 8, Name: "Ravi", Email: "ravi@example.com", Phone: "9876543211", Role: user.RoleUser,
		Status: user.StatusPending, Plan: user.PlanStarter, DeletedAt: &now}
	key := KeyResponse{ID: 2, Name: "Default", Key: "rk_live_abc", AllowedServices: []uint64{3}, AllowedIPs: "10.0.0.0/8",
		DailyLimit: 1000, HitsToday: 4, LastUsedAt: &now, Status: "active", CreatedAt: &now, UpdatedAt: &now}
	keyWithSecret := key
	keyWithSecret.Secret = "rs_secret"

	cases := []struct {
		name, schema string
		body         any
	}{
		{"user", "User", ToUserResponse(active)},
		{"deleted pending user", "User", ToUserResponse(pending)},
		{"login", "TokenResponse", loginResponse(&accounts.Login{AccessToken: "a.b.c", RefreshToken: "rt_x", ExpiresIn: 15 * time.Minute, User: active})},
		{"user list", "UserList", web.ListResponse[UserResponse]{Data: []UserResponse{ToUserResponse(active)}, Meta: web.ListMeta{Page: 1, PerPage: 20, Total: 1}}},
		{"key", "ApiKey", key},
		{"key with secret", "ApiKeyWithSecret", keyWithSecret},
		{"key list", "ApiKeyList", web.ListResponse[KeyResponse]{Data: []KeyResponse{key}, Meta: web.ListMeta{Page: 1, PerPage: 1, Total: 1}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { apischema.BodyMatches(t, doc, tc.schema, tc.body) })
	}

	// The secret is required where the document promises it.
	b, _ := json.Marshal(key)
	var v any
	_ = json.Unmarshal(b, &v)
	if err := apischema.Object(t, doc, "ApiKeyWithSecret").VisitJSON(v); err == nil {
		t.Error("schema ApiKeyWithSecret accepts a key without its secret")
	}
}
