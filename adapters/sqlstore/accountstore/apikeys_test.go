package accountstore_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/apikey"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		keys := s.Stores().Keys
		owner := sqltest.NewUser(t, s)
		first := sqltest.NewKey(t, s, owner, func(k *apikey.Key) {
			k.AllowedServices = []uint64{3, 1, 2}
			k.AllowedIPs = "203.0.113.7,10.0.0.0/8"
			k.DailyLimit = 50
		})
		second := sqltest.NewKey(t, s, owner)
		if first.ID == 0 || first.CreatedAt.IsZero() {
			t.Fatalf("Create did not set id and created_at: %+v", first)
		}

		got, err := keys.ByKey(ctx, first.Key)
		if err != nil {
			t.Fatalf("ByKey: %v", err)
		}
		if got.ID != first.ID || got.SecretHash != first.SecretHash || got.UserID != owner.ID ||
			got.AllowedIPs != first.AllowedIPs || got.DailyLimit != 50 || got.Status != apikey.StatusActive {
			t.Fatalf("ByKey = %+v, want %+v", got, first)
		}
		if len(got.AllowedServices) != 3 || got.AllowedServices[0] != 3 || got.AllowedServices[2] != 2 {
			t.Fatalf("allowed_services = %v", got.AllowedServices)
		}
		if got.HitsDate != "" || got.HitsToday != 0 || got.LastUsedAt != nil {
			t.Fatalf("a new key has no hits: %+v", got)
		}
		// Keys compare byte for byte: another case is another key.
		if _, err := keys.ByKey(ctx, strings.ToUpper(first.Key)); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("ByKey(upper case) err = %v, want ErrNotFound", err)
		}
		plain, _ := keys.ByID(ctx, second.ID)
		if plain.AllowedServices != nil || plain.AllowedIPs != "" {
			t.Fatalf("empty restrictions should read back empty: %+v", plain)
		}

		list, err := keys.ListByUser(ctx, owner.ID)
		if err != nil || len(list) != 2 || list[0].ID != second.ID {
			t.Fatalf("ListByUser = %v, %v; want 2 keys, newest first", list, err)
		}
		if none, err := keys.ListByUser(ctx, 424242); err != nil || none == nil || len(none) != 0 {
			t.Fatalf("ListByUser(nobody) = %#v, %v; want an empty slice", none, err)
		}

		// Change writes the fields it names, Revoke the status.
		name, none, noIPs, limit, hash := "renamed", []uint64{}, "", 7, apikey.HashSecret("new")
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		got, err = keys.Change(ctx, first.ID, owner.ID, apikey.Change{Name: &name, AllowedServices: &none, AllowedIPs: &noIPs,
			DailyLimit: &limit, SecretHash: &hash}, at)
		if err != nil {
			t.Fatalf("Change: %v", err)
		}
		if got.Name != "renamed" || got.AllowedServices != nil || got.AllowedIPs != "" || got.DailyLimit != 7 ||
			!got.SecretMatches("new") || got.Status != apikey.StatusActive || !got.UpdatedAt.Equal(at) {
			t.Fatalf("after Change: %+v", got)
		}
		if got, err := keys.BySecretHash(ctx, hash); err != nil || got.ID != first.ID {
			t.Fatalf("BySecretHash = %+v, %v", got, err)
		}
		if got, err = keys.Revoke(ctx, first.ID, owner.ID, at); err != nil || got.Status != apikey.StatusRevoked {
			t.Fatalf("Revoke = %+v, %v", got, err)
		}
		if got, err = keys.Revoke(ctx, first.ID, owner.ID, at); err != nil || got.Status != apikey.StatusRevoked {
			t.Fatalf("Revoke twice = %+v, %v", got, err)
		}
		if _, err := keys.Change(ctx, first.ID, owner.ID, apikey.Change{Name: &name}, at); !errors.Is(err, apikey.ErrRevoked) {
			t.Fatalf("Change(revoked) err = %v, want ErrRevoked", err)
		}

		// Not found and duplicates.
		if _, err := keys.ByID(ctx, 999999); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("ByID(missing) err = %v", err)
		}
		if _, err := keys.ByKey(ctx, "rk_live_nope"); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("ByKey(missing) err = %v", err)
		}
		if _, err := keys.Change(ctx, 999999, owner.ID, apikey.Change{Name: &name}, at); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("Change(missing) err = %v", err)
		}
		if _, err := keys.Change(ctx, second.ID, owner.ID+1, apikey.Change{Name: &name}, at); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("Change(another user's key) err = %v", err)
		}
		if _, err := keys.Revoke(ctx, second.ID, owner.ID+1, at); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("Revoke(another user's key) err = %v", err)
		}
		if _, err := keys.BySecretHash(ctx, apikey.HashSecret("nope")); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("BySecretHash(missing) err = %v", err)
		}
		if n, err := keys.CountActive(ctx, owner.ID); err != nil || n != 1 {
			t.Fatalf("CountActive = %d, %v; want 1 (one revoked)", n, err)
		}
		dup := *second
		if err := keys.Create(ctx, &dup); !errors.Is(err, errs.ErrConflict) {
			t.Fatalf("duplicate key err = %v, want errs.ErrConflict", err)
		}
		orphan := &apikey.Key{UserID: 999999, Key: "rk_live_orphan", SecretHash: "x", Name: "x", DailyLimit: 1}
		if err := keys.Create(ctx, orphan); errs.KindOf(err) != errs.Invalid {
			t.Fatalf("key of a missing user err = %v, want an invalid reference", err)
		}

		// Deleting the owner deletes the keys (ON DELETE CASCADE).
		if err := s.DB().Exec("DELETE FROM users WHERE id = ?", owner.ID).Error; err != nil {
			t.Fatalf("delete owner: %v", err)
		}
		if left, _ := keys.ListByUser(ctx, owner.ID); len(left) != 0 {
			t.Fatalf("%d keys survived their owner", len(left))
		}
	})
}

