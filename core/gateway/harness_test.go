package gateway_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/gateway"
	"paygate/core/metering"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// wire builds the gateway on metering over db, as the server does: d's Tx
// and Stores are metering's invalidating ones, and metering bills.
func wire(t *testing.T, db *storetest.DB, d gateway.Deps, loc *time.Location) (*gateway.Gateway, *metering.Metering) {
	m := metering.New(metering.Deps{Tx: db, Stores: db.Stores(), Now: d.Now, Config: metering.Config{Location: loc}})
	t.Cleanup(m.Wait)
	tx, st := m.Invalidating()
	d.Tx, d.Stores = store.Narrow(tx, gateway.TxStoresOf), gateway.StoresOf(st, db.VerificationStore(), nil)
	d.Meter = m
	return gateway.New(d), m
}

// fixture is the metered part of a gateway call's world: an in-memory
// store with the user and key.
type fixture struct {
	db     *storetest.DB
	app    *gateway.Gateway
	meter  *metering.Metering
	key    *apikey.Key
	secret string
	now    time.Time
}

// stored is user 11's row now.
func (f *fixture) stored() user.User { return f.db.User(11) }
