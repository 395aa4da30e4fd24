package keys

import (
	"time"

	"paygate/core/platform/store"
)

// Keys are the use cases of an owner's API keys.
type Keys struct {
	tx  store.TransactorOf[TxStores]
	st  Stores
	now func() time.Time
	loc *time.Location
}

// New wires the key use cases. now may be nil (time.Now); loc is the zone
// of a key's daily count (TIMEZONE), nil meaning UTC.
func New(tx store.TransactorOf[TxStores], st Stores, now func() time.Time, loc *time.Location) *Keys {
	if now == nil {
		now = time.Now
	}
	if loc == nil {
		loc = time.UTC
	}
	return &Keys{tx: tx, st: st, now: now, loc: loc}
}

// day is the local calendar day of t ("2006-01-02").
func (p *Keys) day(t time.Time) string { return t.In(p.loc).Format("2006-01-02") }
