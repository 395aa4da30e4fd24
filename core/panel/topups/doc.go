// Package topups holds the panel's use cases of balance requests: an
// owner's request with its payment screenshot, the lists, and the admins'
// approval (the credit in the same transaction, also for reconciliation's
// matches through ApproveTopUpTx) or rejection. The rules are core/topup's.
package topups
