package metering

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

// Preparing a metered call: what it needs is read through the lookups
// (a cache of rows that change rarely, below), the key authenticated and
// its allow lists checked, the caller's price and the parameters read, all
// into one value (call) before it runs.

// prepare reads what the call needs, through the lookups (below): the
// service, the key and its owner, the price, the parameter rules; it
// checks the key's allow lists (a refusal is logged). c is nil until the
// key is known.
func (a *Metering) prepare(ctx context.Context, in CallInput) (c *call, err error) {
	svc, err := a.serviceBySlug(ctx, in.Slug)
	if err != nil || svc.Status != catalog.StatusActive || svc.Builtin {
		if err != nil && !errors.Is(err, catalog.ErrServiceNotFound) && errs.KindOf(err) != errs.NotFound {
			return nil, fmt.Errorf("find service %q: %w", in.Slug, err)
		}
		return nil, catalog.ErrServiceNotFound
	}
	if in.Method != svc.Method {
		return nil, &MethodError{Allow: svc.Method}
	}
	if in.Key == "" { // a metered call names its key; a secret alone is a gateway caller's
		return nil, apikey.ErrInvalidCredentials
	}
	key, owner, err := a.authenticate(ctx, Credentials{Key: in.Key, Secret: in.Secret})
	if err != nil {
		return nil, err
	}
	now := a.now()
	c = &call{svc: svc, key: key, owner: owner, start: now, day: a.day(now), month: a.month(now)}
	sl, err := a.saleOf(ctx, svc.ID, owner, true)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return c, catalog.ErrServiceNotFound // not sold
		}
		return c, fmt.Errorf("find price: %w", err)
	}
	c.price, c.charge, c.commission = sl.Row, sl.Charge, sl.Commission

	specs, err := a.paramSpecs(ctx, svc)
	if err != nil {
		return c, fmt.Errorf("find docs: %w", err)
	}
	req := a.readRequest(svc.Method, specs, in.Query, in.Body)
	c.params, c.payload, c.secrets = req.params, req.payload, req.secrets
	c.hit = &hitlog.Hit{
		UserID: owner.ID, ServiceID: svc.ID, APIKeyID: key.ID, RequestID: in.RequestID,
		RequestPayload: req.stored, IPAddress: in.IP, ResellerID: sl.Reseller, Commission: decimal.Zero,
		ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero, CreatedAt: now.UTC(),
	}
	if err := keyRefusal(key, svc.ID, in.IP); err != nil {
		return c, a.reject(ctx, c.hit, err, now)
	}
	perr := req.err
	if perr == nil {
		if perr = specs.Validate(req.params); perr != nil && len(req.dropped) > 0 {
			perr = &scrubbedError{error: perr, names: req.dropped}
		}
	}
	c.invalid = perr
	return c, nil
}

// authenticate resolves a caller's credentials to an active key and its
// owner: the one key check of metered calls and gateway operations. The
// key and its owner are read through the lookups (keyOf, userByID): a
// change made through this instance (a revoked key, a rotated secret, a
// blocked owner) is seen at once, one made through another instance
// within the lookups' bound (DefaultLookupTTL).
func (a *Metering) authenticate(ctx context.Context, c Credentials) (*apikey.Key, *user.User, error) {
	if c.KeyID == 0 && (c.Secret == "" || len(c.Secret) > 128 || len(c.Key) > 64) {
		return nil, nil, apikey.ErrInvalidCredentials
	}
	k, err := a.keyOf(ctx, c)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, nil, apikey.ErrInvalidCredentials
		}
		return nil, nil, fmt.Errorf("find key: %w", err)
	}
	if k.Status != apikey.StatusActive || c.KeyID == 0 && !k.SecretMatches(c.Secret) {
		return nil, nil, apikey.ErrInvalidCredentials
	}
	u, err := a.keyOwner(ctx, k)
	if err != nil {
		return nil, nil, err
	}
	return k, u, nil
}

// keyOwner is the owner of an authenticated key: 401 when gone, 403 when
// not active.
func (a *Metering) keyOwner(ctx context.Context, k *apikey.Key) (*user.User, error) {
	u, err := a.userByID(ctx, k.UserID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, apikey.ErrInvalidCredentials
		}
		return nil, fmt.Errorf("find key owner: %w", err)
	}
	if u.IsDeleted() {
		return nil, apikey.ErrInvalidCredentials
	}
	if u.Status != user.StatusActive {
		return nil, user.ErrNotActive
	}
	return u, nil
}

