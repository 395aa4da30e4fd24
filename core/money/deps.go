package money

import (
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/panel"
	"paygate/core/money/topup"
	"paygate/core/platform/store"
)

// Config is what balance requests need from the service's configuration.
type Config struct {
	MaxTopUp decimal.Decimal // largest balance request (BALANCE_REQUEST_MAX); 0 means topup.DefaultMaxAmount
	// Livemode says whether this instance's money is real (its payment
	// provider is live): the livemode of balance_request.* and balance.low.
	Livemode bool
}

// Deps are the ports and configuration of balance requests. Now may be
// nil (time.Now).
type Deps struct {
	Tx       store.TransactorOf[TxStores]
	Requests Requests
	Users    Users       // requests' owners
	Files    panel.Files // screenshots; nil refuses them
	Now      func() time.Time
	Config   Config
}

// TopUps are the use cases of balance requests.
type TopUps struct {
	tx       store.TransactorOf[TxStores]
	requests Requests
	users    Users
	files    panel.Files
	now      func() time.Time
	cfg      Config
}

// New wires the balance requests.
func New(d Deps) *TopUps {
	if d.Now == nil {
		d.Now = time.Now
	}
	if !d.Config.MaxTopUp.IsPositive() {
		d.Config.MaxTopUp = topup.DefaultMaxAmount
	}
	return &TopUps{tx: d.Tx, requests: d.Requests, users: d.Users, files: d.Files, now: d.Now, cfg: d.Config}
}
