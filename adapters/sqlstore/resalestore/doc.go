// Package resalestore keeps the resale area's rows: brands, customer
// prices, commissions and the reseller reports. Repositories are built by
// adapters/sqlstore over a sqlbase.Base.
package resalestore
