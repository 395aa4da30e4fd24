// Package storetest is an in-memory store for the use cases' tests: a DB
// whose Stores and WithinTx behave as the ports in core/platform/store and the
// domain packages document (conditional updates, "reports whether this call
// did it", not-found errors), so a test sets rows up, runs a use case and
// asserts the rows it left, not the order of the store calls.
//
// Contract of the fake as a whole:
//   - WithinTx runs one transaction at a time (a mutex stands in for the
//     row locks, which a real database takes per row): LockByID therefore
//     holds for the whole of fn. fn's error rolls every table back to where
//     it was when the transaction began; nil keeps the writes.
//   - Stores() used outside WithinTx writes at once (autocommit). Such a
//     write made while another goroutine's transaction later rolls back is
//     rolled back with it (the fake keeps no per-row undo); Put, the way a
//     test makes a change "elsewhere", survives the rollback.
//   - Rows are copied in and out: a caller's struct is never shared with the
//     table, as with a database.
//   - A row given an id keeps it (seeding with Put, or Insert of a row with
//     an id); otherwise the table assigns the next one.
//   - Methods no test needs panic with "storetest: … not implemented"
//     rather than answer something the real store would not.
//
// storecontract.StoreContract (core/platform/store/storecontract) holds
// the fake to the real thing: the same cases run here and on sqlstore
// over SQLite and MariaDB (adapters/sqlstore/contract_test.go), so a
// behaviour the use cases rely on (conditional updates, the keys' daily
// counter, holds, list and export order, idempotency keys, rollback,
// not-found errors) is the same in the fake as in the stores. Where the
// fake deliberately differs:
//   - One transaction at a time, where a database locks rows: a
//     transaction waits for every other one, not only for those that lock
//     the rows it locks, so a test cannot show two transactions
//     interleaving on different rows.
//   - Ids come from counters that a rollback resets (a database's
//     auto-increment does not give a rolled-back id again); and a row given
//     an id keeps it, where the stores' Insert and Create take the next.
//   - Times are kept as given; the databases keep microseconds.
//   - Hits.ClearPayloads clears row by row, oldest id first; MariaDB drops
//     payloads a month at a time (the port allows both), so the contract
//     leaves it out. Hits.Finish finds a hit by its id only (the store
//     also by request id when the id is 0, which no caller does).
//   - Create and Update leave CreatedAt and UpdatedAt as the caller set
//     them; the stores stamp the time of the write when they are zero.
//
// Faults: Fail makes the next calls of a method return errors; OnCall runs
// a function before each call of a method (to fail, or wait); Calls counts
// them. Methods are named "Repo.Method" after the Stores field:
// "Users.LockByID", "Hits.FinishMany", and "WithinTx" for the transaction.
package storetest

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/events/webhook"
	"paygate/core/gateway/accountopen"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/money/ledger"
	"paygate/core/money/topup"
	"paygate/core/money/transfer"
	"paygate/core/platform/store"
	"paygate/core/resale/brand"
	"paygate/core/resale/settlement"
)

// DB is the in-memory database. The zero value is not ready: use New.
type DB struct {
	txMu sync.Mutex // one transaction at a time

	mu    sync.Mutex // guards t, saved, hooks and calls
	t     tables
	saved *tables // the open transaction's rollback, if any
	hooks map[string]func() error
	calls map[string]int
}

var _ store.Transactor = (*DB)(nil)

