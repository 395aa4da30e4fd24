// Package reconciliation is the admins' bank-statement reconciliation: an
// imported statement's credit lines are recorded once, matched by UTR (or
// payment id) and amount to open payments, which complete, and to pending
// balance requests, which are approved; the rest wait for an admin to match
// by hand or dismiss with a note. Every decision is in the audit log
// (docs/decisions.md, "Bank-statement reconciliation").
//
// Reading (core/money/statement's Reader). The header row is found among the
// first 40 rows; defaults and synonyms cover "Date, Narration, Ref No,
// Debit, Credit, Balance" exports, and other names come as *_column fields
// of the upload; amounts take Indian or Western grouping and ₹/Rs/Cr marks;
// dates are day-first. Only credit lines are recorded, each once: line_key
// is the SHA-256 of date, ref, amount, narration, balance and the
// occurrence index of that tuple in the file, under a unique index,
// inserted 1,000 at a time with conflicts skipped.
//
// Import streams: the upload is spooled to a temporary file beyond 64 kB
// (the column fields may follow the file, and the file cannot be read
// without them), then read line by line, and each batch of 1,000 credit
// lines is recorded, planned and matched before the next is read; what
// grows with the file is only the occurrence index (a 64-bit hash and a
// count per credit line, about 24 bytes). Uploads above
// STATEMENT_IMPORT_MAX_BYTES (20 MB) are 413, and one import runs at a time
// per instance (another meanwhile is 429 import_in_progress). A file cut
// off mid-way keeps the lines recorded before the cut. Figures:
// docs/benchmarks.md.
//
// Matching is a pure plan (statement.Plan): a pay_ id in the line, else the
// UTR, names a payment; else the UTR names a pending balance request; the
// amount must be equal and the target open. A reseller's customer's
// request is never a target (it paid its reseller, not the platform; only
// its reseller decides it): its line stays no_match, and an admin's hand
// match to it is 409 reseller_decides. Each match is one transaction:
// the line's conditional update (a unique target per line), the payment's
// completion (gateway.CompletePaymentIn) or the request's approval (by the
// importing admin, remarks naming the line), and an audit entry. A line
// whose target's balance cannot hold the credit rolls back only its own
// match and stays unmatched (credit_held, balance_full), logged; the
// import goes on. Everything else stays unmatched with a reason
// (amount_mismatch, no_match, …) for an admin to match by hand (amounts
// equal; still too full: 422 balance_too_large) or dismiss with a note,
// both audited.
package reconciliation
