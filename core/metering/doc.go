// Package metering bills calls to registered services (/api/v1/<slug>) and
// gateway operations from a prepaid balance: each call is admitted by one
// rule (admission.go), billed exactly once with its hit log row, and never
// overdraws. Calls of Enterprise keys run on holds (holds.go): money and
// daily calls set aside in the database for many calls, each charged after
// its answer. Others reserve per call. Whatever the mode, the caller or the
// database, a call's money moves only through the writer (writer.go):
// Reserve, Settle, SettleLater, Refund, Hold, Release and Capture, written
// in group commits (the queues in writer.go, batch.go). The decisions are
// docs/decisions.md's "Metered calls"; the path of a call, file by file, is
// in docs/architecture.md. How the package carries them out:
//
// # Holds
//
// A hold sets aside, in one transaction under the user's row lock, the
// money and the key's daily count of up to N calls of one key at one
// charge: the key's counter rises by N, users.held_amount by N × charge,
// and a call_holds row records it. A call takes one call from the hold in
// memory and calls upstream at once. Its hit row, final, and its ledger
// debit are written after its answer by the capture writer, which gathers
// calls for up to Config.SettleLinger (20 ms) into one transaction under
// the user's lock: the debit lowers held_amount and the balance together,
// and the hold's used_calls/used_amount rise. A failed call's charge is
// debited and refunded in that transaction; its hit is failed, uncharged.
//
// A hold serves calls for Config.HoldLifetime (METERING_HOLDS: 1 s by
// default, at most 10 s) or until used up; the next is fetched in the
// background when fewer than half a hold's calls are left. Once its last
// call is captured it is released: its row is deleted first, then the
// money not charged leaves held_amount and the calls not made go back to
// the key's day (only if the counter is still on that day); a release that
// finds the row gone writes nothing. Sizes adapt per key and charge: 8
// calls at first, doubled when a hold is used up before it expires (up to
// 1,024), halved when one is released more than half unused; never more
// than the available balance pays for or the daily limit leaves.
//
// A call that finds its key's holds used up waits for them (woken when one
// of the user's holds is released here or a hold with calls left opens
// here) and for the slot's pause after an empty fetch, then tries a hold
// again, up to three times (holdWaits), before it goes the per-call way: a
// per-call reservation racing a hold fetched meanwhile was refused 402
// while that hold's calls went unused. Near an empty balance a 402
// therefore comes up to ~0.3 s later; money left is never refused.
//
// balance_left of a call on a hold is the available balance when the hold
// was taken plus the hold's calls still left: the balance once this
// instance's calls are charged. hits_today may read up to one hold ahead of
// the calls made, for at most a hold's lifetime; so may RateLimit-Remaining
// (quota.go).
//
// # Waiting for what other holds keep
//
// A call whose hold cannot be granted (no money or daily calls left outside
// other holds) waits, at most two hold lifetimes and a second, until no
// open hold keeps what it needs (the key's holds; every hold of the user
// when the available balance does not pay for it), then is decided the
// per-call way: refused only when nothing it needs is held. The wait does
// not poll: it reads the holds once, then sleeps until this instance
// releases one of the user's holds (a per-user channel closed by
// releaseHold), or until the earliest expiry of another instance's hold
// (then re-reads after 50 ms, doubling up to 1 s), the deadline or the
// context's end. A key over its daily limit costs each refused call a read
// of the user's holds. The fault tests (internal/faulttest) hold it to
// exact limits: three processes on one MariaDB let exactly 300 of 600 calls
// through under a daily limit of 300, and exactly 50 of 150 for 50.00 at
// 1.00 a call.
//
// # Per call
//
// Limited plans, calls with invalid parameters, gateway operations, calls
// that got no hold and every call with METERING_HOLDS=off reserve before
// the upstream call: one transaction debits the charge, inserts the hit
// pending with reserved_amount, and counts the day and month. After the
// upstream call a failure is refunded (refund row, hit failed, charge
// 0.0000) before the error answer; a success answers at once and is
// settled right after (hit success, payload, charge, cost) by the writers:
// the money moved with the reservation, so nothing is charged without its
// hit. A settlement or capture the database refuses is retried (250 ms,
// 500 ms, 1 s, then every 2 s) for up to Config.SettleRetryWindow (30 s),
// never past half of HIT_RECOVERY_AFTER; one still not written is given up
// (a capture: logged at ERROR, uncharged; a settlement: refunded by
// recovery).
//
// # The writer: group commit
//
// Reservations, failed settlements, refunds and captures go through the
// instance's metering writer (batch.go), which applies everything queued,
// at most Config.BatchSize (256) calls, in one transaction: lock the users'
// rows in id order, raise each key's daily counter under its row lock (the
// first calls in queue order fit), settle and capture, decide each new
// call in queue order with Admit (daily limit, parameters, plan limit,
// balance), write hit and ledger rows with multi-row INSERTs (each debit
// with its own balance_before/balance_after), save each balance once. A
// caller that waits is released only after its batch committed; while one
// batch commits the next queues, so batches grow with load and nothing
// waits at low load. A batch whose transaction fails is tried once more
// (each attempt bounded to 15 s), then every waiting call answers 503 with
// nothing written; a batch the database refuses for another reason is
// applied call by call, so only the refused call fails. Instances
// serialise on the same row locks in the same order (users, then keys), so
// limits stay exact and lock waits cannot cycle. The key's counter is one
// UPDATE deciding on the latest committed value when the batch fits;
// otherwise a locked read decides how many still fit.
//
// What a batch writes is planned by planBatch, a pure function: it returns
// copies of the hit rows to write, each call's result and the users' rows
// as the batch leaves them, and changes none of its inputs; calls get their
// results only from the plan of the transaction that committed (a batch
// may be planned again from locked rows, see adapters/sqlstore's
// snapshot guard). When it changed its inputs in place, an optimistic
// batch planned from a stale snapshot (a credit made outside the metering
// path) zeroed its captures' charges, and its re-plan from the locked row
// wrote them as successes with charge 0: up to 59 of 1,500 calls served
// free, with a clean ledger check, which now compares admitted_amount.
//
// When the store settles apart (ApartSettler: MySQL), successful per-call
// settlements have a writer of their own: per chunk one conditional
// UPDATE … WHERE id IN (…) AND status = 'pending', then the usage roll-up,
// in a transaction with no user or key lock, so it overlaps the
// reservation batches. It gathers settlements for up to SettleLinger, less
// when BatchSize are queued or a read needs them. When the update moves
// fewer rows than given, the hits that now read success are the moved ones.
// Failed calls settle in the metering writer, since their refund needs the
// user's lock. SQLite has one writer, so everything stays in one queue.
//
// # Reads see this instance's calls
//
// AwaitSettlements puts a fence in each writer's queue (free when nothing
// is queued) and returns once everything queued before it is written.
// app.New hands it to the other use cases, which call it before reads that
// show hits or charges: hit log and ledger lists and exports, GET /auth/me,
// the admin's view of a user, the dashboards, the ledger check, a webhook
// delivery round, and a balance adjustment (so the ledger keeps the order
// in which this instance answered).
//
// # Lookups
//
// prepare.go keeps, for Config.LookupTTL (1 s, capped at 2 s), a service by
// slug, a key (status, secret hash, allow lists), a key's owner (status,
// role, deletion), the caller's price quote and the parameter rules (patterns
// compiled once). Balances, plans and counters are never cached: they are
// decided under row locks. A change made through this instance empties the
// cache at the write and again after the transaction; the invalidation
// wraps the stores and transactor that app.New hands every other use case,
// so none has to remember it. Not-found answers are cached, errors are not;
// concurrent misses of one entry share one load; the cache holds at most
// 50,000 entries and is emptied when full. Metered calls and gateway
// operations authenticate a key through them alike (authenticate: by key,
// by the secret's hash or by id).
//
// A caller's price is pricing.PriceFor (the function the panel shows
// prices with): a reseller's customer is charged the resale of its
// reseller's price row (pricing.Resell). The quote is cached per service
// and caller and emptied by any write of prices, users, selling prices or
// markup on this instance; gateway operations read it uncached. The
// hit carries reseller_id from the start (also when refused or failed) and
// its commission only once it succeeds and is charged. A customer of a
// reseller that is blocked, deleted or no longer a reseller (user.Resells,
// read from the reseller's row cached like the owner's) pays the list
// price, and its hit names no reseller and earns no commission. A call
// reads nothing of the reseller's row under a lock and writes none of it
// (but a payout: Op.LockReseller).
//
// # A plan's monthly count
//
// A limited plan's allowance is carried on the user row
// (users.plan_monthly_calls, NULL = unlimited, written by the store with
// users.plan), and its count and month are columns of the same row, changed
// under the balance's row lock in the reservation. Every call that reaches
// the reservation counts, free services included; a refunded call gives its
// count back; the counter never moves back to an earlier month when calls
// from both sides of midnight share a batch.
//
// # Crash and database loss
//
// Recovery (recovery.go) runs at start-up before serving and every
// min(30 s, grace/2) on every instance. It releases holds that expired more
// than HIT_RECOVERY_AFTER ago (money and daily calls back, each hold once,
// log "hold left open released"), and refunds hits left pending longer than
// that (refund row of reserved_amount, monthly call given back, hit failed
// with {"error":"interrupted"}, charge 0): it moves a hit by a conditional
// update on pending first and writes the refund only if that moved it, in
// one transaction under the user's lock, so several instances or a late
// settlement cannot refund twice. Only the hit's own fee: a recharge's
// amount has its own recovery. A call on a hold whose capture was not
// written before recovery released the hold is written success with charge
// 0 and uncharged = hold_released when the balance no longer pays
// (logged "hold call not charged").
//
// A refused, reset or killed connection is 503 service_unavailable (the
// store maps it, however the use case wraps it). The first failed capture
// or hold fetch keeps every call off holds for a second (they go the
// per-call way and answer 503); a call on a hold that saw the failure while
// it ran answers 503, its hit failed and uncharged once the database is
// back. An ambiguous commit (committed, but the client saw an error)
// answers 503 for calls whose write did commit; recovery refunds them after
// the grace. Close (SIGTERM) stops taking calls, writes every queued
// capture and settlement (retries included), lets hold fetches under way
// end, then releases this instance's holds.
//
// # Gateway operations
//
// A gateway operation (an Op) is billed the per-call way, through the
// gateway's Meter port (operations.go). Open checks it: the built-in
// service row, key, price, allow lists and the key's daily count, then an
// idempotent replay (Op.Replay: a hit success with charge 0 and
// {"replayed":true}, counted for the day but not the plan). An operation
// with rows of its own (a payment and its Idempotency-Key, a recharge, a
// payout, an account opening) then opens its transaction itself: Bill.Reserve
// admits the call and writes the pending hit and the debit under the
// user's lock, the batch's steps for one call, and the operation writes
// its rows after it in the same transaction. Bill.Run answers a refusal,
// or calls the provider outside any transaction (Op.Perform) and settles
// (the writer's Settle) or refunds (Refund). An operation without rows
// (a verification) is Meter: the same, its reservation queued with the
// metered calls.
//
// It is the metering area: this package (metered calls: keys, holds,
// batches), hitlog (one row per call), hold (money set aside), report
// (roll-ups), retention (payload expiry) and history (the panel's lists,
// exports and dashboard).
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package metering
