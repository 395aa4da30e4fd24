// Package catalogstore keeps the catalog area's rows: services and their
// prices. Repositories are built by adapters/sqlstore over a sqlbase.Base.
package catalogstore
