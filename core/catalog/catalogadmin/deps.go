package catalogadmin

import (
	"time"

	"paygate/core/platform/store"
)

// Catalog is the use cases of the service catalog: services, their docs and
// their pricing.
type Catalog struct {
	tx  store.TransactorOf[TxStores]
	st  Stores
	now func() time.Time
}

// New wires the catalog's use cases; now may be nil (time.Now).
func New(tx store.TransactorOf[TxStores], st Stores, now func() time.Time) *Catalog {
	if now == nil {
		now = time.Now
	}
	return &Catalog{tx: tx, st: st, now: now}
}
