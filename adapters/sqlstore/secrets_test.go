package sqlstore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/adapters/secretbox"
	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

func dataKey(t *testing.T) secretbox.Key {
	t.Helper()
	k, err := secretbox.ParseKey(secretbox.GenerateKey())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rawSecrets are the stored values of a user's api_secret and a service's
// provider_key, read without the store.
func rawSecret(t *testing.T, s *sqlstore.Store, table, column string, id uint64) *string {
	t.Helper()
	var v *string
	if err := s.DB().Raw("SELECT "+column+" FROM "+table+" WHERE id = ?", id).Row().Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Webhook signing secrets and provider keys are sealed in the database and
// read back as plaintext by every read of the store.
func TestSecretsAreSealedAtRest(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		k := dataKey(t)
		s.UseSealer(secretbox.New(k))
		secret, providerKey := "whsec_"+strings.Repeat("S", 44), strings.Repeat("k", 500) // the longest provider key allowed
		u := sqltest.NewUser(t, s, func(u *user.User) { u.WebhookSecret = &secret })
		svc := sqltest.NewService(t, s, func(svc *catalog.Service) { svc.ProviderKey = &providerKey })

		for _, raw := range []*string{rawSecret(t, s, "users", "api_secret", u.ID), rawSecret(t, s, "api_services", "provider_key", svc.ID)} {
			if raw == nil || !strings.HasPrefix(*raw, "enc:v1:"+k.ID()+":") || strings.Contains(*raw, "SSSS") || strings.Contains(*raw, "kkkk") {
				t.Fatalf("stored %v, want a value sealed under %s", raw, k.ID())
			}
		}

		st := s.Stores()
		check := func(what string, got *user.User, err error) {
			t.Helper()
			if err != nil || got.WebhookSecret == nil || *got.WebhookSecret != secret {
				t.Fatalf("%s: %v, %v", what, got, err)
			}
		}
		got, err := st.Users.ByID(ctx, u.ID)
		check("ByID", got, err)
		got, err = st.Users.ByEmail(ctx, u.Email)
		check("ByEmail", got, err)
		list, _, err := st.Users.List(ctx, user.Filter{Q: u.Email, Page: 1, PerPage: 10})
		if err != nil || len(list) != 1 {
			t.Fatalf("List: %v %v", list, err)
		}
		check("List", &list[0], nil)
		checkSvc := func(what string, got *catalog.Service, err error) {
			t.Helper()
			if err != nil || got.ProviderKey == nil || *got.ProviderKey != providerKey {
				t.Fatalf("%s: %v, %v", what, got, err)
			}
		}
		gotSvc, err := st.Services.ByID(ctx, svc.ID)
		checkSvc("service ByID", gotSvc, err)
		gotSvc, err = st.Services.BySlug(ctx, svc.Slug)
		checkSvc("service BySlug", gotSvc, err)
		svcs, _, err := st.Services.List(ctx, catalog.Filter{Q: svc.Slug, Page: 1, PerPage: 10})
		if err != nil || len(svcs) != 1 {
			t.Fatalf("services List: %v %v", svcs, err)
		}
		checkSvc("service List", &svcs[0], nil)

		// Updates under a row lock seal the new values too.
		rotated, newKey := "whsec_"+strings.Repeat("R", 44), "provider-key-two"
		err = s.WithinTx(ctx, func(ctx context.Context, tx store.Stores) error {
			lu, err := tx.Users.LockByID(ctx, u.ID)
			if err != nil {
				return err
			}
			check("LockByID", lu, nil)
			lu.WebhookSecret = &rotated
			if err := tx.Users.Update(ctx, lu); err != nil {
				return err
			}
			ls, err := tx.Services.LockByID(ctx, svc.ID)
			if err != nil {
				return err
			}
			checkSvc("service LockByID", ls, nil)
			ls.ProviderKey = &newKey
			return tx.Services.Update(ctx, ls)
		})
		if err != nil {
			t.Fatal(err)
		}
		if raw := rawSecret(t, s, "users", "api_secret", u.ID); raw == nil || !strings.HasPrefix(*raw, "enc:v1:") || strings.Contains(*raw, "RRRR") {
			t.Fatalf("updated secret stored as %v", raw)
		}
		if raw := rawSecret(t, s, "api_services", "provider_key", svc.ID); raw == nil || !strings.HasPrefix(*raw, "enc:v1:") || strings.Contains(*raw, "provider-key") {
			t.Fatalf("updated provider key stored as %v", raw)
		}
		secret = rotated
		got, err = st.Users.ByID(ctx, u.ID)
		check("after update", got, err)
		providerKey = newKey
		gotSvc, err = st.Services.ByID(ctx, svc.ID)
		checkSvc("after update", gotSvc, err)

		// A store without the key refuses to read a sealed value rather
		// than hand out ciphertext as the secret.
		s.UseSealer(secretbox.New(dataKey(t)))
		if _, err := s.Stores().Users.ByID(ctx, u.ID); err == nil {
			t.Fatal("a sealed secret was read under another key")
		}
	})
}

