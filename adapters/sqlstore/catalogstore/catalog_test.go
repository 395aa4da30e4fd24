package catalogstore_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/metering/hitlog"
	"paygate/internal/testdb"
)

func TestServices(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		services := s.Stores().Services
		desc, pkey := "Prints an Aadhaar card", "secret-upstream-key"
		svc := sqltest.NewService(t, s, func(svc *catalog.Service) {
			svc.Slug = "aadhaar-print-api"
			svc.Category = "identity"
			svc.Description = &desc
			svc.ProviderKey = &pkey
			svc.Headers = map[string]string{"Authorization": "Bearer {provider_key}"}
			svc.Parameters = map[string]string{"aadhaar_number": "string", "name": "string"}
		})
		builtin := sqltest.NewService(t, s, func(svc *catalog.Service) {
			svc.Slug, svc.Builtin, svc.Method, svc.Status = "payment-create", true, "GET", catalog.StatusInactive
		})

		got, err := services.BySlug(ctx, "aadhaar-print-api")
		if err != nil {
			t.Fatalf("BySlug: %v", err)
		}
		if got.ID != svc.ID || *got.Description != desc || *got.ProviderKey != pkey || got.Method != "POST" ||
			got.Headers["Authorization"] != "Bearer {provider_key}" || got.Parameters["name"] != "string" || got.Builtin {
			t.Fatalf("BySlug = %+v", got)
		}
		got, _ = services.ByID(ctx, builtin.ID)
		if !got.Builtin || got.Method != "GET" || got.Status != catalog.StatusInactive || got.Headers != nil || got.Description != nil {
			t.Fatalf("ByID(builtin) = %+v", got)
		}

		// Duplicate slug on create and on update.
		dup := *svc
		if err := services.Create(ctx, &dup); !errors.Is(err, catalog.ErrSlugTaken) {
			t.Fatalf("duplicate slug err = %v, want ErrSlugTaken", err)
		}
		builtin.Slug = svc.Slug
		if err := services.Update(ctx, builtin); !errors.Is(err, catalog.ErrSlugTaken) {
			t.Fatalf("update to a taken slug err = %v, want ErrSlugTaken", err)
		}

		// Update.
		svc.Name, svc.Description, svc.ProviderKey, svc.Headers = "Renamed", nil, nil, nil
		svc.Status = catalog.StatusInactive
		if err := services.Update(ctx, svc); err != nil {
			t.Fatalf("Update: %v", err)
		}
		got, _ = services.ByID(ctx, svc.ID)
		if got.Name != "Renamed" || got.Description != nil || got.ProviderKey != nil || got.Headers != nil ||
			got.Status != catalog.StatusInactive || got.Parameters["aadhaar_number"] != "string" {
			t.Fatalf("after Update: %+v", got)
		}

		// List, filters and paging.
		for i := 0; i < 3; i++ {
			sqltest.NewService(t, s, func(svc *catalog.Service) { svc.Category = "sms" })
		}
		all, total, err := services.List(ctx, catalog.Filter{})
		if err != nil || total != 5 || len(all) != 5 || all[0].ID < all[1].ID {
			t.Fatalf("List = %d rows, total %d, %v; want 5 newest first", len(all), total, err)
		}
		active, total, _ := services.List(ctx, catalog.Filter{Status: catalog.StatusActive})
		if total != 3 || len(active) != 3 {
			t.Fatalf("active services: %d", total)
		}
		_, total, _ = services.List(ctx, catalog.Filter{Category: "sms", PerPage: 2})
		if total != 3 {
			t.Fatalf("sms services: %d", total)
		}
		found, total, _ := services.List(ctx, catalog.Filter{Q: "AADHAAR"})
		if total != 1 || found[0].ID != svc.ID {
			t.Fatalf("Q=AADHAAR: %d rows", total)
		}

		// Not found.
		if _, err := services.ByID(ctx, 999999); !errors.Is(err, catalog.ErrServiceNotFound) {
			t.Fatalf("ByID(missing) err = %v", err)
		}
		if _, err := services.BySlug(ctx, "nope"); !errors.Is(err, catalog.ErrServiceNotFound) {
			t.Fatalf("BySlug(missing) err = %v", err)
		}
		if err := services.Update(ctx, &catalog.Service{ID: 999999, Slug: "x"}); !errors.Is(err, catalog.ErrServiceNotFound) {
			t.Fatalf("Update(missing) err = %v", err)
		}
		if err := services.Delete(ctx, 999999); !errors.Is(err, catalog.ErrServiceNotFound) {
			t.Fatalf("Delete(missing) err = %v", err)
		}
	})
}

