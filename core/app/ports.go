// Package app holds the use cases that span domains: metering a service
// call, panel operations, bootstrap and the ledger check. It depends on
// ports only; adapters are wired in cmd/.
package app

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"paygate/core/apikey"
	"paygate/core/audit"
	"paygate/core/catalog"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/payment"
	"paygate/core/pricing"
	"paygate/core/recharge"
	"paygate/core/session"
	"paygate/core/user"
	"paygate/core/verification"
)

// Stores are the repositories, all bound to one database handle or to one
// transaction.
type Stores struct {
	Users    user.Repository
	Keys     apikey.Repository
	Services catalog.Repository
	Pricing  pricing.Repository
	Ledger   ledger.Repository
	Hits     hitlog.Repository
	Sessions session.Repository
	Settings session.Settings
	Audit    audit.Repository

	Payments      payment.Repository
	Idempotency   payment.IdempotencyKeys
	Recharges     recharge.Repository
	Verifications verification.Repository
}

// Transactor runs fn in one database transaction with Stores bound to it.
// fn's error rolls back; nil commits. Row locks taken through the stores
// (user.Repository.LockByID) last until the end of fn.
type Transactor interface {
	WithinTx(ctx context.Context, fn func(ctx context.Context, s Stores) error) error
}

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

// AccessTokens issues and reads short-lived panel access tokens.
type AccessTokens interface {
	Issue(userID uint64, role user.Role, now time.Time) (token string, expiresIn time.Duration, err error)
	Parse(token string, now time.Time) (userID uint64, err error)
}