// secrets rotate: values under the previous key and legacy plaintext end
// up under the current key, still read, and a second run changes nothing.
// A value under a key nobody holds is reported and left alone; the start-up
// check names it.
func TestRotateSecrets(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		old, cur, lost := dataKey(t), dataKey(t), dataKey(t)
		s.UseSealer(secretbox.New(old))
		secrets := map[uint64]string{}
		keys := map[uint64]string{}
		for i := 0; i < 3; i++ {
			sec, pk := "whsec_"+strings.Repeat(string(rune('a'+i)), 44), "provider-"+string(rune('a'+i))
			u := sqltest.NewUser(t, s, func(u *user.User) { u.WebhookSecret = &sec })
			svc := sqltest.NewService(t, s, func(svc *catalog.Service) { svc.ProviderKey = &pk })
			secrets[u.ID], keys[svc.ID] = sec, pk
		}
		// Legacy rows, written before secrets were sealed.
		legacy := sqltest.NewUser(t, s)
		if err := s.DB().Exec("UPDATE users SET api_secret = 'whsec_legacy' WHERE id = ?", legacy.ID).Error; err != nil {
			t.Fatal(err)
		}
		secrets[legacy.ID] = "whsec_legacy"
		legacySvc := sqltest.NewService(t, s)
		if err := s.DB().Exec("UPDATE api_services SET provider_key = 'legacy-provider-key' WHERE id = ?", legacySvc.ID).Error; err != nil {
			t.Fatal(err)
		}
		keys[legacySvc.ID] = "legacy-provider-key"
		sqltest.NewUser(t, s) // no secret: stays NULL

		s.UseSealer(secretbox.New(cur, old))
		if err := s.CheckSecrets(ctx); err != nil {
			t.Fatalf("check with the previous key held: %v", err)
		}
		res, err := s.RotateSecrets(ctx, 2) // pages of 2 rows
		if err != nil || res.Sealed != 8 || res.Failed != 0 {
			t.Fatalf("rotate: %+v, %v; want 8 re-sealed", res, err)
		}
		raws := func() map[string]string {
			out := map[string]string{}
			var rows []struct {
				T, V string
				ID   uint64
			}
			err := s.DB().Raw("SELECT 'u' AS t, id, api_secret AS v FROM users WHERE api_secret IS NOT NULL UNION ALL " +
				"SELECT 's' AS t, id, provider_key AS v FROM api_services WHERE provider_key IS NOT NULL").Scan(&rows).Error
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				out[fmt.Sprintf("%s%d", r.T, r.ID)] = r.V
			}
			return out
		}
		first := raws()
		if len(first) != 8 {
			t.Fatalf("%d stored secrets, want 8", len(first))
		}
		for k, v := range first {
			if !strings.HasPrefix(v, "enc:v1:"+cur.ID()+":") {
				t.Fatalf("%s stored %q after rotation, want under the current key %s", k, v, cur.ID())
			}
		}
		// Only the current key is needed now.
		s.UseSealer(secretbox.New(cur))
		for id, want := range secrets {
			u, err := s.Stores().Users.ByID(ctx, id)
			if err != nil || u.WebhookSecret == nil || *u.WebhookSecret != want {
				t.Fatalf("user %d: %v %v, want %q", id, u, err, want)
			}
		}
		for id, want := range keys {
			svc, err := s.Stores().Services.ByID(ctx, id)
			if err != nil || svc.ProviderKey == nil || *svc.ProviderKey != want {
				t.Fatalf("service %d: %v %v, want %q", id, svc, err, want)
			}
		}
		res, err = s.RotateSecrets(ctx, 2)
		if err != nil || res != (sqlstore.RotateResult{}) {
			t.Fatalf("second rotate: %+v, %v; want nothing done", res, err)
		}
		for k, v := range raws() {
			if first[k] != v {
				t.Fatalf("second rotate changed %s", k)
			}
		}

		// A value under a key nobody holds: the check names it; rotate
		// re-seals the rest and reports it.
		stray := "whsec_stray"
		s.UseSealer(secretbox.New(lost))
		strayUser := sqltest.NewUser(t, s, func(u *user.User) { u.WebhookSecret = &stray })
		if err := s.DB().Exec("UPDATE users SET api_secret = 'whsec_plain_again' WHERE id = ?", legacy.ID).Error; err != nil {
			t.Fatal(err)
		}
		s.UseSealer(secretbox.New(cur))
		if err := s.CheckSecrets(ctx); err == nil || !strings.Contains(err.Error(), "1 in users.api_secret under \"enc:v1:"+lost.ID()+":\"") {
			t.Fatalf("start-up check: %v", err)
		}
		res, err = s.RotateSecrets(ctx, 0)
		if err == nil || res.Failed != 1 || res.Sealed != 1 || !strings.Contains(err.Error(), fmt.Sprintf("users %d ", strayUser.ID)) {
			t.Fatalf("rotate with a lost key: %+v, %v", res, err)
		}
	})
}

