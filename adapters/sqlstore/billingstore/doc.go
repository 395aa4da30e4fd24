// Package billingstore keeps the billing area's rows: plans and
// subscriptions, invoices with their IRNs, and tax profiles. Repositories
// are built by adapters/sqlstore over a sqlbase.Base.
package billingstore
