// Package storecontract is the contract suite that holds the in-memory
// store (core/platform/store/storetest) to the real stores: the same cases
// run on the fake and on the SQL store over SQLite and MariaDB, so a
// behaviour the use cases rely on (conditional updates, the keys' daily
// counter, holds, list and export order, idempotency keys, rollback,
// not-found errors) is the same in both. StoreContract runs them all; each
// store opens itself with an Opener. Only tests import it.
package storecontract