func TestDocsAndCascadingDelete(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		st := s.Stores()
		svc := sqltest.NewService(t, s)
		if _, err := st.Services.Doc(ctx, svc.ID); !errors.Is(err, catalog.ErrDocNotFound) {
			t.Fatalf("Doc before PutDoc err = %v, want ErrDocNotFound", err)
		}
		maxLen := 160
		d := &catalog.Doc{
			ServiceID: svc.ID, Endpoint: "/api/v1/" + svc.Slug, Method: "POST", Description: "Sends an SMS",
			RequestParams: map[string]catalog.ParamSpec{
				"message": {Type: "string", Required: true, MaxLength: &maxLen},
			},
			ResponseExample: map[string]any{"success": true, "data": map[string]any{"message_id": "m1"}},
			ErrorCodes:      map[string]string{"402": "Insufficient balance"},
			SortOrder:       2,
		}
		if err := st.Services.PutDoc(ctx, d); err != nil {
			t.Fatalf("PutDoc: %v", err)
		}
		firstID := d.ID
		got, err := st.Services.Doc(ctx, svc.ID)
		if err != nil {
			t.Fatalf("Doc: %v", err)
		}
		if got.ID != firstID || got.Endpoint != d.Endpoint || got.SortOrder != 2 ||
			*got.RequestParams["message"].MaxLength != 160 || !got.RequestParams["message"].Required ||
			got.ErrorCodes["402"] != "Insufficient balance" || got.ResponseExample["success"] != true {
			t.Fatalf("Doc = %+v", got)
		}

		// PutDoc replaces: still one record, same id, new content.
		d2 := &catalog.Doc{
			ServiceID: svc.ID, Endpoint: "/api/v1/" + svc.Slug, Method: "GET", Description: "Replaced",
			RequestParams: map[string]catalog.ParamSpec{}, ResponseExample: map[string]any{}, ErrorCodes: map[string]string{},
		}
		if err := st.Services.PutDoc(ctx, d2); err != nil {
			t.Fatalf("PutDoc (replace): %v", err)
		}
		got, _ = st.Services.Doc(ctx, svc.ID)
		if d2.ID != firstID || got.ID != firstID || got.Description != "Replaced" || got.Method != "GET" ||
			len(got.RequestParams) != 0 || got.SortOrder != 0 {
			t.Fatalf("after replace: returned id %d, stored %+v", d2.ID, got)
		}
		var n int64
		s.DB().Table("api_documentations").Where("api_service_id = ?", svc.ID).Count(&n)
		if n != 1 {
			t.Fatalf("%d documentation rows for one service", n)
		}
		if err := st.Services.PutDoc(ctx, &catalog.Doc{ServiceID: 999999, Endpoint: "/x", Method: "GET", Description: "x"}); !errors.Is(err, catalog.ErrServiceNotFound) {
			t.Fatalf("PutDoc for a missing service err = %v", err)
		}

		// Deleting a service deletes its pricing and docs; its hit logs stay.
		price := &pricing.Price{ServiceID: svc.ID, UserPrice: decimal.RequireFromString("1.0000")}
		if err := st.Pricing.Create(ctx, price); err != nil {
			t.Fatal(err)
		}
		owner := sqltest.NewUser(t, s)
		hit := &hitlog.Hit{UserID: owner.ID, ServiceID: svc.ID, APIKeyID: 1, RequestID: "req_cascade",
			RequestPayload: "{}", IPAddress: "127.0.0.1", Status: hitlog.StatusSuccess}
		if err := st.Hits.Insert(ctx, hit); err != nil {
			t.Fatal(err)
		}
		if err := st.Services.Delete(ctx, svc.ID); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if _, err := st.Services.Doc(ctx, svc.ID); !errors.Is(err, catalog.ErrDocNotFound) {
			t.Fatalf("docs survived their service: %v", err)
		}
		if _, err := st.Pricing.ByID(ctx, price.ID); !errors.Is(err, pricing.ErrNotFound) {
			t.Fatalf("pricing survived its service: %v", err)
		}
		if _, err := st.Hits.ByRequestID(ctx, "req_cascade"); err != nil {
			t.Fatalf("the hit log went with its service: %v", err)
		}
	})
}

