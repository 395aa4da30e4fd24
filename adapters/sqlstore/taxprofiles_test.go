package sqlstore_test

import (
	"context"
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/billing/gst"
	"paygate/core/billing/taxprofile"
	"paygate/core/catalog"
	"paygate/core/platform/store/storecontract"
	"paygate/internal/testdb"
)

// TestTaxProfileStore runs the taxprofile.Store contract (the cases the
// in-memory fake passes too) on SQLite and MariaDB.
func TestTaxProfileStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		storecontract.TaxProfileContract(t, s, s.Stores())
	})
}

// TestTaxProfileServiceSAC: a service's own SAC code is stored, read back,
// changed and cleared (NULL: the supplier's default).
func TestTaxProfileServiceSAC(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		sac := "998314"
		svc := sqltest.NewService(t, s, func(c *catalog.Service) { c.SAC = &sac })
		got, err := s.Stores().Services.ByID(ctx, svc.ID)
		if err != nil || got.SAC == nil || *got.SAC != sac {
			t.Fatalf("stored SAC %v, %v", got.SAC, err)
		}
		got.SAC = nil
		if err := s.Stores().Services.Update(ctx, got); err != nil {
			t.Fatal(err)
		}
		if got, _ = s.Stores().Services.ByID(ctx, svc.ID); got.SAC != nil {
			t.Fatalf("cleared SAC reads %q", *got.SAC)
		}
		if plain := sqltest.NewService(t, s); plain.SAC != nil {
			t.Fatalf("a service without one: %v", plain.SAC)
		}
	})
}

// TestMigrationAddsBillingSettings: migration 00039 on a database with a
// service leaves the service readable with no SAC of its own, writes the
// one supplier row with the default prefix and SAC (read as the defaults,
// never saved), and the settings table refuses a second row.
func TestMigrationAddsBillingSettings(t *testing.T) {
	eachAtVersion(t, 37, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		db := s.DB()
		err := db.Exec("INSERT INTO api_services (id, name, slug, category, provider_url, method, status, builtin) " +
			"VALUES (5, 'Old', 'old-service', 'test', 'https://example.com', 'POST', 'active', 0)").Error
		if err != nil {
			t.Fatal(err)
		}
		if err := s.MigrateTo(ctx, 39); err != nil {
			t.Fatal(err)
		}
		svc, err := s.Stores().Services.ByID(ctx, 5)
		if err != nil || svc.SAC != nil || svc.Slug != "old-service" {
			t.Fatalf("service after 00039: %+v, %v", svc, err)
		}
		sup, err := s.Stores().TaxProfiles.Supplier(ctx)
		if err != nil || *sup != *taxprofile.DefaultSupplier() || sup.SAC != gst.DefaultSAC {
			t.Fatalf("supplier after 00039: %+v, %v", sup, err)
		}
		if err := db.Exec("INSERT INTO billing_settings (id) VALUES (2)").Error; err == nil {
			t.Fatal("billing_settings took a second row")
		}
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
