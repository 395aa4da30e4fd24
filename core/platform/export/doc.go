// Package export holds the rule of the panel's CSV exports: at most
// MaxPerUser run at a time for one user, on every instance together. Each
// running export holds a lease on one of its user's slots, kept in the
// database; a lease is renewed while the export runs and lapses when its
// instance dies, so a crash frees the slot after LeaseTTL
// (docs/decisions.md, "CSV exports").
//
// A slot is a lease row in export_leases (LeaseTTL 2 min, deleted at the
// end); a third export is 429 too_many_exports with Retry-After: 10. The
// lease is renewed every 20 s by a goroutine of the export for as long as
// it runs, rows flowing or its writer blocked on a slow client, so any
// EXPORT_STALL_TIMEOUT keeps the cap (a test holds it for five leases of
// stalled writers); a renewal that finds the slot taken over (the lease
// lapsed while the database was unreachable) cancels the export. A stall
// timeout above the lease is therefore allowed.
//
// The writing side (adapters/httpapi, csv.go) moves the connection's write
// deadline EXPORT_STALL_TIMEOUT (30 s) ahead on every write, so only a
// reader that makes no progress is cut; answers carry Connection: close.
// Nothing is written before the first row (an early error gets the JSON
// body); an error after it cuts the connection, never a short file that
// looks complete. Money is the column's exact string, times RFC 3339 in
// TIMEZONE, every cell quoted, no BOM; a formula sign (=, +, -, @, tab,
// CR, fullwidth ＝ ＋ － ＠) at the start of a cell or after a , or ;
// inside it (spaces between allowed) gets a ' before it, since spreadsheets
// in ; locales split an unquoted Asha;=1+1 and run its second half (one
// rule, safeCell, for every export). The server sets ReadHeaderTimeout
// 10 s, ReadTimeout and IdleTimeout 2 min, and no WriteTimeout. The rows
// come in keyset pages (adapters/sqlstore, "Exports").
package export
