// Package gatewaystore keeps the gateway area's rows: payments and their
// idempotency keys, recharges, verifications, refunds, payouts,
// beneficiaries, account openings and UTR claims. Repositories are built
// by adapters/sqlstore over a sqlbase.Base.
package gatewaystore
