package metering

import (
	"context"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/store"
)

// Write-through invalidation: the stores the use cases write keys, users,
// services, docs and prices through empty the cache on every such write,
// and a transaction that wrote empties it again after it ends (a read that
// raced with the uncommitted write may have cached the old row).

type flushUsers struct {
	user.Repository
	flush func()
}

func (r flushUsers) Create(ctx context.Context, u *user.User) error {
	defer r.flush()
	return r.Repository.Create(ctx, u)
}

func (r flushUsers) Update(ctx context.Context, u *user.User) error {
	defer r.flush()
	return r.Repository.Update(ctx, u)
}

type flushKeys struct {
	apikey.Repository
	flush func()
}

func (r flushKeys) Create(ctx context.Context, k *apikey.Key) error {
	defer r.flush()
	return r.Repository.Create(ctx, k)
}

func (r flushKeys) Change(ctx context.Context, id, userID uint64, c apikey.Change, at time.Time) (*apikey.Key, error) {
	defer r.flush()
	return r.Repository.Change(ctx, id, userID, c, at)
}

func (r flushKeys) Revoke(ctx context.Context, id, userID uint64, at time.Time) (*apikey.Key, error) {
	defer r.flush()
	return r.Repository.Revoke(ctx, id, userID, at)
}

type flushServices struct {
	catalog.Repository
	flush func()
}

func (r flushServices) Create(ctx context.Context, s *catalog.Service) error {
	defer r.flush()
	return r.Repository.Create(ctx, s)
}

func (r flushServices) Update(ctx context.Context, s *catalog.Service) error {
	defer r.flush()
	return r.Repository.Update(ctx, s)
}

func (r flushServices) Delete(ctx context.Context, id uint64) error {
	defer r.flush()
	return r.Repository.Delete(ctx, id)
}

func (r flushServices) PutDoc(ctx context.Context, d *catalog.Doc) error {
	defer r.flush()
	return r.Repository.PutDoc(ctx, d)
}

type flushPricing struct {
	pricing.Repository
	flush func()
}

func (r flushPricing) Create(ctx context.Context, p *pricing.Price) error {
	defer r.flush()
	return r.Repository.Create(ctx, p)
}

func (r flushPricing) Update(ctx context.Context, p *pricing.Price) error {
	defer r.flush()
	return r.Repository.Update(ctx, p)
}

func (r flushPricing) Delete(ctx context.Context, id uint64) error {
	defer r.flush()
	return r.Repository.Delete(ctx, id)
}

// flushCustomerPrices: a reseller's selling prices and markup decide its
// customers' charges (the cached resale).
type flushCustomerPrices struct {
	pricing.CustomerPrices
	flush func()
}

func (r flushCustomerPrices) Set(ctx context.Context, p *pricing.CustomerPrice) error {
	defer r.flush()
	return r.CustomerPrices.Set(ctx, p)
}

func (r flushCustomerPrices) Delete(ctx context.Context, resellerID, serviceID uint64) error {
	defer r.flush()
	return r.CustomerPrices.Delete(ctx, resellerID, serviceID)
}

func (r flushCustomerPrices) SetMarkup(ctx context.Context, resellerID uint64, markup *decimal.Decimal, at time.Time) error {
	defer r.flush()
	return r.CustomerPrices.SetMarkup(ctx, resellerID, markup, at)
}

// invalidating returns s with the cached repositories wrapped to call flush
// after every write.
func invalidating(s store.Stores, flush func()) store.Stores {
	if s.Users != nil {
		s.Users = flushUsers{s.Users, flush}
	}
	if s.Keys != nil {
		s.Keys = flushKeys{s.Keys, flush}
	}
	if s.Services != nil {
		s.Services = flushServices{s.Services, flush}
	}
	if s.Pricing != nil {
		s.Pricing = flushPricing{s.Pricing, flush}
	}
	if s.CustomerPrices != nil {
		s.CustomerPrices = flushCustomerPrices{s.CustomerPrices, flush}
	}
	return s
}

// flushingTx hands transactions invalidating stores and empties the cache
// again after a transaction that wrote a cached row has ended.
type flushingTx struct {
	store.Transactor
	c *lookups
}

func (t flushingTx) WithinTx(ctx context.Context, fn func(ctx context.Context, s store.Stores) error) error {
	return t.c.flushAfter(func(flush func()) error {
		return t.Transactor.WithinTx(ctx, func(ctx context.Context, s store.Stores) error { return fn(ctx, invalidating(s, flush)) })
	})
}

// flushAfter runs tx with a flush for its writes to call: each call empties
// the cache, and so does the end of tx when any write called it (a reader
// may have cached the old row while the transaction was open).
func (c *lookups) flushAfter(tx func(flush func()) error) error {
	var mu sync.Mutex
	wrote := false
	err := tx(func() {
		mu.Lock()
		wrote = true
		mu.Unlock()
		c.flush()
	})
	mu.Lock()
	w := wrote
	mu.Unlock()
	if w {
		c.flush()
	}
	return err
}
