// Package customers holds a reseller's use cases over its own customers
// (decisions "Resellers: customers and their scoping"): create, list, read, block and activate them, read
// their keys (never secrets), hit logs, transactions and transfers, move
// money to and from them, and the reseller's dashboard. Every use case
// answers 404 for an id that is not the caller's customer, whoever's it is.
package customers
