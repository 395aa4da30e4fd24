package storetest

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/apikey"
	"paygate/core/catalog"
	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/hold"
	"paygate/core/ledger"
	"paygate/core/pricing"
	"paygate/core/user"
)

// usersRepo: Update writes the profile (not the email; a phone another
// user has is ErrPhoneTaken), SaveBalance the money and plan counters, each
// leaving the other's fields as stored; LockByID is ByID
// (the transaction's mutex is the lock).
type usersRepo struct{ d *DB }

var _ user.Repository = usersRepo{}

func (r usersRepo) Create(_ context.Context, u *user.User) error {
	return r.d.do("Users.Create", func(t *tables) error {
		for _, o := range t.users {
			if o.Email == u.Email {
				return user.ErrEmailTaken
			}
			if u.Phone != "" && o.Phone == u.Phone {
				return user.ErrPhoneTaken
			}
		}
		u.ID = t.id("users", u.ID)
		t.users[u.ID] = *u
		return nil
	})
}

func (r usersRepo) get(method string, match func(user.User) bool) (*user.User, error) {
	var out *user.User
	err := r.d.do(method, func(t *tables) error {
		for _, u := range sorted(t.users) {
			if match(u) {
				out = &u
				return nil
			}
		}
		return user.ErrNotFound
	})
	return out, err
}

func (r usersRepo) ByID(_ context.Context, id uint64) (*user.User, error) {
	return r.get("Users.ByID", func(u user.User) bool { return u.ID == id })
}

func (r usersRepo) LockByID(_ context.Context, id uint64) (*user.User, error) {
	return r.get("Users.LockByID", func(u user.User) bool { return u.ID == id })
}

func (r usersRepo) ByEmail(_ context.Context, email string) (*user.User, error) {
	return r.get("Users.ByEmail", func(u user.User) bool { return u.Email == email })
}

func (r usersRepo) ByPhone(_ context.Context, phone string) (*user.User, error) {
	return r.get("Users.ByPhone", func(u user.User) bool { return u.Phone == phone })
}

func (r usersRepo) Update(_ context.Context, u *user.User) error {
	return r.d.do("Users.Update", func(t *tables) error {
		old, ok := t.users[u.ID]
		if !ok {
			return user.ErrNotFound
		}
		for _, o := range t.users {
			if o.ID != u.ID && u.Phone != "" && o.Phone == u.Phone {
				return user.ErrPhoneTaken // the unique index on phone
			}
		}
		next := *u
		next.Email = old.Email // not a field Update writes
		next.Balance, next.TotalSpent, next.HeldAmount = old.Balance, old.TotalSpent, old.HeldAmount
		next.PlanMonth, next.PlanCalls, next.CreatedAt = old.PlanMonth, old.PlanCalls, old.CreatedAt
		t.users[u.ID] = next
		return nil
	})
}

func (r usersRepo) SaveBalance(_ context.Context, u *user.User) error {
	return r.d.do("Users.SaveBalance", func(t *tables) error {
		row, ok := t.users[u.ID]
		if !ok {
			return user.ErrNotFound
		}
		row.Balance, row.TotalSpent, row.HeldAmount = u.Balance, u.TotalSpent, u.HeldAmount
		row.PlanMonth, row.PlanCalls = u.PlanMonth, u.PlanCalls
		t.users[u.ID] = row
		return nil
	})
}

func (r usersRepo) List(context.Context, user.Filter) ([]user.User, int64, error) {
	notImplemented("Users.List")
	return nil, 0, nil
}

func (r usersRepo) IDs(context.Context) ([]uint64, error) {
	var ids []uint64
	err := r.d.do("Users.IDs", func(t *tables) error {
		for _, u := range sorted(t.users) {
			ids = append(ids, u.ID)
		}
		return nil
	})
	return ids, err
}

func (r usersRepo) CountByRole(_ context.Context, role user.Role) (int64, error) {
	var n int64
	err := r.d.do("Users.CountByRole", func(t *tables) error {
		for _, u := range t.users {
			if u.Role == role && u.DeletedAt == nil {
				n++
			}
		}
		return nil
	})
	return n, err
}

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

// servicesRepo: services by id and slug, docs by service id.
type servicesRepo struct{ d *DB }

var _ catalog.Repository = servicesRepo{}

func (r servicesRepo) Create(_ context.Context, s *catalog.Service) error {
	return r.d.do("Services.Create", func(t *tables) error {
		for _, o := range t.services {
			if o.Slug == s.Slug {
				return catalog.ErrSlugTaken
			}
		}
		s.ID = t.id("services", s.ID)
		t.services[s.ID] = *s
		return nil
	})
}

