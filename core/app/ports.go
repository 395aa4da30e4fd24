// Package app holds the use cases that span domains: metering a service
// call and the ledger check; it builds the panel's use cases (core/panel)
// beside them. It depends on ports only; adapters are wired in cmd/.
package app

import (
	"paygate/core/catalog"
	"paygate/core/metering"
	"paygate/core/store"
)

// Transitional names while the use cases move out of this package.
type (
	Stores           = store.Stores
	Transactor       = store.Transactor
	BatchStores      = metering.BatchStores
	BatchTransactor  = metering.BatchTransactor
	BatchLocks       = metering.BatchLocks
	BatchInserts     = metering.BatchInserts
	KeyCount         = metering.KeyCount
	Upstream         = metering.Upstream
	ServiceSeed      = catalog.Seed
	UpstreamRequest  = metering.UpstreamRequest
	UpstreamResponse = metering.UpstreamResponse
)