// A user with a sealed webhook secret still batches from its snapshot: the
// batch keeps the row as stored (sealed), not as re-sealed from the domain
// user (a new nonce every time), whether it was locked by LockAndCount or
// by LockByID.
func TestOptimisticBatchWithSealedSecret(t *testing.T) {
	t.Parallel()
	s, trips := openCounted(t)
	s.UseSealer(secretbox.New(dataKey(t)))
	secret := "whsec_" + strings.Repeat("B", 44)
	u := sqltest.NewUser(t, s, func(u *user.User) { u.Balance = decimal.RequireFromString("100.00"); u.WebhookSecret = &secret })
	key := sqltest.NewKey(t, s, u, func(k *apikey.Key) { k.DailyLimit = 1000 })
	err := s.WithinBatchTx(context.Background(), func(ctx context.Context, st metering.BatchStores) error {
		locked, err := st.Users.LockByID(ctx, u.ID)
		if err != nil {
			return err
		}
		if locked.WebhookSecret == nil || *locked.WebhookSecret != secret {
			t.Errorf("LockByID read secret %v", locked.WebhookSecret)
		}
		locked.Balance = locked.Balance.Sub(decimal.RequireFromString("1.00"))
		return st.Users.SaveBalance(ctx, locked)
	})
	if err != nil {
		t.Fatal(err)
	}
	seen, _, rt, err := debitBatch(t, s, trips, u, key, 10, "1.00")
	want := int64(1)
	if s.Galera() {
		want = 2 // the COMMIT goes alone on a Galera cluster (commitBatch)
	}
	if err != nil || rt != want || len(seen) != 1 || !seen[0].Equal(decimal.RequireFromString("99")) {
		t.Fatalf("batch after LockByID: from %v in %d round trips, %v; want from the snapshot 99 in %d", seen, rt, err, want)
	}
	if b := balanceOf(t, s, u.ID); !b.Equal(decimal.RequireFromString("89")) {
		t.Fatalf("balance %s, want 89", b)
	}
}