func TestCountHitAllowsExactlyTheDailyLimit(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		keys := s.Stores().Keys
		const limit = 37
		k := sqltest.NewKey(t, s, sqltest.NewUser(t, s), func(k *apikey.Key) { k.DailyLimit = limit })
		day := "2026-03-01"
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

		var allowed, refused atomic.Int64
		var wg sync.WaitGroup
		errc := make(chan error, 100)
		for i := 0; i < 100; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := keys.CountHit(ctx, k.ID, day, at)
				switch {
				case err != nil:
					errc <- err
				case ok:
					allowed.Add(1)
				default:
					refused.Add(1)
				}
			}()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatalf("CountHit: %v", err)
		}
		if allowed.Load() != limit || refused.Load() != 100-limit {
			t.Fatalf("allowed %d, refused %d; want %d and %d", allowed.Load(), refused.Load(), limit, 100-limit)
		}
		got, _ := keys.ByID(ctx, k.ID)
		if got.HitsToday != limit || got.HitsDate != day || got.LastUsedAt == nil || !got.LastUsedAt.Equal(at) {
			t.Fatalf("after the day's calls: hits_today %d, hits_date %q, last_used_at %v", got.HitsToday, got.HitsDate, got.LastUsedAt)
		}

		// A new local day starts from one.
		nextDay := "2026-03-02"
		ok, err := keys.CountHit(ctx, k.ID, nextDay, at.Add(24*time.Hour))
		if err != nil || !ok {
			t.Fatalf("first call of a new day = %v, %v", ok, err)
		}
		got, _ = keys.ByID(ctx, k.ID)
		if got.HitsToday != 1 || got.HitsDate != nextDay {
			t.Fatalf("after the reset: hits_today %d, hits_date %q", got.HitsToday, got.HitsDate)
		}

		// A limit lowered below today's count refuses at once.
		one := 1
		if _, err := keys.Change(ctx, k.ID, k.UserID, apikey.Change{DailyLimit: &one}, at); err != nil {
			t.Fatal(err)
		}
		if ok, err := keys.CountHit(ctx, k.ID, nextDay, at); err != nil || ok {
			t.Fatalf("call over a lowered limit = %v, %v; want refused", ok, err)
		}
		if _, err := keys.CountHit(ctx, 999999, day, at); !errors.Is(err, apikey.ErrNotFound) {
			t.Fatalf("CountHit(missing key) err = %v", err)
		}
	})
}
