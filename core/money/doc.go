// Package money holds the panel's use cases of balance requests: an
// owner's request with its payment screenshot, the lists, and the admins'
// approval (the credit in the same transaction, also for reconciliation's
// matches through ApproveTopUpTx) or rejection. The rules are core/money/topup's.
//
// A reseller decides its own customers' requests: an approval is a
// transfer to the customer (panel.Move, balance_request_id set; 402 when
// the reseller's available balance is short) in the transaction that marks
// the request approved. Reconciliation's automatic approval stays the
// admins' credit. A reseller lists its customers' requests (scope=customers,
// with user_name) and reads each, with its screenshot, as it decides it
// (GET /balance-requests/{id} and its /screenshot: the owner's, its
// reseller's and the admins'; anyone else's is 404).
//
// It is the money area: this package (balance requests: top-ups and
// their approval, and money moved between resellers and customers), ledger
// (every balance movement) and ledger/check (the books' check), topup,
// transfer, statement (bank statement lines) and reconciliation.
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package money
