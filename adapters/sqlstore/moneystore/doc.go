// Package moneystore keeps the money area's rows: the ledger (and its
// batched inserts), top-ups, transfers and reconciliation statements.
// Repositories are built by adapters/sqlstore over a sqlbase.Base.
package moneystore
