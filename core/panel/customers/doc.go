// Package customers holds a reseller's use cases over its own customers
// (decisions "Resellers: customers and their scoping"): create, list, read, block and activate them, read
// their keys (never secrets), hit logs, transactions and transfers, move
// money to and from them, and the reseller's dashboard. Every use case
// answers 404 for an id that is not the caller's customer, whoever's it is;
// anyone but an active reseller gets 403 before an id is read.
// adapters/httpapi/scoping_test.go walks every panel route from the router
// as two resellers and their customers, on SQLite and MariaDB.
//
// A customer is created active with role user, its default key and webhook
// secret; without a password it is mailed a password-reset link (valid 60
// minutes; "Forgot password" after that) in place of the invite mail.
// Blocking ends the customer's sessions. The audit entries
// customer.create, customer.block, customer.activate and transfer.create
// carry the reseller as actor.
//
// A transfer (panel.Move) with an Idempotency-Key, unique per reseller,
// stores a hash of customer, direction and amount: a replay with the same
// body answers 201 with Idempotent-Replayed: true and today's balances; a
// concurrent duplicate loses the unique key, rolls back and is answered
// from the winner's row.
//
// The dashboard sums the success hits carrying the reseller
// (api_hit_logs.reseller_id, by its index) created in [from, to): calls,
// spend (the charges), commission, and cost = spend − commission; settled
// is the commission settlements whose hour starts in the range. Defaults:
// the last 30 local days up to now; at most 366 days.
package customers
