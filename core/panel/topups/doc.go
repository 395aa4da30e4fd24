// Package topups holds the panel's use cases of balance requests: an
// owner's request with its payment screenshot, the lists, and the admins'
// approval (the credit in the same transaction, also for reconciliation's
// matches through ApproveTopUpTx) or rejection. The rules are core/topup's.
//
// A reseller decides its own customers' requests: an approval is a
// transfer to the customer (panel.Move, balance_request_id set; 402 when
// the reseller's available balance is short) in the transaction that marks
// the request approved. Reconciliation's automatic approval stays the
// admins' credit. A reseller lists its customers' requests (scope=customers,
// with user_name) and reads each, with its screenshot, as it decides it
// (GET /balance-requests/{id} and its /screenshot: the owner's, its
// reseller's and the admins'; anyone else's is 404).
package topups
