package sqlstore_test

import (
	"context"
	"log/slog"
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/internal/testdb"
)

// Migration 00050 gives the built-in services that move money (payment
// create, mobile recharge, payout) SAC 997158, unless an admin set one;
// verification, account opening and the admins' own services keep theirs
// (NULL: the supplier's default).
func TestMigrationSetsPaymentSAC(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, url string) {
		ctx := context.Background()
		s, err := sqlstore.Open(ctx, url, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.MigrateTo(ctx, 49); err != nil {
			t.Fatal(err)
		}
		insert := func(slug string, builtin bool, sac any) {
			if err := s.DB().Exec("INSERT INTO api_services (name, slug, category, provider_url, method, status, builtin, sac_code) "+
				"VALUES (?, ?, 'gateway', 'builtin://x', 'POST', 'active', ?, ?)", slug, slug, builtin, sac).Error; err != nil {
				t.Fatal(err)
			}
		}
		insert("payment-create", true, nil)
		insert("recharge-mobile", true, nil)
		insert("payout-transfer", true, "998319") // an admin's choice stays
		insert("account-verify", true, nil)
		insert("account-open", true, nil)
		insert("payout-lookalike", false, nil)
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"payment-create": "997158", "recharge-mobile": "997158", "payout-transfer": "998319",
			"account-verify": "", "account-open": "", "payout-lookalike": ""}
		for slug, w := range want {
			svc, err := s.Stores().Services.BySlug(ctx, slug)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if svc.SAC != nil {
				got = *svc.SAC
			}
			if got != w {
				t.Errorf("%s: SAC %q, want %q", slug, got, w)
			}
		}
	}
	t.Run("sqlite", func(t *testing.T) { run(t, testdb.SQLiteURL(t)) })
	t.Run("mysql", func(t *testing.T) { run(t, testdb.MySQLURL(t)) })
}
