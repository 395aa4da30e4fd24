// Package outbox delivers the events that changes write to the outbox in
// their own transaction (store.Emit): a worker claims due deliveries under
// a lease, signs and posts them, and logs every attempt; users and admins
// list, inspect and redeliver them (docs/decisions.md "Webhooks").
//
// Rows. webhook_events (public_id msg_ + ULID is the webhook-id; body
// {type, timestamp, livemode, data}), webhook_deliveries (one per event and
// destination: the user's webhook_url, or a payment's callback_url) and
// webhook_attempts. No destination, no event: nothing is written for an
// account without a webhook URL or callback, and setting one later does not
// replay. A webhook delivery uses the account's URL at attempt time.
//
// Signing (core/events/webhook). Standard Webhooks: HMAC-SHA256 of
// "id.timestamp.body" with the base64 key after whsec_, the timestamp of
// the attempt. The secret is users.api_secret (HMAC needs the key itself;
// sealed at rest by the store), never in answers but the rotation's, logs
// or audit snapshots; a rotation applies to pending retries at once.
//
// The worker (Run). Every instance polls every WEBHOOK_POLL_INTERVAL (1 s),
// reads whether anything is due before taking a write transaction, claims
// due deliveries in one short transaction (FOR UPDATE SKIP LOCKED on MySQL;
// a lease of 6 × WEBHOOK_TIMEOUT and a claim token) and starts attempts
// without waiting for them, at most 8 per instance. A quarter of the slots
// serve only first attempts and redeliveries due within the last minute,
// so slow receivers hold at most the retry slots and a new event starts
// within 5 s. Claims that cannot start (lease too short, shutdown) are
// released at once. The outcome is written only if the row still carries
// the claim's token: at least once, never twice at the same time.
//
// Outcome. A 2xx within WEBHOOK_TIMEOUT (10 s); redirects are not
// followed. Retries after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h and 6 h: the
// 8th and last attempt 23 h 36 min after the first, then failed. Answers
// and errors are stored as valid UTF-8. The backlog gauge is counted every
// 10 s (RefreshBacklog).
//
// Redelivery (202) makes a delivery pending, due now, with a fresh
// schedule; an attempt under way finishes but cannot overwrite it. At most
// 10 per delivery per hour across instances: each is a webhook_redeliveries
// row, counted by a locking read after the delivery's row is locked by its
// update; the 11th is 429 redelivery_limit_reached with Retry-After until
// the oldest counted one is an hour old.
//
// What events say. balance.low is edge-triggered: fired when
// balance_before ≥ threshold > balance_after, re-armed by a credit back
// above; checked where entries are made (store.Post, the metering batch's
// store.AlertLowBalance) against the locked user row, costing nothing
// unless an entry crossed. livemode is whether the money an event reports
// is real: an operation of a provider says its provider's mode, stored on
// the record at creation (payments and their refunds the payment
// provider's, recharges the operator's, payouts and account openings
// theirs); events of the platform's own books (balance_request.*,
// balance.low) say whether the instance takes real money, i.e. its payment
// provider is live, the value a payment created now stores (app.New hands
// it to metering and the panel; a balance.low written by a payment's or
// refund's ledger row takes that payment's).
//
// Addresses. webhook_url and callback_url naming localhost or non-public
// literal addresses are 422; resolved addresses are checked again when
// connecting (adapters/webhook over adapters/upstream's transport: DNS
// rebinding included; IPv4-mapped, NAT64 and 6to4 judged by their IPv4
// address, Teredo refused); UPSTREAM_ALLOW_PRIVATE lifts it. A burst of
// more than 8 slow first attempts makes later events wait up to 10 s.
package outbox