func (r servicesRepo) get(method string, match func(catalog.Service) bool) (*catalog.Service, error) {
	var out *catalog.Service
	err := r.d.do(method, func(t *tables) error {
		for _, s := range sorted(t.services) {
			if match(s) {
				out = &s
				return nil
			}
		}
		return catalog.ErrServiceNotFound
	})
	return out, err
}

func (r servicesRepo) ByID(_ context.Context, id uint64) (*catalog.Service, error) {
	return r.get("Services.ByID", func(s catalog.Service) bool { return s.ID == id })
}

func (r servicesRepo) LockByID(_ context.Context, id uint64) (*catalog.Service, error) {
	return r.get("Services.LockByID", func(s catalog.Service) bool { return s.ID == id })
}

func (r servicesRepo) BySlug(_ context.Context, slug string) (*catalog.Service, error) {
	return r.get("Services.BySlug", func(s catalog.Service) bool { return s.Slug == slug })
}

func (r servicesRepo) List(context.Context, catalog.Filter) ([]catalog.Service, int64, error) {
	notImplemented("Services.List")
	return nil, 0, nil
}

// ExistingIDs keeps the order of ids.
func (r servicesRepo) ExistingIDs(_ context.Context, ids []uint64) ([]uint64, error) {
	var out []uint64
	err := r.d.do("Services.ExistingIDs", func(t *tables) error {
		for _, id := range ids {
			if _, ok := t.services[id]; ok {
				out = append(out, id)
			}
		}
		return nil
	})
	return out, err
}

func (r servicesRepo) Update(_ context.Context, s *catalog.Service) error {
	return r.d.do("Services.Update", func(t *tables) error {
		if _, ok := t.services[s.ID]; !ok {
			return catalog.ErrServiceNotFound
		}
		t.services[s.ID] = *s
		return nil
	})
}

func (r servicesRepo) Delete(_ context.Context, id uint64) error {
	return r.d.do("Services.Delete", func(t *tables) error {
		if _, ok := t.services[id]; !ok {
			return catalog.ErrServiceNotFound
		}
		delete(t.services, id)
		delete(t.docs, id)
		return nil
	})
}

func (r servicesRepo) Doc(_ context.Context, serviceID uint64) (*catalog.Doc, error) {
	var out *catalog.Doc
	err := r.d.do("Services.Doc", func(t *tables) error {
		d, ok := t.docs[serviceID]
		if !ok {
			return catalog.ErrDocNotFound
		}
		out = &d
		return nil
	})
	return out, err
}

func (r servicesRepo) PutDoc(_ context.Context, doc *catalog.Doc) error {
	return r.d.do("Services.PutDoc", func(t *tables) error {
		t.docs[doc.ServiceID] = *doc
		return nil
	})
}

// pricesRepo: Applicable prefers the user's active row to the active
// default row (UserID nil).
type pricesRepo struct{ d *DB }

var _ pricing.Repository = pricesRepo{}

func (r pricesRepo) Create(_ context.Context, p *pricing.Price) error {
	return r.d.do("Pricing.Create", func(t *tables) error {
		for _, o := range t.prices {
			if o.ServiceID == p.ServiceID && ((o.UserID == nil && p.UserID == nil) || (o.UserID != nil && p.UserID != nil && *o.UserID == *p.UserID)) {
				return pricing.ErrDuplicate
			}
		}
		p.ID = t.id("prices", p.ID)
		t.prices[p.ID] = *p
		return nil
	})
}

func (r pricesRepo) byID(method string, id uint64) (*pricing.Price, error) {
	var out *pricing.Price
	err := r.d.do(method, func(t *tables) error {
		p, ok := t.prices[id]
		if !ok {
			return pricing.ErrNotFound
		}
		out = &p
		return nil
	})
	return out, err
}

func (r pricesRepo) ByID(_ context.Context, id uint64) (*pricing.Price, error) {
	return r.byID("Pricing.ByID", id)
}

func (r pricesRepo) LockByID(_ context.Context, id uint64) (*pricing.Price, error) {
	return r.byID("Pricing.LockByID", id)
}