// keyRefusal is the refusal of a call by its key's allow lists: the
// caller's address, then the service; nil when both allow it.
func keyRefusal(key *apikey.Key, serviceID uint64, ip string) error {
	if !key.AllowsIP(ip) {
		return apikey.ErrIPNotAllowed
	}
	if !key.AllowsService(serviceID) {
		return apikey.ErrServiceNotAllowed
	}
	return nil
}

// reject writes the hit log row of a call refused before any charge
// (refused) and returns the refusal.
func (a *Metering) reject(ctx context.Context, hit *hitlog.Hit, cause error, start time.Time) error {
	refused(hit, cause, start, a.now())
	if err := a.reads.Hits.Insert(context.WithoutCancel(ctx), hit); err != nil {
		return fmt.Errorf("log rejected hit: %w (rejected with: %v)", err, cause)
	}
	return cause
}

// DefaultLookupTTL is how long an instance trusts what it read of a key, a
// service, its docs, a price or a user's status (decisions: "Metering
// caches"). A change made through this instance empties the cache at once;
// a change made by another instance is seen within this bound.
const DefaultLookupTTL = time.Second

// maxLookups bounds the cache's size; a full cache is emptied.
const maxLookups = 50_000

type lookupKind uint8

const (
	lookupService        lookupKind = iota + 1 // by slug
	lookupAPIKey                               // by key
	lookupAPIKeyBySecret                       // by the secret's hash (a gateway caller's secret alone)
	lookupAPIKeyByID                           // by id (Credentials.KeyID)
	lookupUser                                 // by id
	lookupQuote                                // by service and caller ids: the caller's price (pricing.PriceFor)
	lookupDoc                                  // by service id: its specs
)

type lookupKey struct {
	kind lookupKind
	s    string
	a, b uint64
}

type lookupEntry struct {
	v   any
	err error // a NotFound answer is kept like a value
	exp time.Time
}

// lookups is the metering path's read cache of rows that change rarely:
// keys, services, docs (with compiled parameter rules), prices and users'
// status and role. Balances, plan counters and daily counters are never
// read from it: they are decided in the database under row locks.
// Entries are values shared by callers, never modified.
type lookups struct {
	ttl time.Duration
	now func() time.Time

	mu       sync.Mutex
	gen      uint64 // bumped by flush; a load that started before a flush is not kept
	m        map[lookupKey]lookupEntry
	inflight map[flightKey]*flight // loads under way: callers of the same generation share them
}

// flightKey is a load of k begun in generation gen: a caller that arrives
// after a flush never shares a load begun before it.
type flightKey struct {
	k   lookupKey
	gen uint64
}

type flight struct {
	done chan struct{}
	v    any
	err  error
}

func newLookups(ttl time.Duration, now func() time.Time) *lookups {
	return &lookups{ttl: ttl, now: now, m: map[lookupKey]lookupEntry{}, inflight: map[flightKey]*flight{}}
}

// get returns the cached value of k, or loads it. Only values and NotFound
// errors are kept; other errors are returned and forgotten.
func (c *lookups) get(k lookupKey, load func() (any, error)) (any, error) {
	if c.ttl <= 0 {
		return load()
	}
	now := c.now()
	c.mu.Lock()
	e, ok := c.m[k]
	gen := c.gen
	if ok && now.Before(e.exp) {
		c.mu.Unlock()
		return e.v, e.err
	}
	// When an entry expires under load, every call in flight misses it at
	// once: they share one load instead of each reading the row (and the
	// pool opening connections for them).
	fk := flightKey{k, gen}
	if f, ok := c.inflight[fk]; ok {
		c.mu.Unlock()
		<-f.done
		if f.err == nil || errs.KindOf(f.err) == errs.NotFound {
			return f.v, f.err
		}
		return load() // the shared load failed (its caller's context, say): try on our own
	}
	f := &flight{done: make(chan struct{}), err: errLoadPanicked}
	c.inflight[fk] = f
	c.mu.Unlock()
	defer func() { // also when load panics: the waiters then load on their own
		c.mu.Lock()
		delete(c.inflight, fk)
		if (f.err == nil || errs.KindOf(f.err) == errs.NotFound) && c.gen == gen {
			if len(c.m) >= maxLookups {
				c.m = map[lookupKey]lookupEntry{}
			}
			c.m[k] = lookupEntry{v: f.v, err: f.err, exp: now.Add(c.ttl)}
		}
		c.mu.Unlock()
		close(f.done)
	}()
	f.v, f.err = load()
	return f.v, f.err
}

