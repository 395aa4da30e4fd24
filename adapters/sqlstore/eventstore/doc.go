// Package eventstore keeps the events area's rows: webhook events, their
// deliveries, attempts and redeliveries. Repositories are built by
// adapters/sqlstore over a sqlbase.Base.
package eventstore