func (r pricesRepo) ListByService(_ context.Context, serviceID uint64) ([]pricing.Price, error) {
	var out []pricing.Price
	err := r.d.do("Pricing.ListByService", func(t *tables) error {
		for _, p := range sorted(t.prices) {
			if p.ServiceID == serviceID {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

func (r pricesRepo) Update(_ context.Context, p *pricing.Price) error {
	return r.d.do("Pricing.Update", func(t *tables) error {
		if _, ok := t.prices[p.ID]; !ok {
			return pricing.ErrNotFound
		}
		t.prices[p.ID] = *p
		return nil
	})
}

func (r pricesRepo) Delete(_ context.Context, id uint64) error {
	return r.d.do("Pricing.Delete", func(t *tables) error {
		delete(t.prices, id)
		return nil
	})
}

func (r pricesRepo) Applicable(_ context.Context, serviceID, userID uint64) (*pricing.Price, error) {
	var out *pricing.Price
	err := r.d.do("Pricing.Applicable", func(t *tables) error {
		for _, p := range sorted(t.prices) {
			if p.ServiceID != serviceID || p.Status != pricing.StatusActive {
				continue
			}
			if p.UserID != nil && *p.UserID == userID {
				out = &p
				return nil
			}
			if p.UserID == nil && out == nil {
				out = &p
			}
		}
		if out == nil {
			return pricing.ErrNotFound
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p := *out
	return &p, nil
}

// ledgerRepo: an append-only table in id order.
type ledgerRepo struct{ d *DB }

var _ ledger.Repository = ledgerRepo{}

func (r ledgerRepo) Insert(ctx context.Context, e *ledger.Entry) error {
	return r.d.do("Ledger.Insert", func(t *tables) error {
		e.ID = t.id("ledger", e.ID)
		t.ledger = append(t.ledger, *e)
		return nil
	})
}

func (r ledgerRepo) InsertMany(_ context.Context, entries []*ledger.Entry) error {
	return r.d.do("Ledger.InsertMany", func(t *tables) error {
		for _, e := range entries {
			e.ID = t.id("ledger", e.ID)
			t.ledger = append(t.ledger, *e)
		}
		return nil
	})
}

func (r ledgerRepo) List(_ context.Context, f ledger.Filter) ([]ledger.Entry, int64, error) {
	return listEntries(r.d, f)
}

func (r ledgerRepo) ForEach(_ context.Context, f ledger.Filter, fn func(ledger.Entry) error) error {
	return forEachEntry(r.d, f, fn)
}

func (r ledgerRepo) ForEachByUser(_ context.Context, userID uint64, fn func(ledger.Entry) error) error {
	var rows []ledger.Entry
	if err := r.d.do("Ledger.ForEachByUser", func(t *tables) error {
		for _, e := range t.ledger {
			if e.UserID == userID {
				rows = append(rows, e)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	slices.SortFunc(rows, func(a, b ledger.Entry) int { return cmpID(a.ID, b.ID) })
	for _, e := range rows {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

func cmpID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// hitsRepo: Finish, FinishMany and SucceedMany move a hit only while it is
// pending, writing status, response payload, charge, cost and response
// time.
type hitsRepo struct{ d *DB }

var _ hitlog.Repository = hitsRepo{}

func (r hitsRepo) Insert(_ context.Context, h *hitlog.Hit) error {
	return r.d.do("Hits.Insert", func(t *tables) error {
		h.ID = t.id("hits", h.ID)
		t.hits[h.ID] = *h
		return nil
	})
}

func (r hitsRepo) InsertMany(_ context.Context, hits []*hitlog.Hit) error {
	return r.d.do("Hits.InsertMany", func(t *tables) error {
		for _, h := range hits {
			h.ID = t.id("hits", h.ID)
			t.hits[h.ID] = *h
		}
		return nil
	})
}

// settle moves h out of pending; false when it is not pending.
func settle(t *tables, h *hitlog.Hit) (bool, error) {
	row, ok := t.hits[h.ID]
	if !ok {
		return false, fmt.Errorf("hit %d: %w", h.ID, errs.ErrNotFound)
	}
	if row.Status != hitlog.StatusPending {
		return false, nil
	}
	row.Status, row.ResponsePayload, row.ChargeAmount, row.CostAmount = h.Status, h.ResponsePayload, h.ChargeAmount, h.CostAmount
	row.ResponseTimeMs = h.ResponseTimeMs
	t.hits[h.ID] = row
	return true, nil
}

func (r hitsRepo) Finish(_ context.Context, h *hitlog.Hit) error {
	return r.d.do("Hits.Finish", func(t *tables) error {
		moved, err := settle(t, h)
		if err == nil && !moved {
			err = hitlog.ErrNotPending
		}
		return err
	})
}

func (r hitsRepo) settleMany(method string, hits []*hitlog.Hit) ([]bool, error) {
	moved := make([]bool, len(hits))
	err := r.d.do(method, func(t *tables) error {
		for i, h := range hits {
			ok, err := settle(t, h)
			if errs.KindOf(err) == errs.NotFound {
				continue // an unknown hit moves nothing
			}
			moved[i] = ok
		}
		return nil
	})
	return moved, err
}

func (r hitsRepo) FinishMany(_ context.Context, hits []*hitlog.Hit) ([]bool, error) {
	return r.settleMany("Hits.FinishMany", hits)
}

func (r hitsRepo) SucceedMany(_ context.Context, hits []*hitlog.Hit) ([]bool, error) {
	return r.settleMany("Hits.SucceedMany", hits)
}

func (r hitsRepo) ByRequestID(_ context.Context, requestID string) (*hitlog.Hit, error) {
	var out *hitlog.Hit
	err := r.d.do("Hits.ByRequestID", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if h.RequestID == requestID {
				out = &h
				return nil
			}
		}
		return errs.ErrNotFound
	})
	return out, err
}

func (r hitsRepo) List(_ context.Context, f hitlog.Filter) ([]hitlog.Hit, int64, error) {
	return listHits(r.d, f)
}

func (r hitsRepo) ForEach(_ context.Context, f hitlog.Filter, fn func(hitlog.Hit) error) error {
	return forEachHit(r.d, f, fn)
}

func (r hitsRepo) ForEachByUser(_ context.Context, userID uint64, fn func(hitlog.Hit) error) error {
	var rows []hitlog.Hit
	if err := r.d.do("Hits.ForEachByUser", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if h.UserID == userID {
				rows = append(rows, h)
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for _, h := range rows {
		if err := fn(h); err != nil {
			return err
		}
	}
	return nil
}

func (r hitsRepo) Pending(_ context.Context, before time.Time, limit int) ([]hitlog.Hit, error) {
	var out []hitlog.Hit
	err := r.d.do("Hits.Pending", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if h.Status == hitlog.StatusPending && h.CreatedAt.Before(before) && len(out) < limit {
				out = append(out, h)
			}
		}
		return nil
	})
	return out, err
}

// ClearPayloads clears, oldest id first, up to limit hits created before
// `before` that still have a payload; more when others remain.
func (r hitsRepo) ClearPayloads(_ context.Context, before time.Time, limit int) (int, bool, error) {
	cleared, more := 0, false
	err := r.d.do("Hits.ClearPayloads", func(t *tables) error {
		for _, h := range sorted(t.hits) {
			if !h.CreatedAt.Before(before) || (h.RequestPayload == "" && h.ResponsePayload == nil) {
				continue
			}
			if cleared == limit {
				more = true
				return nil
			}
			h.RequestPayload, h.ResponsePayload = "", nil
			t.hits[h.ID] = h
			cleared++
		}
		return nil
	})
	return cleared, more, err
}

// holdsRepo: a released hold is deleted; Delete reports whether this call
// deleted it.
type holdsRepo struct{ d *DB }

var _ hold.Repository = holdsRepo{}

func (r holdsRepo) Insert(_ context.Context, h *hold.Hold) error {
	return r.d.do("Holds.Insert", func(t *tables) error {
		h.ID = t.id("holds", h.ID)
		t.holds[h.ID] = *h
		return nil
	})
}

func (r holdsRepo) Get(_ context.Context, id uint64) (hold.Hold, bool, error) {
	var h hold.Hold
	var found bool
	err := r.d.do("Holds.Get", func(t *tables) error {
		h, found = t.holds[id]
		return nil
	})
	return h, found, err
}

func (r holdsRepo) Use(_ context.Context, id uint64, calls int, money decimal.Decimal) error {
	return r.d.do("Holds.Use", func(t *tables) error {
		if h, ok := t.holds[id]; ok {
			h.UsedCalls += calls
			h.UsedMoney = h.UsedMoney.Add(money)
			t.holds[id] = h
		}
		return nil
	})
}

func (r holdsRepo) Delete(_ context.Context, id uint64) (bool, error) {
	var found bool
	err := r.d.do("Holds.Delete", func(t *tables) error {
		_, found = t.holds[id]
		delete(t.holds, id)
		return nil
	})
	return found, err
}

func (r holdsRepo) Expired(_ context.Context, cutoff time.Time, limit int) ([]hold.Hold, error) {
	var out []hold.Hold
	err := r.d.do("Holds.Expired", func(t *tables) error {
		all := sorted(t.holds)
		slices.SortStableFunc(all, func(a, b hold.Hold) int { return a.ExpiresAt.Compare(b.ExpiresAt) })
		for _, h := range all {
			if h.ExpiresAt.Before(cutoff) && len(out) < limit {
				out = append(out, h)
			}
		}
		return nil
	})
	return out, err
}

func (r holdsRepo) ByUser(_ context.Context, userID uint64) ([]hold.Hold, error) {
	var out []hold.Hold
	err := r.d.do("Holds.ByUser", func(t *tables) error {
		for _, h := range sorted(t.holds) {
			if h.UserID == userID {
				out = append(out, h)
			}
		}
		return nil
	})
	return out, err
}
