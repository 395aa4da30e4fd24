package sqlstore_test

import (
	"context"
	"log/slog"
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/apikey"
	"paygate/core/catalog"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

// Two keys never share a secret hash: a Bearer secret names one key.
func TestKeySecretHashIsUnique(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		owner := sqltest.NewUser(t, s)
		first := sqltest.NewKey(t, s, owner)
		key2, _ := apikey.NewCredentials()
		dup := &apikey.Key{UserID: owner.ID, Key: key2, SecretHash: first.SecretHash, Name: "dup", DailyLimit: 1}
		if err := s.Stores().Keys.Create(context.Background(), dup); errs.KindOf(err) != errs.Conflict {
			t.Fatalf("a second key with the same secret hash: %v, want a conflict", err)
		}
	})
}

// ExistingIDs answers the ids that name a service, in one query.
func TestServicesExistingIDs(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		a, b := sqltest.NewService(t, s), sqltest.NewService(t, s)
		got, err := s.Stores().Services.ExistingIDs(context.Background(), []uint64{b.ID, 999999, a.ID})
		if err != nil || len(got) != 2 || (got[0] != a.ID && got[0] != b.ID) || (got[1] != a.ID && got[1] != b.ID) {
			t.Fatalf("ExistingIDs = %v, %v; want %d and %d", got, err, a.ID, b.ID)
		}
		if got, err := s.Stores().Services.ExistingIDs(context.Background(), nil); err != nil || len(got) != 0 {
			t.Fatalf("ExistingIDs(none) = %v, %v", got, err)
		}
	})
}

// Migration 00016 rewrites the built-in services' seeded credential text,
// and only text still as seeded.
func TestMigrationRewritesGatewayCredentialText(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, url string) {
		ctx := context.Background()
		s, err := sqlstore.Open(ctx, url, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.MigrateTo(ctx, 15); err != nil {
			t.Fatal(err)
		}
		old := "Verify an account. Authorization: Bearer <API key>."
		edited := "An admin's own words."
		// Rows as the schema of version 15 has them: the store of today
		// writes columns added since.
		oldService := func(slug string, builtin bool, description string) *catalog.Service {
			svc := &catalog.Service{Slug: slug}
			err := s.DB().Exec("INSERT INTO api_services (name, slug, description, category, provider_url, method, status, builtin) "+
				"VALUES (?, ?, ?, 'test', 'https://example.com/api', 'POST', 'active', ?)", slug, slug, description, builtin).Error
			if err == nil {
				err = s.DB().Raw("SELECT id FROM api_services WHERE slug = ?", slug).Scan(&svc.ID).Error
			}
			if err != nil {
				t.Fatal(err)
			}
			return svc
		}
		builtin := oldService("builtin-svc", true, old)
		adminEdited := oldService("edited-svc", true, edited)
		other := oldService("other-svc", false, old)
		for _, svc := range []*catalog.Service{builtin, other} {
			if err := s.Stores().Services.PutDoc(ctx, &catalog.Doc{ServiceID: svc.ID, Endpoint: "/x", Method: "POST", Description: old}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		want := "Verify an account. Authorization: Bearer <API secret>."
		for _, c := range []struct {
			svc  *catalog.Service
			want string
		}{{builtin, want}, {adminEdited, edited}, {other, old}} {
			got, err := s.Stores().Services.ByID(ctx, c.svc.ID)
			if err != nil || got.Description == nil || *got.Description != c.want {
				t.Errorf("service %d description = %v, want %q", c.svc.ID, got.Description, c.want)
			}
		}
		if d, err := s.Stores().Services.Doc(ctx, builtin.ID); err != nil || d.Description != want {
			t.Errorf("built-in doc = %+v, %v", d, err)
		}
		if d, err := s.Stores().Services.Doc(ctx, other.ID); err != nil || d.Description != old {
			t.Errorf("other doc = %+v, %v", d, err)
		}
	}
	t.Run("sqlite", func(t *testing.T) { run(t, testdb.SQLiteURL(t)) })
	t.Run("mysql", func(t *testing.T) { run(t, testdb.MySQLURL(t)) })
}
