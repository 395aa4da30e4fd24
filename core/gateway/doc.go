// Package gateway holds the payment-gateway operations: payments with a
// hosted checkout page, account verification and mobile recharge, each
// billed like a metered call through its built-in service row, and the
// key owner's transaction list. Providers are ports (payment, verification,
// recharge) with sandbox adapters by default. Payouts, account openings,
// refunds and the crediting of collections live here too. The decisions
// are docs/decisions.md's "Gateway"; how they are carried out:
//
// # Billing
//
// Every operation is a metering.Op billed through the Meter port: the
// built-in service rows (payment-create, account-verify, recharge-mobile,
// payout-transfer, account-open; category gateway, URL builtin://<slug>)
// are created at every start when missing, whatever DEMO_DATA says; an
// admin may price them, deactivate one (404) or leave it out of a key's
// allow list (403); /api/v1/<slug> refuses them (404). Each operation adds
// its own rows to the reservation transaction (a payment and its
// Idempotency-Key; a recharge, a payout or an opening) and calls its
// provider outside any transaction. Reads (payment/status, recharge/status,
// transaction/list) are not billed or counted: key, owner and allowed_ips
// only. Wrong JSON types and unknown fields are 422 field errors after the
// key checks (a logged call); amounts may be numbers or strings, read as
// their literal text (json.Number).
//
// # Payments
//
// Idempotency-Key: 1-255 printable ASCII, per merchant, kept 24 h, claimed
// in a unique (user_id, idem_key) row in the creating transaction; the
// same body (the normalised request compared by SHA-256, so 250 and
// "250.00" match) answers the first payment (201, Idempotent-Replayed:
// true), another body 409. States move forward only, by conditional
// updates: created → pending (page opened) → success | failed, or expired
// after 30 min (a worker every 30 s on every instance, and on read); a
// completion after 30 min becomes expired; open payments of an inactive
// merchant cannot be paid (409 page). livemode is stored at creation
// (!Provider.Sandbox(); no provider, or a row older than the column:
// false); a test-mode payment's checkout page shows a "Test mode" banner
// and the panel a "Test" badge. payment.Provider gives the checkout's UPI intent and says whether
// it is a sandbox; only the sandbox renders the Pay and Fail buttons.
//
// Completion. Every path to success (the sandbox's Pay, CompletePayment
// and CompletePaymentIn for confirmed money such as reconciliation) goes
// through settleIn: one transaction locks the beneficiary's user row, moves
// the payment by a conditional update from the state it read, and posts
// the merchant's credit (payment) and, when collection_fee_percent > 0, the
// fee's debit (payment_fee: amount × percent / 100 rounded half-up to 2
// places, stored on the payment as fee, so the books check after a rate
// change) with payment.success; of racing completions (instances, the
// expiry worker, the payer) only the winner posts. Confirmed money past
// expires_at is payment.ErrExpired and posts nothing, whether or not the
// worker came by. A balance top-up (purpose balance, POST
// /panel/balance/checkout: no key, not billed, at most BALANCE_REQUEST_MAX
// and one UPI payment's limit, the platform named as payee) credits its
// payer with no fee.
//
// Held collections. A credit that would overflow the beneficiary's
// DECIMAL(12,2) balance is found under its row lock before anything is
// written (payment.ErrCreditHeld); after that transaction rolls back,
// HoldCredit moves the payment to pending with credit_held_at (first time
// only) by a conditional update, logs an error line and counts
// paygate_collections_held_total. A held payment never expires or fails
// (Move refuses, the expiry worker skips it, its lifetime no longer turns a
// completion into expired); the checkout page says the confirmation is
// delayed and offers no second payment. Admins list and retry held
// collections (audited payment.credit_retry; 409 collection_held while
// still too large); a statement line that confirmed one stays unmatched
// with reason credit_held, and matching it by hand is the same retry; the
// sandbox's Pay retries too.
//
// upi_direct. After paying, the payer posts the 12-digit UTR (POST
// /pay_<id>/utr, a plain HTML form); the payment stays pending with its utr
// (claimed once, core/platform/utr) and its expiry moves to 7 days, since
// statements arrive daily. The page takes one UTR per payment (the same
// again changes nothing; another is 409 utr_already_submitted); an admin
// corrects one (PUT /panel/payments/{id}/utr with a reason, audited
// payment.utr_correct: the old claim released, the new one claimed).
//
// # Refunds
//
// RefundPayment (POST /api/v1/payment/refund, and the panel's POST
// /panel/payments/{id}/refunds) runs one transaction: lock the merchant's
// row, then the payment's; check amount ≤ amount − refunded_amount (422
// otherwise); insert the refund pending; raise payments.refunded_amount;
// post a debit (reference_type refund; 402 when the balance less held money
// cannot cover it); claim the Idempotency-Key (own table, the payments'
// pattern, looked up again after the locks so a concurrent duplicate waits
// and replays). Only then is the provider asked, outside any transaction.
// pending → processed | failed is a conditional update; a failure, in the
// same transaction, lowers refunded_amount, gives the money back as a
// refund entry under the same reference (total_spent falls back) and emits
// refund.failed. No answer leaves it pending (the request still answers
// 201): CheckRefunds, on every instance, claims due refunds by a conditional
// update, asks again with backoff up to 1 h, and fails and gives back one
// unanswered after 24 h. The lock order is merchant → payment everywhere.
// Refunds are not billed (no hit row). upi_direct refunds fail at once.
//
// # Recharges
//
// The amount (10.00-10,000.00) is debited (reference_type recharge) in the
// reservation transaction under the user's lock. The same reference_id
// with the same request answers the existing recharge unbilled; another
// request 409 reference_id_reused. A failure refunds the amount once
// (conditional pending → failed), whichever instance hears it; the service
// fee is not refunded when the operator fails later. CheckRecharges takes
// up to 100 due recharges a round, earliest first, claims each by a
// conditional update (attempts + 1, next check per recharge.Backoff), and
// claims nothing new after 1 minute. submitted_at is set once Submit
// answered; a new row is due only after recharge.SubmitGrace (2 × the
// provider timeout + 15 s), so the worker never races the request; a due
// recharge without submitted_at is submitted again, never checked, which
// needs providers to make Submit idempotent by our reference (rch_<id>).
// Pending 48 h after creation: flagged needs_reconciliation (panel filter),
// logged once, still asked hourly, never refunded on age.
//
// # Payouts
//
// Transfer is billed through payout-transfer (the call's charge is the
// fee). In the reservation transaction, under the user's row lock, the
// day's payouts (pending, processing and successful ones created since
// local midnight) are checked against users.daily_payout_limit
// (2,00,000.00 by default, set per account by admins; 422
// daily_payout_limit_exceeded with the remaining amount under
// errors.amount), the payout row is inserted and its amount debited
// (reference_type payout); the same reference_id sent at once inserts one
// row (a unique key) and the losers answer as its retry. Moves are
// conditional updates from the state read (pending → processing → success
// | failed, success → reversed) with their refunds and payout.* event in
// the same transaction: failed refunds the amount (payout) and the fee
// (payout_fee), reversed the amount only. The fee comes back only if the
// call that charged it kept it: crash recovery refunds an interrupted
// call's charge, so a payout whose call was interrupted does not refund the
// fee again, and a payout never fails while its call is unsettled (a
// refusal at Submit is applied once the call settled; the worker waits for
// a crashed call to be recovered); both read the call's hit under the
// owner's row lock, which recovery takes too. No answer leaves the payout
// pending and unsubmitted; CheckPayouts (every 2 s on every instance)
// submits it again after payout.SubmitGrace, which needs providers to make
// Submit idempotent by our payout_id, and asks about processing payouts
// with payout.Backoff; a success is watched for a reversal for 72 h.
// Beneficiary account numbers are stored in full (a re-submission needs
// them) and shown masked (all but the last 4 digits) in answers, lists,
// exports, events, hit logs and ledger descriptions. The sandbox is the
// only provider (livemode false); a live one is an adapter of
// payout.Provider.
//
// # Account openings
//
// OpenAccount is billed through account-open (0.00 by default); the
// opening row (aco_ + ULID) is written in the reservation transaction and
// the provider asked outside it. States initiated → kyc_pending (the
// provider's kyc_url) → opened (masked account number, IFSC) | rejected,
// each one conditional update with the account_opening.* event of an end
// state; no event for kyc_pending; no money moves. PAN and Aadhaar reach
// the provider only in that request's Submit; CheckAccountOpenings (every
// 2 s) re-submits an unanswered one after 2 × the provider timeout + 5 s
// with neither (the applicant enters them at the bank's KYC page), claims
// due openings with a backoff of 5 s doubling to 10 min, and leaves
// openings whose applicant never completes KYC kyc_pending (the provider
// rejects them after its own deadline). Provider texts are scrubbed of the
// full values. Validation (core/gateway/accountopen): name, date of birth (18 or
// older), PAN and Aadhaar shapes (no Verhoeff check), mobile, email,
// address, product savings.
//
// # Verification
//
// "Not verified" is billed (the check was made); no answer is 503
// provider_unavailable, refunded. Identifiers are kept masked (account
// number, Aadhaar and PAN: all but the last 4 characters as X; a VPA its
// first 2 characters and the handle), an echo in the provider's answer is
// scrubbed, and PAN name and dob are not stored.
//
// It is the gateway area: this package (the operations: payments,
// refunds, verification, recharges, payouts, account openings, and their
// workers), payment, payout, beneficiary, recharge, verification and
// accountopen (each operation's records, rules and provider port).
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package gateway
