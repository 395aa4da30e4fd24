package metering

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/store"
	"paygate/core/user"
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
	store.Stores
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