var errLoadPanicked = errors.New("lookup load panicked")

// flush forgets everything: called when this instance writes a key, a
// user, a service, docs or a price (before and after the commit).
func (c *lookups) flush() {
	c.mu.Lock()
	c.gen++
	if len(c.m) > 0 {
		c.m = map[lookupKey]lookupEntry{}
	}
	c.mu.Unlock()
}

// Cached reads of the metering path.

func (a *Metering) serviceBySlug(ctx context.Context, slug string) (*catalog.Service, error) {
	v, err := a.cache.get(lookupKey{kind: lookupService, s: slug}, func() (any, error) { return a.reads.Services.BySlug(ctx, slug) })
	s, _ := v.(*catalog.Service)
	return s, err
}

// keyOf is the key c names: by id (KeyID), by its secret's hash (no key
// given) or by key.
func (a *Metering) keyOf(ctx context.Context, c Credentials) (*apikey.Key, error) {
	lk := lookupKey{kind: lookupAPIKey, s: c.Key}
	switch {
	case c.KeyID != 0:
		lk = lookupKey{kind: lookupAPIKeyByID, a: c.KeyID}
	case c.Key == "":
		lk = lookupKey{kind: lookupAPIKeyBySecret, s: apikey.HashSecret(c.Secret)}
	}
	v, err := a.cache.get(lk, func() (any, error) {
		var k *apikey.Key
		var err error
		switch lk.kind {
		case lookupAPIKeyByID:
			k, err = a.reads.Keys.ByID(ctx, lk.a)
		case lookupAPIKeyBySecret:
			k, err = a.reads.Keys.BySecretHash(ctx, lk.s)
		default:
			k, err = a.reads.Keys.ByKey(ctx, lk.s)
		}
		if err == nil {
			a.usage.read(k) // its daily counter as of now (quota.go)
		}
		return k, err
	})
	k, _ := v.(*apikey.Key)
	return k, err
}

func (a *Metering) userByID(ctx context.Context, id uint64) (*user.User, error) {
	v, err := a.cache.get(lookupKey{kind: lookupUser, a: id}, func() (any, error) { return a.reads.Users.ByID(ctx, id) })
	u, _ := v.(*user.User)
	return u, err
}

// sale is what a call of a service costs its caller (pricing.Quote): the
// price row it is billed under (its admin cost is the call's cost), the
// charge, and for a reseller's customer the reseller and its commission.
type sale = pricing.Quote

// ChargeOf is what owner pays for one call of serviceID, as Meter charges
// it (read uncached, as Meter reads it): the payout fee's quote.
func (a *Metering) ChargeOf(ctx context.Context, serviceID uint64, owner *user.User) (decimal.Decimal, error) {
	sl, err := a.saleOf(ctx, serviceID, owner, false)
	if err != nil {
		return decimal.Zero, err
	}
	return sl.Charge, nil
}

// saleOf is owner's sale of service serviceID: pricing.PriceFor, the one
// function that also gives the price the panel shows. Cached, the quote is
// kept per service and caller like the other lookups (its reseller's row,
// prices and selling price are read when it is loaded); it reads nothing
// of the reseller but rows that change rarely: no balance, no lock.
func (a *Metering) saleOf(ctx context.Context, serviceID uint64, owner *user.User, cached bool) (sale, error) {
	load := func() (any, error) {
		q, err := pricing.PriceFor(ctx, pricing.Reads{Prices: a.reads.Pricing, Users: a.reads.Users, Selling: a.reads.Selling}, serviceID, owner)
		if err != nil {
			return nil, err
		}
		return &q, nil
	}
	var v any
	var err error
	if cached {
		v, err = a.cache.get(lookupKey{kind: lookupQuote, a: serviceID, b: owner.ID}, load)
	} else {
		v, err = load()
	}
	if err != nil {
		return sale{}, err
	}
	return *v.(*sale), nil
}

// paramSpecs are the rules a service's parameters are checked against (its
// docs' request_params, else its parameter list), with patterns compiled.
func (a *Metering) paramSpecs(ctx context.Context, svc *catalog.Service) (*catalog.CompiledSpecs, error) {
	v, err := a.cache.get(lookupKey{kind: lookupDoc, a: svc.ID, s: svc.Slug}, func() (any, error) {
		doc, err := a.reads.Services.Doc(ctx, svc.ID)
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return nil, err
		}
		return catalog.Compile(catalog.Specs(svc, doc)), nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*catalog.CompiledSpecs), nil
}
