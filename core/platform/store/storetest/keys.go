package storetest

import (
	"context"
	"time"

	"paygate/core/accounts/apikey"
)

// keysRepo: the daily counter as in the port (a key with daily limit 0
// counts nothing; a new local day starts from zero).
type keysRepo struct{ d *DB }

var _ apikey.Repository = keysRepo{}

func (r keysRepo) Create(_ context.Context, k *apikey.Key) error {
	return r.d.do("Keys.Create", func(t *tables) error {
		k.ID = t.id("keys", k.ID)
		t.keys[k.ID] = *k
		return nil
	})
}

func (r keysRepo) get(method string, match func(apikey.Key) bool) (*apikey.Key, error) {
	var out *apikey.Key
	err := r.d.do(method, func(t *tables) error {
		for _, k := range sorted(t.keys) {
			if match(k) {
				out = &k
				return nil
			}
		}
		return apikey.ErrNotFound
	})
	return out, err
}

func (r keysRepo) ByID(_ context.Context, id uint64) (*apikey.Key, error) {
	return r.get("Keys.ByID", func(k apikey.Key) bool { return k.ID == id })
}

func (r keysRepo) ByKey(_ context.Context, key string) (*apikey.Key, error) {
	return r.get("Keys.ByKey", func(k apikey.Key) bool { return k.Key == key })
}

func (r keysRepo) ListByUser(_ context.Context, userID uint64) ([]apikey.Key, error) {
	var out []apikey.Key
	err := r.d.do("Keys.ListByUser", func(t *tables) error {
		for _, k := range sorted(t.keys) {
			if k.UserID == userID {
				out = append(out, k)
			}
		}
		return nil
	})
	return out, err
}

func (r keysRepo) BySecretHash(_ context.Context, hash string) (*apikey.Key, error) {
	return r.get("Keys.BySecretHash", func(k apikey.Key) bool { return k.SecretHash == hash })
}

func (r keysRepo) CountActive(_ context.Context, userID uint64) (int, error) {
	n := 0
	err := r.d.do("Keys.CountActive", func(t *tables) error {
		for _, k := range t.keys {
			if k.UserID == userID && k.Status == apikey.StatusActive {
				n++
			}
		}
		return nil
	})
	return n, err
}

// Change writes only the fields c sets, on an active key of userID.
func (r keysRepo) Change(_ context.Context, id, userID uint64, c apikey.Change, at time.Time) (*apikey.Key, error) {
	var out *apikey.Key
	err := r.d.do("Keys.Change", func(t *tables) error {
		row, ok := t.keys[id]
		if !ok || row.UserID != userID {
			return apikey.ErrNotFound
		}
		if row.Status != apikey.StatusActive {
			return apikey.ErrRevoked
		}
		if c.Name != nil {
			row.Name = *c.Name
		}
		if c.AllowedServices != nil {
			row.AllowedServices = *c.AllowedServices
		}
		if c.AllowedIPs != nil {
			row.AllowedIPs = *c.AllowedIPs
		}
		if c.DailyLimit != nil {
			row.DailyLimit = *c.DailyLimit
		}
		if c.SecretHash != nil {
			row.SecretHash = *c.SecretHash
		}
		row.UpdatedAt = at
		t.keys[id] = row
		out = &row
		return nil
	})
	return out, err
}

// Revoke is final: a revoked key stays as it is.
func (r keysRepo) Revoke(_ context.Context, id, userID uint64, at time.Time) (*apikey.Key, error) {
	var out *apikey.Key
	err := r.d.do("Keys.Revoke", func(t *tables) error {
		row, ok := t.keys[id]
		if !ok || row.UserID != userID {
			return apikey.ErrNotFound
		}
		if row.Status == apikey.StatusActive {
			row.Status, row.UpdatedAt = apikey.StatusRevoked, at
			t.keys[id] = row
		}
		out = &row
		return nil
	})
	return out, err
}

// count grants up to n calls of key id on day; see apikey.Repository.
func count(t *tables, id uint64, day string, n int, at time.Time) (int, error) {
	k, ok := t.keys[id]
	if !ok {
		return 0, apikey.ErrNotFound
	}
	cur := 0
	if k.HitsDate == day {
		cur = k.HitsToday
	}
	granted := min(n, k.DailyLimit-cur)
	if granted <= 0 {
		return 0, nil
	}
	k.HitsToday, k.HitsDate, k.LastUsedAt = cur+granted, day, &at
	t.keys[id] = k
	return granted, nil
}

func (r keysRepo) CountHit(_ context.Context, id uint64, day string, at time.Time) (bool, error) {
	var ok bool
	err := r.d.do("Keys.CountHit", func(t *tables) error {
		n, err := count(t, id, day, 1, at)
		ok = n == 1
		return err
	})
	return ok, err
}

func (r keysRepo) CountHits(_ context.Context, id uint64, day string, n int, at time.Time) (int, error) {
	var granted int
	err := r.d.do("Keys.CountHits", func(t *tables) error {
		var err error
		granted, err = count(t, id, day, n, at)
		return err
	})
	return granted, err
}

func (r keysRepo) UncountHits(_ context.Context, id uint64, day string, n int) error {
	return r.d.do("Keys.UncountHits", func(t *tables) error {
		if k, ok := t.keys[id]; ok && k.HitsDate == day {
			k.HitsToday = max(k.HitsToday-n, 0)
			t.keys[id] = k
		}
		return nil
	})
}
