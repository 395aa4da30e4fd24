// Package history holds the panel's read side: ledger and hit log lists,
// their CSV exports (under export slots), the names beside a list's ids and
// the dashboard with its day roll-ups. The decisions are docs/decisions.md's
// "Reports and exports"; the rules are core/platform/export's, core/metering/report's and
// core/platform/directory's.
//
// History lists filter the ledger by type, reference_type and (admins)
// user_id, hit logs by service (id or slug; an unknown slug is 422),
// service_id, api_key_id, status and (admins) user_id; non-admins are
// always scoped to themselves. from/to are a local date of TIMEZONE (the
// whole day) or RFC 3339, both inclusive. The ledger is ordered by id, hit
// logs by created_at then id, newest first, so a date range reads in index
// order. Counts and pages cover the newest 10,000 matching rows
// (meta.total_capped beyond; a page past row 10,000 is a 422 pointing to
// the date range and the export). Names beside ids come from
// core/platform/directory after the page's query. Exports run under Exporting
// (core/platform/export's slots).
//
// The dashboard covers the last 30 local days, zero-filled: balance,
// total_spent, calls, billed calls and spend per day, status counts, top 5
// services; admins also revenue, cost and margin, pending requests and
// users per status. It reads the usage roll-ups (core/metering/report) and the
// pending hits only; CloseDays, the usage-days worker (every minute, every
// instance), closes finished days ahead of any read.
package history
