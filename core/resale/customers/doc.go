// Package customers holds a reseller's use cases over its own customers
// (decisions "Resellers: customers and their scoping"): create, list, read, block and activate them, read
// their keys (never secrets), hit logs (naming the customer's key and the
// service, read after the page: core/platform/directory), transactions and transfers, move
// money to and from them, and the reseller's dashboard. Every use case
// answers 404 for an id that is not the caller's customer, whoever's it is;
// anyone but an active reseller gets 403 before an id is read.
// adapters/httpapi/scoping_test.go walks every panel route from the router
// as two resellers and their customers, on SQLite and MariaDB.
//
// A customer is created pending with role user (a reseller chose its email,
// which may not be the customer's to give) and always mailed an invite link
// (user.InvitePrefix, valid 72 hours; "Forgot password" after that) that
// confirms the email, sets the password and activates the account with its
// default key and webhook secret (core/accounts.ResetPassword, which
// also lets the address's owner take an unconfirmed account as its own).
// Until then the reseller can neither activate nor block it
// (ErrNotConfirmed), nor move money either way (panel.Move). A customer is
// only ever of role user: an id whose account is an admin or a reseller is
// 404 whatever parent_id says. Blocking ends the customer's sessions. The
// audit entries customer.create, customer.block, customer.activate and
// transfer.create carry the reseller as actor.
//
// A from_customer transfer takes back at most what the reseller put in and
// has not taken back (transfer.Funded, read under both rows' locks), never
// the customer's own money (collections, top-ups, approvals of its balance
// requests, an admin's credit).
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