// tables hold rows by value, keyed by id; ledger entries, verifications,
// attempts and audit entries are append-only, in id order.
type tables struct {
	next          map[string]uint64 // last id given per table
	users         map[uint64]user.User
	keys          map[uint64]apikey.Key
	services      map[uint64]catalog.Service
	docs          map[uint64]catalog.Doc
	prices        map[uint64]pricing.Price
	ledger        []ledger.Entry
	hits          map[uint64]hitlog.Hit
	holds         map[uint64]hold.Hold
	events        map[uint64]webhook.Event
	deliveries    map[uint64]webhook.Delivery
	claims        map[uint64]string // delivery id → claim token
	attempts      []webhook.Attempt
	redeliveries  []redelivery // manual redeliveries, in time order
	payments      map[uint64]payment.Payment
	idempotency   []payment.IdempotencyKey
	recharges     map[uint64]recharge.Recharge
	payouts       map[uint64]payout.Payout
	verifications []verification.Record
	topups        map[uint64]topup.Request
	sessions      map[uint64]session.Token
	audit         []audit.Entry
	resets        map[string]user.ResetToken
	closed        map[string]ClosedDay // zone|day → its mark
	rollups       []Rollup
	refunds       map[uint64]payment.Refund
	refundKeys    []payment.RefundKey
	openings      map[uint64]accountopen.Opening
	utrClaims     map[string]utrClaim // canonical UTR → its claim
	plans         map[uint64]plan.Plan
	supplier      map[uint64]taxprofile.Supplier // the one record at key 1, once saved
	profiles      map[uint64]taxprofile.Profile  // billing profiles by user id
	// resellerSuppliers: resellers' own billing and payee details by user id
	resellerSuppliers map[uint64]taxprofile.Supplier
	brands            map[uint64]brand.Brand    // resellers' brand columns (Domains left empty)
	domains           map[domainKey]domainEntry // resellers' claims on hosts

	transfers      map[uint64]transfer.Transfer
	customerPrices map[sellingKey]pricing.CustomerPrice // resellers' selling prices
	markups        map[uint64]decimal.Decimal           // resellers' default markups
	settlements    map[uint64]settlement.Settlement     // commission settlements
}

func (t tables) clone() tables {
	return tables{
		next: maps.Clone(t.next), users: maps.Clone(t.users), keys: maps.Clone(t.keys),
		services: maps.Clone(t.services), docs: maps.Clone(t.docs), prices: maps.Clone(t.prices),
		ledger: slices.Clone(t.ledger), hits: maps.Clone(t.hits), holds: maps.Clone(t.holds),
		events: maps.Clone(t.events), deliveries: maps.Clone(t.deliveries), claims: maps.Clone(t.claims),
		attempts: slices.Clone(t.attempts), redeliveries: slices.Clone(t.redeliveries), payments: maps.Clone(t.payments), idempotency: slices.Clone(t.idempotency),
		recharges: maps.Clone(t.recharges), payouts: maps.Clone(t.payouts), verifications: slices.Clone(t.verifications), topups: maps.Clone(t.topups),
		sessions: maps.Clone(t.sessions), audit: slices.Clone(t.audit), resets: maps.Clone(t.resets),
		closed: maps.Clone(t.closed), rollups: slices.Clone(t.rollups),
		refunds: maps.Clone(t.refunds), refundKeys: slices.Clone(t.refundKeys),
		openings: maps.Clone(t.openings), utrClaims: maps.Clone(t.utrClaims), plans: maps.Clone(t.plans),
		supplier: maps.Clone(t.supplier), profiles: maps.Clone(t.profiles), resellerSuppliers: maps.Clone(t.resellerSuppliers),
		brands: maps.Clone(t.brands), domains: maps.Clone(t.domains),
		transfers:      maps.Clone(t.transfers),
		customerPrices: maps.Clone(t.customerPrices), markups: maps.Clone(t.markups), settlements: maps.Clone(t.settlements),
	}
}

// New returns an empty database.
func New() *DB {
	return &DB{
		t: tables{
			next: map[string]uint64{}, users: map[uint64]user.User{}, keys: map[uint64]apikey.Key{},
			services: map[uint64]catalog.Service{}, docs: map[uint64]catalog.Doc{}, prices: map[uint64]pricing.Price{},
			hits: map[uint64]hitlog.Hit{}, holds: map[uint64]hold.Hold{}, events: map[uint64]webhook.Event{},
			deliveries: map[uint64]webhook.Delivery{}, claims: map[uint64]string{}, payments: map[uint64]payment.Payment{},
			recharges: map[uint64]recharge.Recharge{}, topups: map[uint64]topup.Request{}, sessions: map[uint64]session.Token{},
			resets: map[string]user.ResetToken{}, closed: map[string]ClosedDay{},
			refunds: map[uint64]payment.Refund{}, payouts: map[uint64]payout.Payout{},
			openings: map[uint64]accountopen.Opening{}, utrClaims: map[string]utrClaim{}, plans: seededPlans(),
			supplier: map[uint64]taxprofile.Supplier{}, profiles: map[uint64]taxprofile.Profile{},
			resellerSuppliers: map[uint64]taxprofile.Supplier{},
			brands:            map[uint64]brand.Brand{}, domains: map[domainKey]domainEntry{},
			transfers:      map[uint64]transfer.Transfer{},
			customerPrices: map[sellingKey]pricing.CustomerPrice{}, markups: map[uint64]decimal.Decimal{},
			settlements: map[uint64]settlement.Settlement{},
		},
		hooks: map[string]func() error{},
		calls: map[string]int{},
	}
}

