// Package report turns hit logs into the dashboard's figures: calls and
// money per local day and service. The hit writers keep an hourly roll-up
// of final hits in step with the hit log (per user, service and local
// hour); closed days are summed from it once into the daily roll-up; open
// days read the hourly rows, and the few hits still pending are read live
// (docs/decisions.md, "The dashboard reads usage roll-ups only").
//
// Hourly. hit_usage_hours holds, per (user, service, local hour of
// TIMEZONE), the calls per final status and the revenue and cost, money in
// integer ten-thousandths so SUM() is exact on both databases. The write
// that makes a hit final adds it to its row in the same transaction: an
// insert of a final hit, or a settlement that moved a pending one
// (settlements move only pending hits, so a hit is added once). The writes
// live in the hit repository, so every path (metering batches, one-off
// calls, gateway operations, crash recovery) keeps it; pending hits are
// left out (a second write when they settle) and read live by the
// (status, created_at) index.
//
// Daily. A day is closed once into hit_daily_rollups (marked in
// hit_rollup_days, both keyed by zone name) by summing its hourly rows, 15
// minutes after it ended and only when none of its hits is pending. The
// mark and rows are inserted in one transaction, so two instances store a
// day once. The usage-days worker closes days ahead of any read; a read
// that finds one open closes it from a few thousand hourly rows.
//
// Checked. The ledger check sums each user's final hits per service and
// local hour and compares them with the hourly roll-up (a mismatch is
// reported if it survives a second read), and each closed day's daily rows
// with its hourly rows.
//
// Zone. Rows are local hours of TIMEZONE (every zone's offset is whole
// quarter hours, so an hour lies in one local day); app.New gives the store
// its zone. Changing TIMEZONE to a zone with another sub-hour offset (IST's
// :30 to a whole-hour zone) leaves old rows on the old hours: the ledger
// check reports them, and the backfill would have to run again on an
// emptied table. Hits written before the roll-up existed are counted into
// it once by the first instance to start (sqlstore's BackfillUsage, see
// UPGRADING.md).
package report
