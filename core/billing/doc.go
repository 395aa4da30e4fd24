// Package billing charges subscriptions: the monthly renewal of each
// user's plan from the wallet, past-due retries and the grace's end
// (docs/decisions.md, "Plans that bill"). Every step locks the user's row,
// then the subscription, and writes the period, the debit and the events
// in one transaction, so any number of instances may run it at once.
//
// The catalog. Plans are rows (plans, migration 00036): code, name,
// monthly_price (NULL: agreed per account), monthly_calls (NULL:
// unlimited), features, public, status. Migration 00036 seeds Starter
// (0.00, 100 calls, four features, public) and Enterprise (custom price,
// unlimited, five features, not public). CreatePlan (audited plan.create)
// takes a lowercase slug code (unique, 409 plan_code_taken) and requires
// monthly_price and monthly_calls, null meaning an agreed price and
// unlimited calls: a plan that bills is never made by leaving a field out.
// The catalog, not a column type, says which codes exist (users.plan is a
// plain string since migration 00037): an account's plan must name an
// active plan (422). UpdatePlan (audited plan.update) writes a new
// allowance to the plan's users' rows in the same transaction (it applies
// to their next call); a new price applies to accounts moving onto the plan
// afterwards. The default plan (DEFAULT_PLAN; the server refuses to start
// when no active plan has that code) cannot be retired.
//
// Subscriptions. One per user (subscriptions, unique user_id): plan,
// price, the period (a local calendar month of TIMEZONE: period,
// period_start, period_end), active or past_due. At the upgrade, migration
// 00040 (in Go: the month is TIMEZONE's, which the server gives the store
// before migrating) opened one for every existing user on the plan their
// row names, at its price, in the current local month, whose period is
// waived: nothing is charged retroactively. Accounts made later get theirs
// the same way from the billing step (each worker round, or their first
// read), so account creation stays untouched. An Enterprise account without
// an agreed price has price 0.00 until an admin sets it.
//
// Renewal. Each charged month is a subscription_periods row, unique on
// (user_id, period), inserted in the transaction that debits its fee
// (debit, reference_type plan_fee, reference_id the period row,
// description "Plan <code>, <month>"), under the user's row lock then the
// subscription's. A price of 0.00 writes the period (paid, amount 0.00)
// and no ledger row. Run, every minute on every instance and as `server
// billing run [--at <RFC 3339>]`, does at an instant every renewal due and
// not done per subscription (months no run saw included), each user in its
// own transaction, so a crash loses at most the one being written. The
// lists are paged by user id; an account whose step fails is logged and
// skipped. Renewal and past-due moves write subscription.renewed,
// subscription.past_due and subscription.downgraded events and mail the
// owner after the commit.
//
// Past due. A wallet short of the fee (its available balance, less held
// money) leaves the period due and the subscription past_due since the
// renewal's instant. RetryPastDue, every 5 s (and the minute round too),
// charges it once the wallet holds it, whatever credited the money; paid,
// the subscription is active again. Still short 7 days after, the period
// is void (never charged) and the account moves to the default plan, whose
// allowance applies to its next call. A past-due subscription renews no
// further month until paid or moved, and cannot change plan (409).
//
// Changes (changes.go). Users switch only between public plans (the
// current one included: a private plan, such as an agreed Enterprise
// price, changes through an admin). A higher monthly price applies at once
// and debits the difference prorated by the days left in the local month,
// the first day counted, rounded half-up to 2 places (plan_fee, on the
// current period, whose amount grows by it); 402 and nothing changed when
// the wallet cannot cover it. A lower or equal price waits for the next
// period (next_plan_code); nothing is refunded; choosing the current plan
// again drops the waiting change. An admin's change (audited
// subscription.set) applies at once, with a price required for a
// custom-price plan, charging the prorated difference only when the price
// rises. Every change writes subscription.changed. The user's plan field
// (PATCH /panel/users/{id}) moves the subscription too, at the plan's price
// (0.00 for a custom price), charging nothing. Quote answers what the same
// change would do (at once or from the next period, the amount debited
// now, the next monthly amount) with the change's refusals, changing
// nothing; proration is by local day, so a quote holds for that day.
// A change made after its period ended and before the renewal ran (the
// worker runs each minute) renews it first, in the worker's own step: the
// difference is booked to the new month and prorated within it
// (plan.ProrateIn), never charged for the month that ended (without it, an
// upgrade one second into a month paid the old month's difference, then
// the new month in full). A quote then shows the renewed subscription's.
//
// It is the billing area: this package (subscriptions: renewals,
// plan changes and their quotes), plan (the plan catalog), invoice (tax
// documents and their rules), issuing (issuing them each month, IRNs, the
// GSTR-1 register, statements), gst (tax rules), taxprofile (the documents'
// two parties) and parties (their settings).
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package billing