func TestPricing(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		prices := s.Stores().Pricing
		svc := sqltest.NewService(t, s)
		alice, bob := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		d := func(v string) decimal.Decimal { return sqltest.Dec(t, v) }

		if _, err := prices.Applicable(ctx, svc.ID, alice.ID); !errors.Is(err, pricing.ErrNotFound) {
			t.Fatalf("Applicable with no rows err = %v, want pricing.ErrNotFound", err)
		}

		def := &pricing.Price{ServiceID: svc.ID, AdminCost: d("0.2500"), UserPrice: d("0.5"),
			ResellerPrice: d("0.4000"), MinimumHitCharge: d("0.10"), Status: pricing.StatusActive}
		if err := prices.Create(ctx, def); err != nil {
			t.Fatalf("Create default: %v", err)
		}
		got, err := prices.ByID(ctx, def.ID)
		if err != nil {
			t.Fatalf("ByID: %v", err)
		}
		if got.UserID != nil || got.UserPrice.StringFixed(4) != "0.5000" || got.AdminCost.String() != "0.25" {
			t.Fatalf("ByID = %+v", got)
		}
		sqltest.MustEqualDec(t, "minimum_hit_charge", got.MinimumHitCharge, "0.10")

		// A second default row is refused by the database.
		second := &pricing.Price{ServiceID: svc.ID, UserPrice: d("9")}
		if err := prices.Create(ctx, second); !errors.Is(err, pricing.ErrDuplicate) {
			t.Fatalf("second default row err = %v, want pricing.ErrDuplicate", err)
		}
		// ... and so is a second row for one user.
		aliceID := alice.ID
		own := &pricing.Price{ServiceID: svc.ID, UserID: &aliceID, UserPrice: d("0.3000"), Status: pricing.StatusActive}
		if err := prices.Create(ctx, own); err != nil {
			t.Fatalf("Create user row: %v", err)
		}
		again := &pricing.Price{ServiceID: svc.ID, UserID: &aliceID, UserPrice: d("1")}
		if err := prices.Create(ctx, again); !errors.Is(err, pricing.ErrDuplicate) {
			t.Fatalf("second row for one user err = %v, want pricing.ErrDuplicate", err)
		}
		// The same user on another service is fine.
		other := sqltest.NewService(t, s)
		if err := prices.Create(ctx, &pricing.Price{ServiceID: other.ID, UserID: &aliceID}); err != nil {
			t.Fatalf("row on another service: %v", err)
		}
		if err := prices.Create(ctx, &pricing.Price{ServiceID: 999999}); !errors.Is(err, catalog.ErrServiceNotFound) &&
			!errors.Is(err, sqlstore.ErrInvalidReference) {
			t.Fatalf("row for a missing service err = %v", err)
		}

		// Applicable: the user's active row, else the active default.
		p, err := prices.Applicable(ctx, svc.ID, alice.ID)
		if err != nil || p.ID != own.ID {
			t.Fatalf("Applicable(alice) = %+v, %v; want her own row", p, err)
		}
		p, err = prices.Applicable(ctx, svc.ID, bob.ID)
		if err != nil || p.ID != def.ID {
			t.Fatalf("Applicable(bob) = %+v, %v; want the default row", p, err)
		}
		own.Status = pricing.StatusInactive
		if err := prices.Update(ctx, own); err != nil {
			t.Fatalf("Update: %v", err)
		}
		p, err = prices.Applicable(ctx, svc.ID, alice.ID)
		if err != nil || p.ID != def.ID {
			t.Fatalf("Applicable(alice, own row inactive) = %+v, %v; want the default", p, err)
		}
		def.Status = pricing.StatusInactive
		def.UserPrice = d("0.7500")
		if err := prices.Update(ctx, def); err != nil {
			t.Fatalf("Update default: %v", err)
		}
		if _, err := prices.Applicable(ctx, svc.ID, bob.ID); !errors.Is(err, pricing.ErrNotFound) {
			t.Fatalf("Applicable with only inactive rows err = %v", err)
		}
		got, _ = prices.ByID(ctx, def.ID)
		sqltest.MustEqualDec(t, "user_price after Update", got.UserPrice, "0.75")

		list, err := prices.ListByService(ctx, svc.ID)
		if err != nil || len(list) != 2 || list[0].UserID != nil || *list[1].UserID != alice.ID {
			t.Fatalf("ListByService = %+v, %v; want the default row first", list, err)
		}

		// Amounts that do not fit their column are refused, not rounded.
		bad := &pricing.Price{ServiceID: other.ID, UserPrice: d("0.12345")}
		if err := prices.Create(ctx, bad); err == nil {
			t.Fatal("Create accepted 5 decimal places for a DECIMAL(10,4) column")
		}

		// Users are only soft-deleted; a hard delete of a user who has pricing
		// rows is refused (no cascade: MySQL 8 forbids it under user_scope).
		if err := s.DB().Exec("DELETE FROM users WHERE id = ?", alice.ID).Error; err == nil {
			t.Fatal("hard delete of a user with pricing rows was accepted")
		}
		if _, err := prices.ByID(ctx, own.ID); err != nil {
			t.Fatalf("the user's pricing row is gone: %v", err)
		}

		if err := prices.Delete(ctx, def.ID); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if err := prices.Delete(ctx, def.ID); !errors.Is(err, pricing.ErrNotFound) {
			t.Fatalf("Delete twice err = %v", err)
		}
		if err := prices.Update(ctx, &pricing.Price{ID: 999999}); !errors.Is(err, pricing.ErrNotFound) {
			t.Fatalf("Update(missing) err = %v", err)
		}
	})
}
