package gateway_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/apikey"
	apikeymocks "paygate/core/apikey/mocks"
	catalogmocks "paygate/core/catalog/mocks"
	"paygate/core/gateway"
	hitmocks "paygate/core/hitlog/mocks"
	ledgermocks "paygate/core/ledger/mocks"
	"paygate/core/metering"
	pricingmocks "paygate/core/pricing/mocks"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// wire builds the gateway on metering, as the server does: d's Tx and
// Stores go through metering's invalidating ones, and metering bills.
func wire(t *testing.T, d gateway.Deps, loc *time.Location) (*gateway.Gateway, *metering.Metering) {
	m := metering.New(metering.Deps{Tx: d.Tx, Stores: d.Stores, Now: d.Now, Config: metering.Config{Location: loc}})
	t.Cleanup(m.Wait)
	d.Tx, d.Stores = m.Invalidating()
	d.Meter = m
	return gateway.New(d), m
}

// fixture is the metered part of a gateway call's world, made of mocks.
type fixture struct {
	tx       *storemocks.MockTransactor
	users    *usermocks.MockRepository
	keys     *apikeymocks.MockRepository
	services *catalogmocks.MockRepository
	prices   *pricingmocks.MockRepository
	ledger   *ledgermocks.MockRepository
	hits     *hitmocks.MockRepository
	app      *gateway.Gateway
	meter    *metering.Metering
	key      *apikey.Key
	secret   string
	user     *user.User
	now      time.Time
}
