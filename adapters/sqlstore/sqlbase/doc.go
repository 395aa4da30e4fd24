// Package sqlbase is what every area's store shares: Base, the database or
// transaction handle and dialect each repository holds (ByPrimaryKey,
// Locking, InsertIgnore, SQLExec), the translation of driver errors into
// the core's errors, decimal and time conversions, row walks and keyset
// pages, the upsert syntax of each server, batch chunking and secret
// sealing. It imports no area.
package sqlbase
