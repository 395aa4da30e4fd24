package metering

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
)

// UpstreamRequest is one call to a provider.
type UpstreamRequest struct {
	Method  string
	URL     string
	Header  http.Header
	Query   url.Values // appended to URL's query
	Body    []byte     // JSON, for POST/PUT
	Timeout time.Duration
}

// UpstreamResponse is the provider's answer (the body capped by the adapter).
type UpstreamResponse struct {
	Status int
	Body   []byte
}

// Upstream performs provider calls. An error means no usable answer
// (refused address, timeout, reset, body over the cap).
type Upstream interface {
	Do(ctx context.Context, req UpstreamRequest) (UpstreamResponse, error)
}

// BatchTransactor may be implemented by the store as well: the metering
// writer runs its transactions with WithinBatchTx, which hands fn the
// batch-only ports beside the ordinary repositories, so the store can give
// the batch a path of its own (fewer round trips while the users' rows are
// locked). Without it the writer uses WithinTx and BatchStores without
// them.
type BatchTransactor interface {
	WithinBatchTx(ctx context.Context, fn func(ctx context.Context, s BatchStores) error) error
}

// BatchStores are the Stores of one metering batch transaction. Locks and
// Inserts are set by a store that can take the batch's locks, or write its
// new rows, in one exchange with the database; nil otherwise, and the
// batch uses the ordinary repositories statement by statement.
type BatchStores struct {
	TxStores
	Locks   BatchLocks
	Inserts BatchInserts
}

// KeyCount asks a key's daily counter for N more calls on Day.
type KeyCount struct {
	KeyID uint64
	Day   string
	N     int
}

// BatchLocks locks the metering batch's rows in one exchange with the
// database. LockAndCount does what user.Repository.LockByID for each of
// userIDs (ascending) and then apikey.Repository.CountHits for each of
// counts (in order, ascending key ids) would: the users (locked), and for
// each count how many calls were granted (0 for a key that no longer
// exists). A user that does not exist is user.ErrNotFound.
type BatchLocks interface {
	LockAndCount(ctx context.Context, userIDs []uint64, counts []KeyCount, at time.Time) (map[uint64]*user.User, []int, error)
}

// BatchInserts writes the metering batch's new rows. Insert does what
// hitlog.Repository.InsertMany(hits) and then
// ledger.Repository.InsertMany(entries) would, where each entry i with
// hitOf[i] >= 0 references hits[hitOf[i]] (its ReferenceID is that hit's
// id; the other entries keep theirs). The store may send the rows with the
// transaction's next statement or its COMMIT: the hits' ids and those
// ReferenceIDs are set once the rows are written, at the latest when the
// transaction has committed, and before any later statement whose result
// the transaction reads. A transaction that fails leaves them unset.
type BatchInserts interface {
	Insert(ctx context.Context, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error
}

// reads are the repositories metering calls outside a transaction, taken
// from its invalidating stores: the lookups (cached, prepare.go), a key's
// daily counter, the hit rows written without a transaction (a call
// refused or replayed, the successes settled apart), the pending hits and
// expired holds recovery finds, and the holds a call waits for. Its transactions
// get TxStores; it hands the whole invalidating store.Stores to the
// wiring (Invalidating), which gives each other use case its own set.
type reads struct {
	Services serviceStore
	Keys     keyStore
	Users    userStore
	Pricing  priceStore
	Hits     hitStore
	Holds    holdStore
	Selling  sellingStore
}

// readsOf are the repositories of st metering calls outside a transaction.
func readsOf(st store.Stores) reads {
	return reads{Services: st.Services, Keys: st.Keys, Users: st.Users, Pricing: st.Pricing, Hits: st.Hits, Holds: st.Holds,
		Selling: st.CustomerPrices}
}

// serviceStore finds a called service and its documentation.
type serviceStore interface {
	BySlug(ctx context.Context, slug string) (*catalog.Service, error)
	Doc(ctx context.Context, serviceID uint64) (*catalog.Doc, error)
}

// keyStore finds a caller's key and counts its calls of the day.
type keyStore interface {
	ByID(ctx context.Context, id uint64) (*apikey.Key, error)
	ByKey(ctx context.Context, key string) (*apikey.Key, error)
	BySecretHash(ctx context.Context, hash string) (*apikey.Key, error)
	CountHit(ctx context.Context, id uint64, day string, at time.Time) (bool, error)
}

// userStore reads a key's owner.
type userStore interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}

// priceStore is the price a user pays for a service.
type priceStore interface {
	Applicable(ctx context.Context, serviceID, userID uint64) (*pricing.Price, error)
}

// sellingStore is what a reseller set for its customers' price of a
// service: its selling price and default markup, in one read.
type sellingStore interface {
	Selling(ctx context.Context, resellerID, serviceID uint64) (pricing.Selling, error)
}

// hitStore writes a refused or replayed call's hit, settles successes
// apart and finds the pending hits recovery settles.
type hitStore interface {
	Insert(ctx context.Context, h *hitlog.Hit) error
	Pending(ctx context.Context, before time.Time, limit int) ([]hitlog.Hit, error)
	SucceedMany(ctx context.Context, hits []*hitlog.Hit) (moved []bool, err error)
}

// holdStore finds the expired holds and an account's open ones.
type holdStore interface {
	Expired(ctx context.Context, cutoff time.Time, limit int) ([]hold.Hold, error)
	ByUser(ctx context.Context, userID uint64) ([]hold.Hold, error)
}
