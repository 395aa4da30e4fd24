// Package topup holds balance requests (top-ups): a user reports a bank
// transfer (amount, UTR, method, optional screenshot) and an admin approves
// it, which credits the balance, or rejects it. A decision is final.
//
// Active accounts of any role may ask. Amount > 0, 2 places, at most
// BALANCE_REQUEST_MAX (500000.00 by default); at most 10 pending per user
// (409 too_many_pending_requests: a count before the insert, guarding
// storage, not money). The UTR is trimmed and upper-cased, 6-50 letters,
// digits and single hyphens, claimed once over every request in every
// state and every payment (core/platform/utr; reuse 409 utr_taken, also in a race);
// a rejected request keeps its UTR. The payment method is one of upi (the
// default), imps, neft, rtgs, bank_transfer, cheque. Remarks ≤ 1000
// characters; admin remarks are required to reject.
//
// The screenshot is PNG, JPEG, WebP or PDF recognised by magic bytes,
// ≤ 5 MB; the route reads at most 6 MB (413 beyond), 1 MB in memory. It is
// stored through the Files port under a server-chosen ULID name behind an
// os.Root, saved before the insert and deleted if the insert fails;
// downloaded by owner and admins only, with its detected type, nosniff, a
// sandboxing CSP and no-store. The server reads each request within 2
// minutes, so trickled uploads cannot hold connections.
//
// Deciding is one conditional UPDATE … WHERE status = 'pending' (0 rows:
// 409 Balance request already decided), then for an approval the owner's
// row lock and the credit, in one transaction; a credit past DECIMAL(12,2)
// is 422 balance_too_large and rolls back (topup.ErrBalanceFull; from a
// statement line the line waits, balance_full). The credit is posted
// whatever the owner's status.
package topup