// Stores are the repositories over d. The same Stores serve inside and
// outside WithinTx.
func (d *DB) Stores() store.Stores {
	return store.Stores{
		Users: usersRepo{d}, Keys: keysRepo{d}, Services: servicesRepo{d}, Pricing: pricesRepo{d},
		Ledger: ledgerRepo{d}, Hits: hitsRepo{d}, Sessions: sessionsRepo{d},
		Audit: auditRepo{d}, Resets: resetsRepo{d}, TopUps: topupsRepo{d}, Reports: reportsRepo{d},
		Payments: paymentsRepo{d}, Idempotency: idempotencyRepo{d}, Recharges: rechargesRepo{d},
		Webhooks: webhooksRepo{d}, Holds: holdsRepo{d},
		Refunds: refundsRepo{d}, RefundKeys: refundKeysRepo{d}, Payouts: payoutsRepo{d},
		Openings: openingsRepo{d}, UTRs: utrClaimsRepo{d}, Plans: plansRepo{d},
		TaxProfiles: taxProfilesRepo{d},
		Brands:      brandsRepo{d},
		Transfers:   transfersRepo{d},

		CustomerPrices: customerPricesRepo{d}, Commissions: commissionsRepo{d},
	}
}

// WithinTx runs fn as one transaction: alone (other transactions wait),
// rolled back on fn's error.
func (d *DB) WithinTx(ctx context.Context, fn func(ctx context.Context, s store.Stores) error) error {
	if err := d.call("WithinTx"); err != nil {
		return err
	}
	d.txMu.Lock()
	defer d.txMu.Unlock()
	d.mu.Lock()
	saved := d.t.clone()
	d.saved = &saved
	d.mu.Unlock()
	err := fn(ctx, d.Stores())
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		d.t = *d.saved
	}
	d.saved = nil
	return err
}

// Fail makes the next len(errs) calls of method return errs in turn (a
// nil one lets its call through); later calls run as usual.
func (d *DB) Fail(method string, errs ...error) {
	var mu sync.Mutex
	d.OnCall(method, func() error {
		mu.Lock()
		defer mu.Unlock()
		if len(errs) == 0 {
			return nil
		}
		err := errs[0]
		errs = errs[1:]
		return err
	})
}

// OnCall runs fn before each call of method (replacing an earlier OnCall
// or Fail of it); a non-nil error is the call's answer, with no effect.
func (d *DB) OnCall(method string, fn func() error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.hooks[method] = fn
}

// Calls is how many times method was called (failed calls included).
func (d *DB) Calls(method string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls[method]
}

// call counts a call of method and runs its hook, outside d.mu.
func (d *DB) call(method string) error {
	d.mu.Lock()
	d.calls[method]++
	h := d.hooks[method]
	d.mu.Unlock()
	if h != nil {
		return h()
	}
	return nil
}

// do runs a call of method: its hook, then fn under the tables' lock.
func (d *DB) do(method string, fn func(t *tables) error) error {
	if err := d.call(method); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return fn(&d.t)
}

// id gives a row of table its id: the one it has (the counter moves past
// it) or the next.
func (t *tables) id(table string, have uint64) uint64 {
	if have != 0 {
		t.next[table] = max(t.next[table], have)
		return have
	}
	t.next[table]++
	return t.next[table]
}

func notImplemented(method string) {
	panic("storetest: " + method + " not implemented")
}

// Put stores rows as they are (seeding, or a change made "elsewhere"):
// user.User, apikey.Key, catalog.Service, catalog.Doc, pricing.Price,
// hitlog.Hit, hold.Hold, ledger.Entry, recharge.Recharge, payment.Payment,
// topup.Request, session.Token, webhook.Delivery, and those of putMore. A
// row with id 0 gets the next id. Put returns d, for chaining.
func (d *DB) Put(rows ...any) *DB {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range rows {
		r = d.t.put(r)
		if d.saved != nil { // a change made outside the open transaction
			d.saved.put(r)
		}
	}
	return d
}

// put stores r in t and returns it with its id. A ledger entry put again
// with its id is not added twice.
func (t *tables) put(r any) any {
	switch r := r.(type) {
	case user.User:
		r.ID = t.id("users", r.ID)
		t.users[r.ID] = r
		return r
	case payout.Payout:
		r.ID = t.id("payouts", r.ID)
		t.payouts[r.ID] = r
		return r
	case apikey.Key:
		r.ID = t.id("keys", r.ID)
		t.keys[r.ID] = r
		return r
	case catalog.Service:
		r.ID = t.id("services", r.ID)
		t.services[r.ID] = r
		return r
	case catalog.Doc:
		t.docs[r.ServiceID] = r
		return r
	case pricing.Price:
		r.ID = t.id("prices", r.ID)
		t.prices[r.ID] = r
		return r
	case hitlog.Hit:
		r.ID = t.id("hits", r.ID)
		t.hits[r.ID] = r
		return r
	case hold.Hold:
		r.ID = t.id("holds", r.ID)
		t.holds[r.ID] = r
		return r
	case ledger.Entry:
		if r.ID == 0 || !slices.ContainsFunc(t.ledger, func(e ledger.Entry) bool { return e.ID == r.ID }) {
			r.ID = t.id("ledger", r.ID)
			t.ledger = append(t.ledger, r)
		}
		return r
	case recharge.Recharge:
		r.ID = t.id("recharges", r.ID)
		t.recharges[r.ID] = r
		return r
	case payment.Payment:
		r.ID = t.id("payments", r.ID)
		t.payments[r.ID] = r
		return r
	case payment.Refund:
		r.ID = t.id("refunds", r.ID)
		t.refunds[r.ID] = r
		return r
	case topup.Request:
		r.ID = t.id("topups", r.ID)
		t.topups[r.ID] = r
		return r
	case session.Token:
		r.ID = t.id("sessions", r.ID)
		t.sessions[r.ID] = r
		return r
	case webhook.Delivery:
		r.ID = t.id("deliveries", r.ID)
		t.deliveries[r.ID] = r
		return r
	}
	return t.putMore(r)
}

// sorted returns m's rows in id order.
func sorted[T any](m map[uint64]T) []T {
	ids := slices.Sorted(maps.Keys(m))
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		out = append(out, m[id])
	}
	return out
}

func read[T any](d *DB, fn func(t *tables) T) T {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fn(&d.t)
}

// Reads for assertions: rows as stored now, in id order.

func (d *DB) User(id uint64) user.User {
	return read(d, func(t *tables) user.User { return t.users[id] })
}
func (d *DB) Key(id uint64) apikey.Key {
	return read(d, func(t *tables) apikey.Key { return t.keys[id] })
}
func (d *DB) Hits() []hitlog.Hit {
	return read(d, func(t *tables) []hitlog.Hit { return sorted(t.hits) })
}
func (d *DB) Entries() []ledger.Entry {
	return read(d, func(t *tables) []ledger.Entry { return slices.Clone(t.ledger) })
}
func (d *DB) Holds() []hold.Hold {
	return read(d, func(t *tables) []hold.Hold { return sorted(t.holds) })
}
func (d *DB) Events() []webhook.Event {
	return read(d, func(t *tables) []webhook.Event { return sorted(t.events) })
}
func (d *DB) Deliveries() []webhook.Delivery {
	return read(d, func(t *tables) []webhook.Delivery { return sorted(t.deliveries) })
}
func (d *DB) Attempts() []webhook.Attempt {
	return read(d, func(t *tables) []webhook.Attempt { return slices.Clone(t.attempts) })
}
func (d *DB) Payments() []payment.Payment {
	return read(d, func(t *tables) []payment.Payment { return sorted(t.payments) })
}
func (d *DB) Recharges() []recharge.Recharge {
	return read(d, func(t *tables) []recharge.Recharge { return sorted(t.recharges) })
}
func (d *DB) Payouts() []payout.Payout {
	return read(d, func(t *tables) []payout.Payout { return sorted(t.payouts) })
}

// VerificationStore is the verification records' repository over d (wired
// apart from Stores, as no transaction needs it).
func (d *DB) VerificationStore() verification.Repository { return verificationsRepo{d} }

func (d *DB) Verifications() []verification.Record {
	return read(d, func(t *tables) []verification.Record { return slices.Clone(t.verifications) })
}
func (d *DB) TopUps() []topup.Request {
	return read(d, func(t *tables) []topup.Request { return sorted(t.topups) })
}
func (d *DB) Sessions() []session.Token {
	return read(d, func(t *tables) []session.Token { return sorted(t.sessions) })
}
func (d *DB) AuditEntries() []audit.Entry {
	return read(d, func(t *tables) []audit.Entry { return slices.Clone(t.audit) })
}
